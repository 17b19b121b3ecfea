import type { Clock } from './clock.ts';
import { NetworkError, PartnerPrintError, TimeoutError } from './errors.ts';
import { describeCall, retryAfterSeconds } from './response.ts';

/**
 * A transport. The client passes the per-attempt abort signal as `init.signal`: a transport that
 * honours it (as `fetch(request, init)` does) stops work on timeout; one that ignores it still gets
 * its attempt timed out.
 */
export type Fetch = (request: Request, init?: { signal: AbortSignal }) => Promise<Response>;

export interface RetryOptions {
  /** Attempts in total, the first included; 1 turns retrying off. Default 3. */
  attempts?: number;
  /** Backoff base: attempt n waits a random time in [0, min(maxDelayMs, baseDelayMs·2^(n-1))). Default 500. */
  baseDelayMs?: number;
  /** Default 20 000. */
  maxDelayMs?: number;
  /** No retry whose wait would end later than this after the call started (Retry-After included). Default 60 000. */
  maxElapsedMs?: number;
}

/** What hooks receive: never a body; `headers` is a copy with the secret key replaced by `[redacted]`. */
export interface ClientEvent {
  method: string;
  url: string;
  /** operationId (`createOrder`…) when the path is in the spec. */
  operation: string | undefined;
  /** 1 for the first attempt. */
  attempt: number;
  headers: Headers;
  status?: number;
  durationMs?: number;
  /** retry: how long the client waits before the next attempt. */
  delayMs?: number;
  error?: PartnerPrintError;
}

export interface Hooks {
  /** Before each attempt. */
  request?(event: ClientEvent): void;
  /** After each attempt that got a response (any status). */
  response?(event: ClientEvent): void;
  /** Before waiting for the next attempt. */
  retry?(event: ClientEvent): void;
  /** When a call gives up with a network error or timeout. */
  error?(event: ClientEvent): void;
}

export interface StackOptions {
  retry: Required<RetryOptions>;
  timeoutMs: number;
  hooks: Hooks | undefined;
  clock: Clock;
  transport: Fetch;
  rateLimit: ((inner: Fetch) => Fetch) | undefined;
  /** The checked base URL, e.g. `https://host/v2`. */
  baseUrl: string;
  /** operationId for a method and a concrete path below the base URL. */
  operation: (method: string, path: string) => string | undefined;
  scrub: (text: string) => string;
}

const SECRET_HEADER = 'x-service-secret-key';
// Idempotent methods, and uploads: the same bytes give the same reference, so they are safe to repeat.
const REPEATABLE = /^(GET|HEAD|OPTIONS|PUT|DELETE) |^POST \/(images|evidence)$/;

/** Requests that may be repeated after a network error, a timeout or a 5xx. */
export const isRepeatable = (method: string, path: string): boolean => REPEATABLE.test(`${method} ${path}`);

/**
 * One attempt in flight, which is also the `init` the transport receives: its `signal` is made only
 * when the transport reads it, and aborts on the caller's abort and on timeout.
 */
class Attempt {
  declare ctrl: AbortController | undefined;
  // Fields assigned, not declared: a class field declaration would be emitted beside each assignment.
  declare readonly req: Request;
  declare readonly end: number;
  declare readonly inFlight: Set<Attempt>;
  declare readonly resolve: (response: Response) => void;
  declare readonly reject: (reason: unknown) => void;
  constructor(
    req: Request,
    end: number,
    inFlight: Set<Attempt>,
    resolve: (response: Response) => void,
    reject: (reason: unknown) => void,
  ) {
    this.req = req;
    this.end = end;
    this.inFlight = inFlight;
    this.resolve = resolve;
    this.reject = reject;
  }
  /** The first outcome wins: response, transport error, timeout or the caller's abort. */
  settle(response: Response | undefined, reason?: unknown) {
    if (!this.inFlight.delete(this)) return;
    if (response) return this.resolve(response);
    this.ctrl?.abort(reason);
    this.reject(reason);
  }
  get signal(): AbortSignal {
    if (!this.ctrl) {
      const { signal } = this.req;
      this.ctrl = new AbortController();
      if (signal.aborted) this.ctrl.abort(signal.reason);
      // The request's signal is its own (openapi-fetch makes a Request per call), so nothing leaks.
      else signal.addEventListener('abort', () => this.settle(undefined, signal.reason));
    }
    return this.ctrl.signal;
  }
}

/**
 * Per-attempt timeout, started when the request leaves the rate-limit queue.
 *
 * A timer and an abort listener per attempt cost more CPU in Node than the rest of the client, so
 * attempts share one sweeping timer (every min(ms, 1 s) while any is in flight): it times out attempts
 * past their deadline and ends those whose caller aborted, even when the transport ignores signals.
 */
