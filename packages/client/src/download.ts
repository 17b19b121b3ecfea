import { type AnyInit, coreOf } from './core.ts';
import { TimeoutError } from './errors.ts';
import { describeCall, retryAfterSeconds } from './response.ts';
import type { DownloadOptions } from './types.ts';

/** Render media, thumbnails and product media, waiting out 202 + Retry-After unless told not to. */
export async function download(
  client: object,
  template: string,
  init?: AnyInit,
  { as = 'bytes', wait = true, maxWaitMs = 600_000 }: DownloadOptions<'bytes' | 'blob' | 'stream'> = {},
) {
  const { call, context, clock } = coreOf(client);
  const started = clock.now();
  for (;;) {
    const { data, response } = await call('GET', template, { ...init, parseAs: 'stream' }, true);
    if (response.status !== 202)
      return {
        pending: false,
        data:
          as === 'stream'
            ? (data ?? new Blob().stream())
            : as === 'blob'
              ? await response.blob()
              : new Uint8Array(await response.arrayBuffer()),
        contentType: response.headers.get('content-type'),
      };
    await response.body?.cancel().catch(() => {});
    // Not ready yet; 60 s is the polling interval the reference gives for renders.
    const retryAfter = retryAfterSeconds(response.headers, clock.now()) ?? 60;
    if (!wait) return { pending: true, retryAfter };
    if (clock.now() + retryAfter * 1000 - started > maxWaitMs) {
      const ctx = context('GET', template, init);
      throw new TimeoutError(`${describeCall(ctx)}: not ready after ${maxWaitMs} ms`, {
        ...ctx,
        code: 'download_pending',
        retryAfter,
      });
    }
    await clock.sleep(retryAfter * 1000, init?.signal);
  }
}
