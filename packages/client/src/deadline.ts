/** What the transport beneath the client is handed: the request, and the attempt's abort signal as `init.signal`. */
export type Fetch = (request: Request, init?: { signal: AbortSignal }) => Promise<Response>;

/**
 * One attempt in flight, which is also the `init` the transport receives: its `signal` is made only when the
 * transport reads it, and aborts on the caller's abort and on timeout.
 */
export class Attempt<C = unknown> {
  declare ctrl: AbortController | undefined;
  /** The listener on the request's signal, removed when the attempt settles (see {@link signal}). */
  declare onAbort: (() => void) | undefined;
  // Fields assigned, not declared: a class field declaration would be emitted beside each assignment.
  declare readonly req: Request;
  declare readonly ms: number;
  /** When it times out: `ms` after it began, or after the sweep that found it due late (see {@link Deadlines}). */
  declare end: number;
  /** It was given a fresh window once, its deadline found passed by a sweep that ran late (never set otherwise). */
  declare again: true | undefined;
  declare readonly owner: Deadlines<C>;
  declare readonly onTimeout: (req: Request, ms: number) => unknown;
  declare readonly resolve: (response: Response | PromiseLike<Response>) => void;
  declare readonly reject: (reason: unknown) => void;
  /** The request's signal cannot abort (its call was given none): the attempt's signal does not listen to it. */
  declare readonly unabortable: boolean;
  /** Its neighbours in its owner's list of attempts in flight (a Set rehashed as attempts came and went). */
  declare prev: Attempt<C> | undefined;
  declare next: Attempt<C> | undefined;
  /** The call whose first attempt this is: its outcome goes to the owner's `judge` (see {@link Deadlines.run}). */
  declare readonly call: C | undefined;
  constructor(
    req: Request,
    ms: number,
    owner: Deadlines<C>,
    onTimeout: (req: Request, ms: number) => unknown,
    resolve: (response: Response | PromiseLike<Response>) => void,
    reject: (reason: unknown) => void,
    unabortable: boolean,
    call: C | undefined,
  ) {
    this.req = req;
    this.ms = ms;
    this.end = performance.now() + ms;
    this.owner = owner;
    this.onTimeout = onTimeout;
    this.resolve = resolve;
    this.reject = reject;
    this.unabortable = unabortable;
    this.call = call;
    this.prev = undefined;
    this.next = undefined;
  }
  /**
   * The first outcome wins: response, transport error, timeout or the caller's abort. An abort after the
   * response (its listener is kept, see {@link signal}) still ends the reading of its body.
   */
  settle(response: Response | undefined, reason?: unknown): void {
    if (!this.owner.remove(this)) {
      if (!response) this.ctrl?.abort(reason);
      return;
    }
    // The listener stays while the response's body may be read (headers arrived, the body can still stall),
    // until the next attempt or answer on the same signal (see `signal`): at most one kept per signal.
    if (this.onAbort) {
      const { signal } = this.req;
      if (response) {
        forget(signal);
        answered.set(signal, this.onAbort);
      } else signal.removeEventListener('abort', this.onAbort);
    }
    if (!response) this.ctrl?.abort(reason);
    // A call's first attempt: what the call does next is decided here, not in a `then` of the call's own.
    if (this.call) this.resolve(this.owner.judge(this.call, response, reason));
    else if (response) this.resolve(response);
    else this.reject(reason);
  }
  get signal(): AbortSignal {
    if (!this.ctrl) {
      const { signal } = this.req;
      this.ctrl = new AbortController();
      if (signal.aborted) this.ctrl.abort(signal.reason);
      else if (!this.unabortable) {
        // Attempts of one call share its Request (and signal): a listener left behind per attempt would pile
        // up on it (Node warns at 11). An earlier attempt's, kept for its body, goes now: its answer was not kept.
        forget(signal);
        this.onAbort = () => this.settle(undefined, signal.reason);
        signal.addEventListener('abort', this.onAbort);
      }
    }
    return this.ctrl.signal;
  }
}

/** The abort listener of the attempt that got the last response on a signal, kept while its body is read. */
const answered = new WeakMap<AbortSignal, () => void>();
const forget = (signal: AbortSignal) => {
  const listener = answered.get(signal);
  if (listener) signal.removeEventListener('abort', listener);
};

/** A promise's resolving functions, taken by one executor for every attempt (not a closure per attempt). */
const grabbed = {} as {
  resolve: (response: Response | PromiseLike<Response>) => void;
  reject: (reason: unknown) => void;
};
const grab = (resolve: typeof grabbed.resolve, reject: typeof grabbed.reject) => {
  grabbed.resolve = resolve;
  grabbed.reject = reject;
};