export function withTimeout(inner: Fetch, ms: number): Fetch {
  if (!(ms > 0 && Number.isFinite(ms))) return inner;
  const inFlight = new Set<Attempt>();
  let sweeper: ReturnType<typeof setTimeout> | undefined;
  const sweep = () => {
    const now = performance.now();
    for (const a of inFlight)
      if (a.req.signal.aborted) a.settle(undefined, a.req.signal.reason);
      else if (a.end <= now)
        a.settle(
          undefined,
          new TimeoutError(`${a.req.method} ${a.req.url}: no response within ${ms} ms`, { code: 'timeout' }),
        );
    sweeper = inFlight.size ? arm() : undefined;
  };
  const arm = () => {
    const timer = setTimeout(sweep, Math.min(ms, 1000));
    // Pending attempts keep the process alive through their transport, not through this timer.
    (timer as { unref?: () => void }).unref?.();
    return timer;
  };
  return (req) =>
    new Promise<Response>((resolve, reject) => {
      const a = new Attempt(req, performance.now() + ms, inFlight, resolve, reject);
      inFlight.add(a);
      if (!sweeper) sweeper = arm();
      inner(req, a).then(
        (response) => a.settle(response),
        (error) => a.settle(undefined, error),
      );
    });
}

/** Milliseconds to wait before attempt `attempt + 1`, or false when there is none. */
function retryDelay(
  { attempts, baseDelayMs, maxDelayMs, maxElapsedMs }: Required<RetryOptions>,
  elapsed: number,
  attempt: number,
  retryAfter?: number,
): number | false {
  const delay =
    retryAfter === undefined
      ? Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1))
      : retryAfter * 1000;
  return attempt < attempts && elapsed + delay <= maxElapsedMs && delay;
}

/** The fetch openapi-fetch calls: retries with backoff and hooks; scheduler and timeout beneath. */
export function createStack(o: StackOptions): Fetch {
  const { clock, hooks, retry, scrub, baseUrl } = o;
  let inner = withTimeout(o.transport, o.timeoutMs);
  if (o.rateLimit) inner = o.rateLimit(inner);
  const emit = (name: keyof Hooks, req: Request, event: Omit<ClientEvent, 'headers' | 'url' | 'method'>) => {
    try {
      const headers = new Headers(req.headers);
      if (headers.has(SECRET_HEADER)) headers.set(SECRET_HEADER, '[redacted]');
      hooks![name]?.({ method: req.method, url: req.url, headers, ...event });
    } catch {
      // A failing logger must not change the outcome of a request.
    }
  };

  // Below the base URL, without the query: `/orders/Order_…`.
  const pathOf = ({ url }: Request) => {
    const query = url.indexOf('?');
    return url.startsWith(baseUrl)
      ? url.slice(baseUrl.length, query < 0 ? undefined : query)
      : new URL(url).pathname;
  };

  return async (request) => {
    // The path, operation and repeatability are worked out only when needed: hooks, a failure or a retry.
    const operation = hooks && o.operation(request.method, pathOf(request));
    const started = clock.now();

    for (let attempt = 1; ; attempt++) {
      // A Request body can be read once: every attempt gets its own copy while the original stays unread.
      const req = request.body ? request.clone() : request;
      if (hooks) emit('request', request, { operation, attempt });
      const t0 = performance.now();
      let delay: number | false;
      let status: number | undefined;
      let error: PartnerPrintError | undefined;
      try {
        const response = await inner(req);
        status = response.status;
        if (hooks)
          emit('response', request, { operation, attempt, status, durationMs: performance.now() - t0 });
        delay =
          (status === 429 || (status > 499 && isRepeatable(request.method, pathOf(request)))) &&
          retryDelay(retry, clock.now() - started, attempt, retryAfterSeconds(response.headers, clock.now()));
        // A rendertoken shortage lasts until the weekly reset: waiting inside a call is pointless.
        if (delay === false || (status === 429 && (await codeOf(response)) === 'rendertoken_limit_exceeded'))
          return response;
        await response.body?.cancel().catch(() => {});
      } catch (cause) {
        if (request.signal.aborted) throw request.signal.reason;
        const { method } = request;
        const path = pathOf(request);
        const context = { operation: operation ?? o.operation(method, path), method, path };
        error =
          cause instanceof PartnerPrintError
            ? cause
            : new NetworkError(`${describeCall(context)}: ${scrub(String((cause as Error)?.message))}`, {
                code: 'network_error',
                cause: safeCause(cause, scrub),
              });
        if (!error.operation) Object.assign(error, context);
        delay = isRepeatable(method, path) && retryDelay(retry, clock.now() - started, attempt);
        if (delay === false) {
          if (hooks)
            emit('error', request, { operation, attempt, error, durationMs: performance.now() - t0 });
          throw error;
        }
      }
      if (hooks) emit('retry', request, { operation, attempt, status, delayMs: delay, error });
      await clock.sleep(delay, request.signal);
    }
  };
}

/** A copy of a transport's error holding only its (scrubbed) name and message: no request, no headers. */
function safeCause(error: unknown, scrub: (t: string) => string): Error {
  const e = error as Error | undefined;
  return Object.assign(new Error(scrub(String(e?.message ?? error))), { name: String(e?.name ?? 'Error') });
}

async function codeOf(response: Response): Promise<unknown> {
  try {
    return ((await response.clone().json()) as { code?: unknown })?.code;
  } catch {
    return undefined;
  }
}
