import { type Clock, errorCodeOf } from '@partner-print/openapi/wire';
import { type Attempt, Deadlines, type Fetch } from './deadline.ts';
import {
  AbortedError,
  AmbiguousOutcomeError,
  NetworkError,
  PartnerPrintError,
  TimeoutError,
} from './errors.ts';
import type { Emit } from './events.ts';
import { isError, redactSecret } from './redact.ts';
import { followRedirect, isRedirect } from './redirect.ts';
import { type CallContext, describeCall, retryAfterSeconds } from './response.ts';
import type { CallTelemetry, StackTelemetry } from './telemetry/types.ts';

export type { ClientEvent, Hooks, Logger, LogLevel } from './events.ts';
export type { Fetch };

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

/** What one call may change of the client's settings (per-request options). */
export interface CallSettings {
  retry: Required<RetryOptions>;
  timeoutMs: number;
}

/**
 * The rate-limit layer: `fetch` queues a request and sends it. `own`: it sends with its own transport (a
 * `Scheduler` instance), so the client cannot see when a request leaves the queue and its deadline covers the
 * queue too; otherwise it sends through the client's `transport` and `send` sends an attempt through it
 * (queue.ts, the main entry's: a bundle without a queue of the client's holds none of it).
 */
export interface Limiter {
  /**
   * `unabortable`: the request's signal cannot abort (its call was given none), so it need not be watched.
   * `call`: the call it is an attempt of, for a queue the client sends through (its budget: no pause after a
   * 429 is waited out past the call's `maxElapsedMs`).
   */
  fetch(request: Request, unabortable?: boolean, call?: Call): Promise<Response>;
  own?: boolean;
  send?: SendAttempt | undefined;
  /**
   * The call's final error when `error` is the limiter refusing an attempt it never sent (it was closed, or a
   * pause outlasts the call's budget), else undefined. `call` describes the call.
   */
  refused?: (error: unknown, call: string) => Error | undefined;
}

/**
 * One attempt through the rate limiter (if any) and the transport. `call`: a call's first attempt, judged by its
 * deadline where there is one in this layer (see `retrying`).
 */
export type SendAttempt = (
  req: Request,
  timing: Timing,
  ms: number,
  unabortable: boolean,
  call?: Call,
) => Promise<Response>;

/** What a queue the client sends through is given by the stack: its deadlines, transport and settings. */
export interface QueueKit {
  deadlines: Deadlines<Call>;
  transport: Fetch;
  /** The TimeoutError of an attempt sent through the queue (its deadline counted from when it is sent). */
  timeout: (req: Request, ms: number) => unknown;
  emit: Emit | undefined;
  /** The client's per-attempt timeout. */
  timeoutMs: number;
}

/**
 * What the client asks of a scheduler for each attempt: no 429 retries of its own. The call's one budget
 * (`retry.attempts`, `maxElapsedMs`) decides every send; the scheduler still pauses what a 429 is about.
 */
export const ONE_BUDGET = { rateLimit: { maxRetries: 0 } } as const;

/** What a call spent: requests sent (redirects followed included) and the time waited between them. */
export interface Spent {
  attempts: number;
  retryDelayMs: number;
}

const spentBy = new WeakMap<Response, Spent>();

/**
 * What the call that got this final response spent: every non-2xx (for its error), and a 2xx that came after
 * a redirect or a retry; none for a 2xx at the first attempt (one request, no wait).
 */
export const spentOf = (response: Response): Spent | undefined => spentBy.get(response);

export interface StackOptions extends CallSettings {
  emit: Emit | undefined;
  clock: Clock;
  transport: Fetch;
  /** The rate-limit layer, given what a queue the client sends through needs. */
  limiter: ((kit: QueueKit) => Limiter | undefined) | undefined;
  /** The checked base URL, e.g. `https://host/v2`. */
  baseUrl: string;
  /** operationId for a method and a concrete path below the base URL. */
  operation: (method: string, path: string) => string | undefined;
  secret: string;
  /** Spans and metrics of each call (the main entry's, unless `telemetry: false`). */
  telemetry?: StackTelemetry | undefined;
}

/** The fetch openapi-fetch calls; `settings` are a call's own `timeoutMs`/`retry`. */
export type Stack = (request: Request, settings?: CallSettings) => Promise<Response>;

