import type { paths } from '@partner-print/openapi';
import { MIN_FILE_WAIT_MS, overdue, refuseUnknownOptions, systemClock } from '@partner-print/openapi/wire';
import { type Core, coreOf, type RequestOptions, traced } from './core.ts';
import { ConfigurationError, PartnerPrintError, TimeoutError } from './errors.ts';
import { checkTimeout, readableInit, retryPolicy } from './options.ts';
import { describeCall, retryAfterSeconds } from './response.ts';
import { abortOf, backoffMs, readError, spentOf } from './transport.ts';
import type {
  ClientInit,
  DownloadAs,
  Downloaded,
  DownloadOptions,
  DownloadPending,
  PartnerPrintBaseClient,
  PathsWith,
} from './types.ts';

/** The GET paths that answer with a file (the routes that spend the downloads bucket). */
export type DownloadPath = Extract<
  PathsWith<paths, 'get'>,
  | '/renders/{renderReference}/media'
  | '/renders/{renderReference}/thumbnail'
  | `/products/${string}/media/${string}`
>;

/** What `download` resolves to: the file, or with `wait: false` possibly `{ pending: true, retryAfter }`. */
export type DownloadResult<As extends DownloadAs, Wait extends boolean> = Wait extends false
  ? Downloaded<As> | DownloadPending
  : Downloaded<As>;

/** Render media, thumbnail or product media; waits out 202 + Retry-After unless `wait: false`. */
export function download<
  P extends DownloadPath,
  As extends DownloadAs = 'bytes',
  Wait extends boolean = true,
>(
  client: PartnerPrintBaseClient,
  path: P,
  init: ClientInit<paths[P], 'get'>,
  options?: DownloadOptions<As> & { wait?: Wait },
): Promise<DownloadResult<As, Wait>>;
export function download(
  client: PartnerPrintBaseClient,
  template: string,
  init?: object,
  options?: DownloadOptions<DownloadAs>,
): Promise<Downloaded<DownloadAs> | DownloadPending> {
  const core = coreOf(client);
  return traced(core, 'download', () => downloading(core, template, init, options));
}

