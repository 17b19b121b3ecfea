import type { paths } from '@partner-print/openapi';
import { MIN_FILE_WAIT_MS } from '@partner-print/openapi/wire';
import { type Core, coreOf, type RequestOptions, traced } from './core.ts';
import { PartnerPrintError, TimeoutError } from './errors.ts';
import { checkTimeout } from './options.ts';
import { describeCall, retryAfterSeconds } from './response.ts';
import { abortOf } from './transport.ts';
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
  { callWhole, context, clock }: Core,
  template: string,
  init?: object,
  { as = 'bytes', wait = true, maxWaitMs = 600_000 }: DownloadOptions<DownloadAs> = {},
): Promise<Downloaded<DownloadAs> | DownloadPending> {
  // Checked before the first request: a maxWaitMs of NaN (an unset setting read with `Number`) never ended the wait.
  checkTimeout(maxWaitMs, 'download: maxWaitMs');
  const started = clock.now();
  // The call's signal: an AbortSignal or none, as the first request checked (`checkInit`) before it was read.
  const signal = (init as RequestOptions | undefined)?.signal;
  // The caller's abort while the file is read or waited for, as the client's error; anything else as it is.
  const stopped = (reason: unknown): never => {
    throw signal?.aborted ? abortOf(signal.reason, context('GET', template, init)) : reason;
  };
  for (;;) {
    const { data, response } = await callWhole('GET', template, { ...init, parseAs: 'stream' });
    if (response.status !== 202)
      return {
        pending: false,
        data: await body(as, data, response).catch(stopped),
        contentType: response.headers.get('content-type'),
      };
    await response.body?.cancel().catch(() => {});
    // Not ready yet; 60 s is the polling interval the reference gives for renders.
    const retryAfter = retryAfterSeconds(response.headers, clock.now()) ?? 60;
    if (!wait) return { pending: true, retryAfter };
    // Never sooner than MIN_FILE_WAIT_MS: a `Retry-After` of 0, a past date or a tiny value would otherwise make
    // a loop of requests, each spending the default and downloads buckets.
    const waitMs = Math.max(MIN_FILE_WAIT_MS, retryAfter * 1000);
    if (clock.now() + waitMs - started > maxWaitMs) {
      const ctx = context('GET', template, init);
      throw new TimeoutError(`${describeCall(ctx)}: not ready after ${maxWaitMs} ms`, {
        ...ctx,
        // A timeout like every other: the answer is still pending (`retryAfter` says when to ask again).
        code: 'timeout',
        retryAfter,
      });
    }
    await clock.sleep(waitMs, signal).catch(stopped);
  }
}

async function body(as: DownloadAs, data: unknown, response: Response) {
  if (as === 'bytes') return new Uint8Array(await response.arrayBuffer());
  if (as === 'blob') return response.blob();
  if (data instanceof ReadableStream) return data;
  if (data === undefined || data === null) return new Blob().stream();
  throw new PartnerPrintError('download: the answer has no body stream', { code: 'unexpected_response' });
}