/**
 * Per-attempt deadlines. A timer and an abort listener per attempt cost more CPU in Node than the rest of the
 * client, so attempts share one sweeping timer (every min(ms, 1 s) while any is in flight): it times out
 * attempts past their deadline and ends those whose caller aborted, even when the transport ignores signals.
 *
 * A sweep that runs late because this process was busy (a long synchronous task, a starved event loop) says
 * nothing about the server: after a stall Node runs timers before it reads its sockets, so an answer may be
 * waiting unread, or the request may have been written only after the stall. So, as with `overdue` (the
 * shared stores' deadline), an attempt that a sweep late by more than a tenth of the attempt's `ms` (at least
 * 10 ms) finds past its deadline is given a fresh window of `ms`, once: a server that does not answer is judged
 * within 2 × `ms` plus the stall. A lag of the event loop that is small beside `ms` changes nothing.
 */
export class Deadlines<C = unknown> {
  /** The attempts in flight, oldest first. */
  head: Attempt<C> | undefined = undefined;
  tail: Attempt<C> | undefined = undefined;
  /**
   * What a call's first attempt settles with: its outcome, judged (a final answer, or the rest of the call).
   * Set by the owner's user before any `run` with a `call`; it must not throw (its caller is a `then` or a timer).
   */
  declare judge: (call: C, response: Response | undefined, reason: unknown) => Response | Promise<Response>;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #period = 0;
  /** When the armed sweep is due. */
  #due = 0;

  /**
   * `send(req, attempt)` with a deadline of `ms` (none when 0): rejects with `onTimeout(req, ms)` when it
   * passes. `onTimeout` takes the request rather than closing over it: no function is made per attempt.
   * `unabortable`: the request's signal cannot abort, so the attempt's signal does not listen to it.
   * `call`: the promise settles with `judge(call, response, reason)` instead of the attempt's outcome.
   * A `send` that throws is an attempt failed with what it threw.
   */
  run(
    send: (req: Request, attempt: Attempt<C>) => Promise<Response>,
    req: Request,
    ms: number,
    onTimeout: (req: Request, ms: number) => unknown,
    unabortable = false,
    call?: C,
  ): Promise<Response> {
    const promise = new Promise<Response>(grab);
    const a = new Attempt(
      req,
      ms > 0 && Number.isFinite(ms) ? ms : Infinity,
      this,
      onTimeout,
      grabbed.resolve,
      grabbed.reject,
      unabortable,
      call,
    );
    this.#add(a);
    this.#arm(a.ms);
    try {
      send(req, a).then(
        (response) => a.settle(response),
        (error) => a.settle(undefined, error),
      );
    } catch (error) {
      a.settle(undefined, error);
    }
    return promise;
  }

  #add(a: Attempt<C>) {
    a.prev = this.tail;
    if (this.tail) this.tail.next = a;
    else this.head = a;
    this.tail = a;
  }

  /** Takes `a` out of the attempts in flight; false when it was not in (settled already). */
  remove(a: Attempt<C>): boolean {
    if (!this.#holds(a)) return false;
    if (a.prev) a.prev.next = a.next;
    else this.head = a.next;
    if (a.next) a.next.prev = a.prev;
    else this.tail = a.prev;
    // Both links cleared: a settled attempt that lived long enough to be promoted to V8's old generation and
    // still pointed at the next attempt would keep it, and through it every later one (their requests,
    // calls and answers), alive through each young-generation collection until a full one (a linked list's
    // "nepotism"): under concurrency nearly every attempt was promoted.
    a.prev = a.next = undefined;
    return true;
  }

  /** Whether `a` is still in flight (in the list). */
  #holds(a: Attempt<C>): boolean {
    return a.prev !== undefined || this.head === a;
  }

  #arm(ms: number) {
    const period = Math.min(ms, 1000);
    if (this.#timer !== undefined && this.#period <= period) return;
    clearTimeout(this.#timer);
    this.#period = period;
    this.#due = performance.now() + period;
    this.#timer = setTimeout(() => this.#sweep(), period);
    // Pending attempts keep the process alive through their transport, not through this timer.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #sweep() {
    this.#timer = undefined;
    const now = performance.now();
    const late = now - this.#due;
    let next = Infinity;
    // First the attempts to end, then their ends: settling one runs listeners (the transport's, the caller's)
    // that may settle others, which leaves the list (links cleared) while this walks it.
    let ended: Attempt<C>[] | undefined;
    for (let a = this.head; a; a = a.next) {
      if (!a.req.signal.aborted && (a.end > now || (late > Math.max(10, a.ms / 10) && !a.again))) {
        if (a.end <= now) {
          a.again = true;
          a.end = now + a.ms;
        }
        next = Math.min(next, a.ms);
      } else {
        ended ??= [];
        ended.push(a);
      }
    }
    // One settled meanwhile (an answer, an abort) is not timed out after it.
    for (const a of ended ?? [])
      if (this.#holds(a))
        a.settle(undefined, a.req.signal.aborted ? a.req.signal.reason : a.onTimeout(a.req, a.ms));
    if (this.head) this.#arm(next);
  }
}
