// @partner-print/client/lite: the same client without the helpers on the object and without a default
// scheduler, for bundles that count their bytes. The helpers are standalone functions of the client here,
// so a bundle holds only those it calls; rate limiting is opt-in (pass a scheduler).
import type { Scheduler } from '@partner-print/ratelimit';
import { type CoreOptions, createCore } from './client.ts';
import { USER_AGENT } from './config.ts';
import type { PartnerPrintBaseClient } from './helpers.ts';
import type { OperationTable } from './operations.ts';
import { ONE_BUDGET } from './transport.ts';

export * from './public.ts';

/**
 * - a `Scheduler` (from @partner-print/ratelimit's `createScheduler`): used beneath the retry layer, with
 *   the transport it was created with (the client's `fetch` does not apply beneath it; `timeoutMs` does,
 *   counted from when the request enters its queue);
 * - `false` or absent (the default here): none; 429s are still retried after Retry-After by the retry layer.
 */
export type LiteRateLimitOption = false | Scheduler;

export interface LiteClientOptions extends CoreOptions<LiteRateLimitOption> {
  /**
   * operationIds for the `operation` of errors and hook events: pass `OPERATIONS` from
   * @partner-print/openapi (about 0.4 kB min+gzip). Without it `operation` is undefined and messages
   * name the call as `METHOD /path`.
   */
  operations?: OperationTable;
}

/** The Partner Print V2 client without helper methods: openapi-fetch's typed methods and the throwing `get`/`post`. */
export function createClient(options: LiteClientOptions): PartnerPrintBaseClient {
  const { rateLimit } = options;
  const client = createCore(options, {
    operations: options.operations,
    userAgent: USER_AGENT,
    limiter: (scheduler) =>
      scheduler ? { fetch: (request) => scheduler.fetch(request, ONE_BUDGET), own: true } : undefined,
  });
  return Object.assign(client, { scheduler: rateLimit || undefined });
}
