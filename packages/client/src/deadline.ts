/** What the transport beneath the client is handed: the request, and the attempt's abort signal as `init.signal`. */
export type Fetch = (request: Request, init?: { signal: AbortSignal }) => Promise<Response>;

/**
 * One attempt in flight, which is also the `init` the transport receives: its `signal` is made only when the
 * transport reads it, and aborts on the caller's abort and on timeout.
 */
export class Attempt {
  declare ctrl: AbortController | undefined;
  /** The listener on the request's signal, removed when the attempt settles (see {@link signal}). */
  declare onAbort: (() => void) | undefined;
  // Fields assigned, not declared: a class field declaration would be emitted beside each assignment.
  declare readonly req: Request;
  declare readonly ms: number;
  declare readonly end: number;
  declare readonly owner: Deadlines;
  declare readonly onTimeout: (req: Request, ms: number) => unknown;
  declare readonly resolve: (response: Response) => void;
  declare readonly reject: (reason: unknown) => void;
  /** The request's signal cannot abort (its call was given none): the attempt's signal does not listen to it. */
  declare readonly unabortable: boolean;
  constructor(
    req: Request,
    ms: number,
    owner: Deadlines,
    onTimeout: (req: Request, ms: number) => unknown,
    resolve: (response: Response) => void,
    reject: (reason: unknown) => void,
    unabortable: boolean,
  ) {
    this.req = req;
    this.ms = ms;
    this.end = performance.now() + ms;
    this.owner = owner;
    this.onTimeout = onTimeout;
    this.resolve = resolve;
    this.reject = reject;
    this.unabortable = unabortable;
  }
  /** The first outcome wins: response, transport error, timeout or the caller's abort. */
  settle(response: Response | undefined, reason?: unknown) {
    if (!this.owner.inFlight.delete(this)) return;
    // Attempts of one call share its Request (and signal): a listener left behind per attempt would pile
    // up on it (Node warns at 11).
    if (this.onAbort) this.req.signal.removeEventListener('abort', this.onAbort);
    if (response) return this.resolve(response);
    this.ctrl?.abort(reason);
    this.reject(reason);
  }
  get signal(): AbortSignal {
    if (!this.ctrl) {
      const { signal } = this.req;
      this.ctrl = new AbortController();
      if (signal.aborted) this.ctrl.abort(signal.reason);
      else if (!this.unabortable) {
        this.onAbort = () => this.settle(undefined, signal.reason);
        signal.addEventListener('abort', this.onAbort);
      }
    }
    return this.ctrl.signal;
  }
}

/**
 * Per-attempt deadlines. A timer and an abort listener per attempt cost more CPU in Node than the rest of the
 * client, so attempts share one sweeping timer (every min(ms, 1 s) while any is in flight): it times out
 * attempts past their deadline and ends those whose caller aborted, even when the transport ignores signals.
 */
export class Deadlines {
  readonly inFlight = new Set<Attempt>();
  declare timer: ReturnType<typeof setTimeout> | undefined;
  declare period: number;

  /**
   * `send(req, attempt)` with a deadline of `ms` (none when 0): rejects with `onTimeout(req, ms)` when it
   * passes. `onTimeout` takes the request rather than closing over it: no function is made per attempt.
   * `unabortable`: the request's signal cannot abort, so the attempt's signal does not listen to it.
   */
  run(
    send: (req: Request, attempt: Attempt) => Promise<Response>,
    req: Request,
    ms: number,
    onTimeout: (req: Request, ms: number) => unknown,
    unabortable = false,
  ) {
    return new Promise<Response>((resolve, reject) => {
      const a = new Attempt(
        req,
        ms > 0 && Number.isFinite(ms) ? ms : Number.POSITIVE_INFINITY,
        this,
        onTimeout,
        resolve,
        reject,
        unabortable,
      );
      this.inFlight.add(a);
      this.arm(a.ms);
      send(req, a).then(
        (response) => a.settle(response),
        (error) => a.settle(undefined, error),
      );
    });
  }

  private arm(ms: number) {
    const period = Math.min(ms, 1000);
    if (this.timer !== undefined && this.period <= period) return;
    clearTimeout(this.timer);
    this.period = period;
    this.timer = setTimeout(() => this.sweep(), period);
    // Pending attempts keep the process alive through their transport, not through this timer.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private sweep() {
    this.timer = undefined;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const a of this.inFlight)
      if (a.req.signal.aborted) a.settle(undefined, a.req.signal.reason);
      else if (a.end <= now) a.settle(undefined, a.onTimeout(a.req, a.ms));
      else next = Math.min(next, a.ms);
    if (this.inFlight.size) this.arm(next);
  }
}
