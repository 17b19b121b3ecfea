import type { Clock } from './clock.ts';
import { checkHeaders } from './config.ts';
import { NetworkError, PartnerPrintError, TimeoutError } from './errors.ts';
import type { OperationIndex } from './operations.ts';
import { retryAfterSeconds } from './response.ts';

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
  operations: OperationIndex;
  scrub: (text: string) => string;
}

export const SECRET_HEADER = 'x-service-secret-key';
const IDEMPOTENT = /^(GET|HEAD|OPTIONS|PUT|DELETE)$/;
// Uploading the same bytes twice returns the same reference, so uploads are safe to repeat.
const CONTENT_IDEMPOTENT = /\/(images|evidence)$/;

/** Requests that may be repeated after a network error, a timeout or a 5xx. */
export const isRepeatable = (method: string, path: string): boolean =>
  IDEMPOTENT.test(method) || (method === 'POST' && CONTENT_IDEMPOTENT.test(path));

/** A copy of a transport's error holding only its (scrubbed) name and message: no request, no headers. */
function safeCause(error: unknown, scrub: (t: string) => string): Error {
  const e = error as Error | undefined;
  return Object.assign(new Error(scrub(String(e?.message ?? error))), { name: String(e?.name ?? 'Error') });
}

/**
 * Per-attempt timeout, started when the request leaves the rate-limit queue.
 *
 * Arming a timer and listening on the request's signal per attempt cost more CPU in Node than the
 * whole rest of the client, so attempts share one sweeping timer (every min(ms, 1 s) while any is in
 * flight): it times out attempts past their deadline and ends those whose caller aborted, even when
 * the transport ignores signals. A transport that reads `init.signal` gets a signal that aborts at
 * once on the caller's abort and on timeout.
 */
export function withTimeout(inner: Fetch, ms: number, describe: (req: Request) => string): Fetch {
  if (!(ms > 0) || !Number.isFinite(ms)) return inner;
  const inFlight = new Set<{ deadline: number; req: Request; stop: (reason: unknown) => void }>();
  let sweeper: ReturnType<typeof setTimeout> | undefined;
  const sweep = () => {
    sweeper = undefined;
    const now = performance.now();
    for (const { deadline, req, stop } of inFlight)
      if (req.signal.aborted) stop(req.signal.reason);
      else if (deadline <= now)
        stop(new TimeoutError(`${describe(req)}: no response within ${ms} ms`, { code: 'timeout' }));
    if (inFlight.size) arm();
  };
  const arm = () => {
    sweeper = setTimeout(sweep, Math.min(ms, 1000));
    // Pending attempts keep the process alive through their transport, not through this timer.
    (sweeper as { unref?: () => void }).unref?.();
  };
  return (req) =>
    new Promise<Response>((resolve, reject) => {
      let ctrl: AbortController | undefined;
      const forward = () => stop(req.signal.reason);
      const init = {
        get signal() {
          if (!ctrl) {
            ctrl = new AbortController();
            if (req.signal.aborted) ctrl.abort(req.signal.reason);
            else req.signal.addEventListener('abort', forward, { once: true });
          }
          return ctrl.signal;
        },
      };
      const entry = { deadline: performance.now() + ms, req, stop };
      function stop(reason: unknown) {
        if (!inFlight.delete(entry)) return;
        ctrl?.abort(reason);
        reject(reason);
      }
      const settle = () => {
        inFlight.delete(entry);
        if (ctrl) req.signal.removeEventListener('abort', forward);
      };
      inFlight.add(entry);
      if (!sweeper) arm();
      // The signal travels in `init`: a new Request per attempt just to carry it would cost more than the rest.
      inner(req, init).finally(settle).then(resolve, reject);
    });
}

/** The fetch openapi-fetch calls: V1 guard, key, retries with backoff, hooks; scheduler and timeout beneath. */
export function createStack(o: StackOptions): Fetch {
  const { clock, hooks, retry, scrub, operations } = o;
  let inner = withTimeout(o.transport, o.timeoutMs, (req) => `${req.method} ${req.url}`);
  if (o.rateLimit) inner = o.rateLimit(inner);
  const redacted = (req: Request) => {
    const h = new Headers(req.headers);
    if (h.has(SECRET_HEADER)) h.set(SECRET_HEADER, '[redacted]');
    return h;
  };
  const emit = (name: keyof Hooks, req: Request, event: Omit<ClientEvent, 'headers' | 'url' | 'method'>) => {
    const fn = hooks?.[name];
    if (!fn) return;
    try {
      fn.call(hooks, { method: req.method, url: req.url, headers: redacted(req), ...event });
    } catch {
      // A failing logger must not change the outcome of a request.
    }
  };

  return async (request) => {
    const { method, url, signal } = request;
    const query = url.indexOf('?');
    const pathname = url.startsWith(o.baseUrl)
      ? url.slice(o.baseUrl.length, query < 0 ? undefined : query)
      : new URL(url).pathname.slice(new URL(o.baseUrl).pathname.length);
    checkHeaders(request.headers, method, pathname);
    const operation = operations.byPath(method, pathname);
    const repeatable = isRepeatable(method, pathname);
    const started = clock.now();

    for (let attempt = 1; ; attempt++) {
      // A Request body can be read once: every attempt gets its own copy while the original stays unread.
      const req = request.body ? request.clone() : request;
      if (hooks) emit('request', request, { operation, attempt });
      const t0 = hooks ? performance.now() : 0;
      let delay: number | false = false;
      let status: number | undefined;
      let error: PartnerPrintError | undefined;
      try {
        const response = await inner(req);
        status = response.status;
        if (hooks)
          emit('response', request, { operation, attempt, status, durationMs: performance.now() - t0 });
        if (status === 429 || (status >= 500 && repeatable))
          delay = retryDelay(
            retry,
            clock,
            started,
            attempt,
            retryAfterSeconds(response.headers, clock.now()),
          );
        // A rendertoken shortage lasts until the weekly reset: waiting inside a call is pointless.
        if (delay === false || (status === 429 && (await codeOf(response)) === 'rendertoken_limit_exceeded'))
          return response;
        await response.body?.cancel().catch(() => {});
      } catch (cause) {
        if (signal.aborted) throw signal.reason;
        const context = { operation, method, path: pathname };
        error =
          cause instanceof PartnerPrintError
            ? cause
            : new NetworkError(
                `${operation ?? `${method} ${pathname}`}: ${scrub(String((cause as Error)?.message))}`,
                {
                  ...context,
                  code: 'network_error',
                  cause: safeCause(cause, scrub),
                },
              );
        if (!error.operation) Object.assign(error, context);
        delay = repeatable && retryDelay(retry, clock, started, attempt, undefined);
        if (delay === false) {
          if (hooks)
            emit('error', request, { operation, attempt, error, durationMs: performance.now() - t0 });
          throw error;
        }
      }
      if (hooks) emit('retry', request, { operation, attempt, status, delayMs: delay, error });
      await clock.sleep(delay, signal);
    }
  };
}

/** Milliseconds to wait before the next attempt, or false when none should be made. */
function retryDelay(
  retry: Required<RetryOptions>,
  clock: Clock,
  started: number,
  attempt: number,
  retryAfter: number | undefined,
): number | false {
  if (attempt >= retry.attempts) return false;
  const delay =
    retryAfter !== undefined
      ? retryAfter * 1000
      : Math.random() * Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
  return clock.now() + delay - started > retry.maxElapsedMs ? false : delay;
}

async function codeOf(response: Response): Promise<unknown> {
  try {
    return ((await response.clone().json()) as { code?: unknown })?.code;
  } catch {
    return undefined;
  }
}