/**
 * Whether the call being sent was given no signal (so nothing can abort its Request's, and no listener is
 * added to it, by the client or beneath), from the client's method to its stack. Set only while openapi-fetch
 * builds and sends the Request synchronously (no middleware): a stack entered later (after a middleware's
 * await) finds it false and watches the signal, as before.
 */
export const handoff: {
  unabortable: boolean;
  ownAgent: boolean;
  /**
   * `null` from the client while it sends a call whose answer it reads (`get`, `post`): the stack, entered
   * within the send, puts the call's record here, for {@link unread}. Undefined otherwise.
   */
  call?: unknown;
  /** A record and its error from {@link unread}: the stack entered next continues that call's retries. */
  resume?: unknown;
  error?: unknown;
} = { unabortable: false, ownAgent: false };

/**
 * The record of a call (`handoff.call`) when openapi-fetch, reading the body of the 2xx that call handed it,
 * rejected with `error` (a body cut off, or not JSON); else undefined (an error of the SDK's own, or thrown
 * where that body was not read, e.g. by a partner's middleware: it passes on unchanged).
 */
export const unread = (record: unknown, error: unknown): Read | undefined => {
  const c = record as Call | undefined;
  return c?.answer?.bodyUsed && !(error instanceof PartnerPrintError) ? (c as Read) : undefined;
};

/** What {@link unread} finds: the call whose 2xx `answer` openapi-fetch could not read, and what it spent. */
export interface Read {
  answer: Response;
  spent: Spent;
}

/** The call `read`'s 2xx, whose body openapi-fetch could not parse (`error`): its `unexpected_response`. */
export const notJson = ({ answer, spent }: Read, error: Error, ctx: CallContext): PartnerPrintError =>
  Object.assign(
    new PartnerPrintError(
      `${describeCall(ctx)}: the ${answer.status} answer is not JSON (${error.message})`,
      { ...ctx, code: 'unexpected_response', status: answer.status },
    ),
    spent,
  );

/** The call `record` is over: its span, held open while its body was read, ends (with `error`, if any). */
export const readDone = (record: unknown, error?: unknown): void =>
  (record as Call | undefined)?.t?.read(error);

const IDEMPOTENT = /^(GET|HEAD|OPTIONS|PUT|DELETE)$/;

/**
 * Requests that may be repeated after a network error, a timeout or a 5xx: idempotent methods, and uploads —
 * the only POSTs of raw bytes (`application/octet-stream`), where the same bytes give the same reference.
 */
export const isRepeatable = (method: string, contentType: string | null | undefined): boolean =>
  IDEMPOTENT.test(method) || (method === 'POST' && contentType === 'application/octet-stream');

/**
 * What a call fails with: for a POST that may not be repeated and got no clear answer (none, a 5xx, or a 2xx
 * whose body could not be read: the reference it held is lost), an AmbiguousOutcomeError holding `error`, as it
 * may have taken effect; `error` otherwise. One rule for every form of a call (`post`, `POST`, `request`).
 */
export function ambiguousIf(method: string, contentType: string | null | undefined, error: unknown): unknown {
  if (
    method !== 'POST' ||
    isRepeatable(method, contentType) ||
    // Nothing was sent (a signal that aborted before the call began, a closed queue).
    (error as { attempts?: number } | undefined)?.attempts === 0 ||
    !(
      error instanceof NetworkError ||
      error instanceof TimeoutError ||
      (error instanceof PartnerPrintError && (error.status! > 499 || error.code === 'unexpected_response'))
    )
  )
    return error;
  // Its fields (status, operation, path, attempts, retryDelayMs…); the `name` copied with them is set again
  // by AmbiguousOutcomeError's own field, which runs after PartnerPrintError's constructor.
  return new AmbiguousOutcomeError(`${error.message}: it may have taken effect, so it was not repeated`, {
    ...error,
    method,
    code: 'ambiguous_outcome',
    cause: error,
  });
}

/** Milliseconds to wait before attempt `attempt + 1`, or false when there is none. */
function retryDelay(
  { attempts, baseDelayMs, maxDelayMs, maxElapsedMs }: Required<RetryOptions>,
  elapsed: number,
  attempt: number,
  retryAfter?: number,
): number | false {
  const delay = retryAfter === undefined ? backoffMs(baseDelayMs, maxDelayMs, attempt) : retryAfter * 1000;
  return attempt < attempts && elapsed + delay <= maxElapsedMs && delay;
}

/** The backoff before attempt `attempt + 1`: a random time in [0, min(maxDelayMs, baseDelayMs·2^(attempt−1))). */
export const backoffMs = (baseDelayMs: number, maxDelayMs: number, attempt: number): number =>
  Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));