async function downloading(
  { callWhole, context, clock, retry, timeoutMs: timeout }: Core,
  template: string,
  init?: object,
  options: DownloadOptions<DownloadAs> = {},
): Promise<Downloaded<DownloadAs> | DownloadPending> {
  // Checked before the first request: a call option put here (`signal`) was ignored, a download the caller
  // could not abort; a maxWaitMs of NaN (an unset setting read with `Number`) never ended the wait.
  refuseUnknownOptions(options, ['as', 'wait', 'maxWaitMs'], ConfigurationError, 'download: ');
  const { as = 'bytes', wait = true, maxWaitMs = 600_000 } = options;
  checkTimeout(maxWaitMs, 'download: maxWaitMs');
  const started = clock.now();
  // A header collection openapi-fetch cannot read, copied once for every ask.
  init = readableInit(init);
  // The call's signal and retry, as the first request checked (`checkInit`) before they were read.
  const { signal, retry: own, timeoutMs = timeout } = (init ?? {}) as RequestOptions;
  const ctx = () => context('GET', template, init);
  // Requests this download sent (an ask that got an answer counts one, a request's own retries each) and the
  // time it waited between them (a request's own backoff included).
  let sent = 0;
  let waitedMs = 0;
  // Like every error after a send, an error says what the download spent: its requests and waits before,
  // added to what the request that failed spent (its own attempts and backoff), if it was one.
  // The message's count ("after 3 attempts", a request's own) then says what the field says.
  const spend = (error: PartnerPrintError) => {
    const attempts = sent + (error.attempts ?? 0);
    if (sent) error.message = error.message.replace(/\d+ attempts?/, `${attempts} attempts`);
    return Object.assign(error, { attempts, retryDelayMs: waitedMs + (error.retryDelayMs ?? 0) });
  };
  // A failure to read the file or to wait: the caller's abort, the client's own error as it is, else the
  // connection's (a body cut off).
  const failure = (reason: unknown): unknown =>
    spend(
      signal?.aborted
        ? abortOf(signal.reason, ctx())
        : reason instanceof PartnerPrintError
          ? reason
          : readError(reason, ctx()),
    );
  const stopped = (reason: unknown): never => {
    throw failure(reason);
  };
  // A file cut off mid-read, or not read within timeoutMs, is asked for again (a GET): at most the call's
  // retry.attempts reads, after its backoff, within maxWaitMs and the signal, each ask a request like any other
  // (its own timeoutMs until the headers, then again for reading the file as bytes or a blob).
  const { attempts, baseDelayMs, maxDelayMs } = retryPolicy(retry, own);
  for (let reads = 1; ; ) {
    // A request's error (a 404 after 202s, its retries run out) counts the download's requests before it too;
    // one thrown before it was sent (no attempts), or not the SDK's (a middleware's), passes on as it is.
    const { data, response } = await callWhole('GET', template, { ...init, parseAs: 'stream' }).catch(
      (error: unknown) => {
        throw error instanceof PartnerPrintError && error.attempts ? spend(error) : error;
      },
    );
    // What the ask cost: its own retries (a 503 before the 202) and their backoff, or one request.
    const spent = spentOf(response);
    sent += spent?.attempts ?? 1;
    waitedMs += spent?.retryDelayMs ?? 0;
    if (response.status !== 202) {
      // The file read here (bytes, blob) within timeoutMs: a body that stalls is cancelled with a TimeoutError.
      // A stream is read by the caller, at its pace: its signal, not timeoutMs, bounds that reading.
      const stop = new AbortController();
      let late: PartnerPrintError | undefined;
      const reading = body(as, data, response, failure, stop.signal);
      try {
        return {
          pending: false,
          // A timer of its own, like the attempt's deadline (not the clock's sleep, which a test clock skips),
          // that does not count a stall of the process (`overdue`: a late timer gives the read a fresh window,
          // once), and that ends with the read: none outlives the call.
          data: await (as !== 'stream' && timeoutMs > 0 && Number.isFinite(timeoutMs)
            ? overdue(reading, timeoutMs, systemClock, () => {
                const call = ctx();
                late = new TimeoutError(
                  `${describeCall(call)}: the file not read within ${timeoutMs} ms`,
                  call,
                );
                stop.abort(late);
                return late;
              })
            : reading),
          contentType: response.headers.get('content-type'),
        };
      } catch (reason) {
        const error = failure((!signal?.aborted && late) || reason);
        if (signal?.aborted || (error === reason && !late)) throw error;
        const delayMs = backoffMs(baseDelayMs, maxDelayMs, reads);
        if (reads++ >= attempts || clock.now() + delayMs - started > maxWaitMs) throw error;
        await clock.sleep(delayMs, signal).catch(stopped);
        waitedMs += delayMs;
        continue;
      }
    }
    await response.body?.cancel().catch(() => {});
    // Not ready yet; 60 s is the polling interval the reference gives for renders.
    const retryAfter = retryAfterSeconds(response.headers, clock.now()) ?? 60;
    if (!wait) return { pending: true, retryAfter };
    // Never sooner than MIN_FILE_WAIT_MS: a `Retry-After` of 0, a past date or a tiny value would otherwise make
    // a loop of requests, each spending the default and downloads buckets.
    const waitMs = Math.max(MIN_FILE_WAIT_MS, retryAfter * 1000);
    if (clock.now() + waitMs - started > maxWaitMs) {
      const call = ctx();
      throw failure(
        // A timeout like every other (its class's code, `timeout`): the answer is still pending (`retryAfter`
        // says when to ask again).
        new TimeoutError(`${describeCall(call)}: not ready after ${maxWaitMs} ms`, { ...call, retryAfter }),
      );
    }
    await clock.sleep(waitMs, signal).catch(stopped);
    waitedMs += waitMs;
  }
}

async function body(
  as: DownloadAs,
  data: unknown,
  response: Response,
  failure: (reason: unknown) => unknown,
  signal: AbortSignal,
) {
  if (as !== 'stream') {
    // Through a pipe the timeout cancels (the body's own reading cannot be cancelled once it started).
    const whole =
      data instanceof ReadableStream
        ? new Response(data.pipeThrough(new TransformStream(), { signal }), { headers: response.headers })
        : response;
    return as === 'bytes' ? new Uint8Array(await whole.arrayBuffer()) : whole.blob();
  }
  if (data instanceof ReadableStream) return named(data, failure);
  if (data === undefined || data === null) return new Blob().stream();
  throw new PartnerPrintError('download: the answer has no body stream', { code: 'unexpected_response' });
}

/**
 * The file's stream as the caller reads it after download resolved, its failures as the client's errors (a
 * NetworkError for a body cut off, the caller's abort as AbortedError/TimeoutError). Not asked for again: the
 * part already read cannot be taken back.
 */
function named(stream: ReadableStream<Uint8Array>, failure: (reason: unknown) => unknown) {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  // Left unaborted by the pipe, so that the reader sees the client's error rather than the platform's.
  stream.pipeTo(writable, { preventAbort: true }).catch((reason: unknown) => writable.abort(failure(reason)));
  return readable;
}