/** How one attempt went, for the events and for the rate limiter's send through the client's transport. */
export interface Timing {
  start: number;
  sentAt?: number;
  /** The attempt's deadline (ms), for the rate limiter's send through the client's transport. */
  ms?: number;
  unabortable?: boolean;
}

/** The fetch openapi-fetch calls: redirects, retries with backoff, events; the scheduler and deadlines beneath. */
export function createStack(o: StackOptions): Stack {
  const { emit, secret, baseUrl } = o;
  const deadlines = new Deadlines<Call>();
  const pathOf = ({ url }: Request) => {
    const query = url.indexOf('?');
    return url.startsWith(baseUrl)
      ? url.slice(baseUrl.length, query < 0 ? undefined : query)
      : new URL(url).pathname;
  };
  const context = (req: Request): CallContext => {
    const path = pathOf(req);
    return { operation: o.operation(req.method, path), method: req.method, path };
  };
  // Made once, not per attempt: the deadline passes the request and its milliseconds.
  const timeoutOf = (queued: boolean) => (req: Request, ms: number) =>
    new TimeoutError(
      `${describeCall(context(req))}: no response within ${ms} ms${queued ? ' (the wait in the rate-limit queue included)' : ''}`,
    );
  const timeout = timeoutOf(false);
  const queuedTimeout = timeoutOf(true);
  const direct = (r: Request, a: Attempt<Call>) => o.transport(r, a);
  const limiter = o.limiter?.({ deadlines, transport: o.transport, timeout, emit, timeoutMs: o.timeoutMs });
  // Chosen once: no limiter, a queue the client sends through (its own `send`), or one that sends on its own.
  const sendOwn = (r: Request, a: Attempt<Call>) => {
    const copy = new Request(r, { signal: a.signal });
    return limiter?.fetch(o.telemetry ? o.telemetry.relay(r, copy) : copy) as Promise<Response>;
  };
  const send: SendAttempt = !limiter
    ? (req, timing, ms, unabortable, call) => {
        if (emit) timing.sentAt = timing.start;
        return deadlines.run(direct, req, ms, timeout, unabortable, call);
      }
    : (limiter.send ??
      ((req, _timing, ms, unabortable, call) =>
        deadlines.run(sendOwn, req, ms, queuedTimeout, unabortable, call)));

  // Only a queue the client sends through (not its own deadline) stands between a first attempt and its judge.
  const attempts = retrying(o, send, context, emit, deadlines, !!limiter?.send, limiter?.refused);
  // Everything but a plain 2xx goes through `settle`: redirects, error responses, failures. A 2xx costs one await.
  const settle = async (c: Call, first: Response): Promise<Response> => {
    const { request, settings, spent, t, unabortable } = c;
    let current = request;
    let response = first;
    for (let hops = 0; isRedirect(response); hops++) {
      await response.body?.cancel().catch(() => {});
      const next = followRedirect(current, response, hops, context(current));
      if (next instanceof PartnerPrintError) throw next;
      current = next;
      response = await attempts(current, settings, spent, t, unabortable);
    }
    if (response.ok) {
      c.answer = response;
      // A 2xx after redirects (and perhaps retries) says what it cost too: a helper's count of requests.
      spentBy.set(response, spent);
      return response;
    }
    const redacted = await redactResponse(response, secret);
    spentBy.set(redacted, spent);
    return redacted;
  };
  const fail = ({ request, spent }: Call, error: unknown): never => {
    let failure = sdkError(error, request, context);
    // Every error after a send says what the call spent (a GaveUp says it already, from the loop); an error
    // before any send says that none was made (`attempts: 0`: nothing can have taken effect).
    if (failure.attempts === undefined) Object.assign(failure, spent.attempts > 0 ? spent : { attempts: 0 });
    // Here, not in `post`: openapi-fetch's `POST` hands on this failure as it is.
    failure = ambiguousIf(request.method, request.headers.get('content-type'), failure) as PartnerPrintError;
    emit?.('error', request, {
      operation: failure.operation,
      attempt: failure.attempts ?? 1,
      error: failure,
    });
    throw redactSecret(failure, secret);
  };
  // What a call does with its final answer or failure, in the same `then` that received it.
  const after: After = {
    // A 2xx is kept on its record (no allocation): openapi-fetch reads its body once the stack is done.
    answer: (c, response) => {
      if (!response.ok) return settle(c, response).catch((error: unknown) => fail(c, error));
      c.answer = response;
      // A 2xx that came after retries says what they cost (a helper that sends several requests counts them);
      // one that came first time costs one request and no wait, and is not recorded (nothing to allocate).
      if (c.spent.attempts > 1) spentBy.set(response, c.spent);
      return response;
    },
    fail,
  };
  const { telemetry } = o;
  return (request, settings = o) => {
    const { unabortable, call } = handoff;
    // A call whose body could not be read (see `unread`) goes on from its record: its budget, its span.
    const resumed = handoff.resume as Call | undefined;
    handoff.unabortable = false;
    handoff.resume = undefined;
    const t = resumed ? resumed.t : telemetry?.call(request, context);
    const spent = resumed ? resumed.spent : { attempts: 0, retryDelayMs: 0 };
    const sent = attempts(request, settings, spent, t, unabortable, after, resumed);
    // The span of a 2xx the client reads is held open until it has (`readDone`).
    return t ? t.end(sent, call === null) : sent;
  };
}

/** What the attempts of one call (and of the redirects it follows) share. */
export interface Call {
  request: Request;
  settings: CallSettings;
  spent: Spent;
  t: CallTelemetry | undefined;
  unabortable: boolean;
  started: number;
  operation: string | undefined;
  /** The current attempt's. */
  timing: Timing;
  /** What the call does with its outcome; none for a redirect's requests (the call's `after` follows them). */
  after: After | undefined;
  /** The 2xx handed to openapi-fetch, whose body it reads once the stack is done (see {@link unread}). */
  answer: Response | undefined;
}

/** A call's last steps, given the final response (or the failure) of its retry loop. */
interface After {
  answer(c: Call, response: Response): Response | Promise<Response>;
  fail(c: Call, error: unknown): never;
}

/**
 * The retry loop of one request: attempts until a response that is final, or an error that is. The first
 * attempt's final answer (nearly every call's) is handed on from its `then`; the loop, an async function,
 * starts only when there is a failure or a status to look at again.
 */
function retrying(
  o: StackOptions,
  send: SendAttempt,
  context: (req: Request) => CallContext,
  emit: Emit | undefined,
  deadlines: Deadlines<Call>,
  queued: boolean,
  refused?: Limiter['refused'],
) {
  const { clock } = o;
  /** Sends attempt `n` (`send` rejects, it does not throw). */
  const sendAttempt = (c: Call, n: number, judged?: Call): Promise<Response> => {
    c.spent.attempts = n;
    const { request } = c;
    // A Request body can be read once: every attempt gets its own copy while the original stays unread.
    const req = request.body ? request.clone() : request;
    c.t?.attempt(req);
    emit?.('request', request, { operation: c.operation, attempt: n });
    // The attempt's times are for the events: without them no clock is read for it, and without a queue the
    // client sends through nothing reads the record (one shared). Every field in the literal: one set later
    // would give the record a second allocation.
    c.timing =
      emit || queued
        ? {
            start: emit ? performance.now() : 0,
            sentAt: undefined,
            ms: undefined,
            unabortable: c.unabortable,
          }
        : NO_TIMING;
    // A queue the client sends through is given the call (for its budget), never to judge.
    return send(req, c.timing, c.settings.timeoutMs, c.unabortable, queued ? c : judged);
  };
  /** Whether the request may be sent again after a failure or a 5xx. */
  const repeatable = ({ method, headers }: Request) => isRepeatable(method, headers.get('content-type'));
  /** Whether a response may be retried: a 429, or a 5xx of a request that may be repeated. */
  const retryable = (request: Request, status: number) =>
    status === 429 || (status > 499 && repeatable(request));
  const responded = (c: Call, n: number, status: number) => {
    if (emit)
      emit('response', c.request, { operation: c.operation, attempt: n, status, ...durations(c.timing) });
  };

  /** From attempt `n`, whose outcome `pending` holds, until a final response or error. */
  const loop = async (c: Call, n: number, pending: Response | Promise<Response>): Promise<Response> => {
    const { request, spent, t } = c;
    const { retry } = c.settings;
    for (let attempt = n; ; attempt++) {
      let delay: number | false;
      let status: number | undefined;
      let error: unknown;
      try {
        const response = await pending;
        status = response.status;
        responded(c, attempt, status);
        delay =
          retryable(request, status) &&
          retryDelay(
            retry,
            clock.now() - c.started,
            attempt,
            retryAfterSeconds(response.headers, clock.now()),
          );
        // A rendertoken shortage lasts until the weekly reset: waiting inside a call is pointless.
        if (
          delay === false ||
          (status === 429 && (await errorCodeOf(response)) === 'rendertoken_limit_exceeded')
        )
          return response;
        await response.body?.cancel().catch(() => {});
      } catch (cause) {
        if (request.signal.aborted) throw gaveUp(request.signal.reason, spent);
        // The client's own queue refused the attempt without sending it (`client.scheduler.close()`, or a pause
        // past the call's budget): nothing went out, so nothing may have taken effect; final either way.
        const final = refused?.(cause, describeCall(context(request)));
        if (final) {
          spent.attempts--;
          throw gaveUp(final, spent);
        }
        error = cause;
        delay = repeatable(request) && retryDelay(retry, clock.now() - c.started, attempt);
        if (delay === false) throw gaveUp(cause, spent);
      }
      t?.retry(delay, status, error);
      if (emit)
        emit('retry', request, {
          operation: c.operation,
          attempt,
          status,
          delayMs: delay,
          error: error === undefined ? undefined : sdkError(error, request, context),
        });
      try {
        await clock.sleep(delay, request.signal);
      } catch (reason) {
        throw gaveUp(reason, spent);
      }
      spent.retryDelayMs += delay;
      pending = sendAttempt(c, attempt + 1);
    }
  };

  /**
   * A first attempt's outcome: a final answer goes on to the call's last steps, anything else to the retry
   * loop (and then to those steps). It does not throw: the deadline calls it from a `then` or its timer.
   */
  const judge = (c: Call, response: Response | undefined, error?: unknown) => {
    const n = c.spent.attempts;
    const { after } = c;
    if (response && !retryable(c.request, response.status)) {
      responded(c, n, response.status);
      return after ? after.answer(c, response) : response;
    }
    const out = loop(c, n, response || Promise.reject(error));
    return after
      ? out.then(
          (response) => after.answer(c, response),
          (error: unknown) => after.fail(c, error),
        )
      : out;
  };
  deadlines.judge = judge;

  return (
    request: Request,
    settings: CallSettings,
    spent: Spent,
    t: CallTelemetry | undefined,
    unabortable: boolean,
    after?: After,
    resumed?: Call,
  ): Promise<Response> => {
    const c: Call = {
      request,
      settings,
      spent,
      t,
      unabortable,
      started: resumed ? resumed.started : clock.now(),
      operation: emit && context(request).operation,
      timing: NO_TIMING,
      after,
      answer: undefined,
    };
    if (after && handoff.call === null) handoff.call = c;
    // Its last attempt's body failed: the loop takes that failure as the attempt's (no send first).
    if (resumed) return judge(c, undefined, handoff.error) as Promise<Response>;
    // A signal that aborted before the call began: nothing is sent (a transport may ignore the signal), no
    // attempt is counted, and a POST is not one that may have taken effect. A call given none has a Request
    // whose signal nothing can abort: not read (reading a fresh Request's signal costs ~570 ns in Node 20).
    if (!unabortable && request.signal.aborted) {
      const stopped = gaveUp(request.signal.reason, spent);
      return after ? Promise.resolve().then(() => after.fail(c, stopped)) : Promise.reject(stopped);
    }
    // One budget per call: a redirect's requests count with the ones before it. Judged by its deadline
    // (no `then` of the call's own) unless it goes through a queue.
    let first: Promise<Response>;
    try {
      first = sendAttempt(c, spent.attempts + 1, queued ? undefined : c);
    } catch (error) {
      return Promise.reject(error);
    }
    return queued
      ? first.then(
          (response) => judge(c, response),
          (error: unknown) => judge(c, undefined, error),
        )
      : first;
  };
}

/** The record of an attempt no one times (no events, no queue the client sends through): never written. */
const NO_TIMING: Timing = { start: 0 };

const durations = ({ start, sentAt }: Timing) => {
  const end = performance.now();
  return {
    durationMs: end - start,
    ...(sentAt !== undefined && { queueMs: sentAt - start, networkMs: end - sentAt }),
  };
};

/** The retry loop gave up after `attempts` on `cause` (a transport error, a timeout or the caller's abort). */
class GaveUp {
  declare cause: unknown;
  declare attempts: number;
  declare retryDelayMs: number;
}

const gaveUp = (cause: unknown, { attempts, retryDelayMs }: Spent) =>
  Object.assign(new GaveUp(), { cause, attempts, retryDelayMs });

/** Whatever a call failed with, as a PartnerPrintError with the call's context. */
function sdkError(
  error: unknown,
  request: Request,
  context: (req: Request) => CallContext,
): PartnerPrintError {
  const ctx = context(request);
  const gave = error instanceof GaveUp ? error : undefined;
  const cause = gave ? gave.cause : error;
  const attempts = gave?.attempts;
  const after = attempts ? ` after ${attempts} attempt${attempts > 1 ? 's' : ''}` : '';
  let result: PartnerPrintError;
  if (request.signal.aborted && cause === request.signal.reason) result = abortOf(cause, ctx);
  else if (cause instanceof TimeoutError)
    result = new TimeoutError(`${cause.message}${after}`, { code: cause.code, cause: cause.cause });
  else if (cause instanceof PartnerPrintError) result = cause;
  else
    result = new NetworkError(`${describeCall(ctx)}: ${describeCause(cause)}${after}`, {
      cause: copyCause(cause),
    });
  if (!result.operation) Object.assign(result, ctx);
  if (attempts) Object.assign(result, { attempts, retryDelayMs: gave.retryDelayMs });
  return result;
}

/**
 * The reading of the body of the call `ctx`'s answer cut off (the connection closed mid-file) as a NetworkError,
 * its cause copied as a transport error's is (names, messages and codes: no request, no headers).
 */
export const readError = (cause: unknown, ctx: CallContext): PartnerPrintError =>
  Object.assign(
    new NetworkError(`${describeCall(ctx)}: ${describeCause(cause)}`, { cause: copyCause(cause) }),
    ctx,
  );

/**
 * The caller's abort of the call `ctx` as an AbortedError (or a TimeoutError for `AbortSignal.timeout`), its
 * reason as `cause`: of an attempt, of the reading of its answer, or between the requests of a helper.
 */
export function abortOf(reason: unknown, ctx: CallContext): PartnerPrintError {
  if (reason instanceof PartnerPrintError) return reason.method ? reason : Object.assign(reason, ctx);
  const call = describeCall(ctx);
  const timedOut = isError(reason) && reason.name === 'TimeoutError';
  const why = isError(reason) && reason.message ? ` (${reason.message})` : '';
  return Object.assign(
    timedOut
      ? new TimeoutError(`${call}: the caller's signal timed out${why}`, { cause: reason })
      : new AbortedError(`${call}: aborted by the caller's signal${why}`, { cause: reason }),
    ctx,
  );
}

/** "fetch failed: connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)": the messages and codes of the cause chain. */
function describeCause(error: unknown): string {
  const parts: string[] = [];
  for (let e = error, depth = 0; e != null && depth < 4; depth++) {
    const link = isError(e) ? e : undefined;
    // An error's own `code` (enumerable: Node's and undici's), as a spread reads it.
    const code = link && ({ ...link } as { code?: unknown }).code;
    const text = `${link ? link.message : String(e)}${typeof code === 'string' ? ` (${code})` : ''}`;
    if (text && !parts.includes(text)) parts.push(text);
    e = link?.cause;
  }
  return parts.join(': ') || 'the connection failed';
}

/** A copy of a transport's error holding only names, messages and codes: no request, no headers. */
function copyCause(error: unknown, depth = 0): Error {
  const e = isError(error) ? error : new Error(String(error));
  const copy = Object.assign(new Error(e.message), { name: e.name });
  const { code } = e as { code?: unknown };
  if (code && typeof code === 'string') Object.assign(copy, { code });
  if (e.cause !== undefined && depth < 3) Object.assign(copy, { cause: copyCause(e.cause, depth + 1) });
  return copy;
}

/** An error response with the key taken out of its status text, headers and body (parsed JSON or text). */
async function redactResponse(response: Response, secret: string): Promise<Response> {
  if (response.status < 400) return response;
  const text = await response.text();
  let body = text;
  try {
    body = JSON.stringify(redactSecret(JSON.parse(text), secret));
  } catch {
    body = redactSecret(text, secret);
  }
  return new Response(body, {
    status: response.status,
    statusText: redactSecret(response.statusText, secret),
    // Copied first: a fetch of its own (npm undici's, node-fetch) answers with its own Headers class, which
    // redaction, knowing only the global one, passed on as it was, the key a server echoed included.
    headers: redactSecret(new Headers(response.headers), secret),
  });
}
