// From the wire entry, not the main one: a CommonJS bundle takes a required module whole, and the main entry's
// holds the spec document (about 19 kB min+gzip) that the client never reads.
import { budgetKeyOf, OPERATIONS } from '@partner-print/openapi/wire';
import {
  createScheduler,
  isRateLimitPaused,
  parseRateLimitHeaders,
  type Scheduler,
  type SchedulerOptions,
} from '@partner-print/ratelimit';
import { type CoreOptions, createCore } from './client.ts';
import { USER_AGENT } from './config.ts';
import { AbortedError, ConfigurationError, RateLimitedError } from './errors.ts';
import { type PartnerPrintBaseClient, type PartnerPrintHelpers, withHelpers } from './helpers.ts';
import { queueThrough } from './queue.ts';
import { clientTelemetry, type TelemetryOption } from './telemetry/index.ts';
import { ONE_BUDGET } from './transport.ts';

export type { PartnerPrintHelpers } from './helpers.ts';
export * from './public.ts';
export type { TelemetryOption } from './telemetry/index.ts';

/**
 * Client-side rate limiting by @partner-print/ratelimit's scheduler, beneath the retry layer.
 * Default: a scheduler per client with the reference's policies, learning live values from headers.
 * - options: a scheduler per client made with them (`store` shares a budget between processes);
 * - a `Scheduler` instance: used as is, with the transport it was created with (the client's `fetch` does
 *   not apply beneath it; `timeoutMs` does, counted from when the request enters its queue);
 * - `false`: off; 429s are still retried after Retry-After by the retry layer.
 */
export type RateLimitOption = false | Scheduler | Omit<SchedulerOptions, 'fetch'>;

export interface ClientOptions extends CoreOptions<RateLimitOption> {
  /**
   * OpenTelemetry: spans and metrics through the global providers the application registered (default),
   * through `{ tracerProvider, meterProvider }`, or none (`false`: no span, no metric, no trace header).
   */
  telemetry?: TelemetryOption;
}

/** The Partner Print V2 client: openapi-fetch's typed methods, the throwing `get`/`post` and the helpers. */
export interface PartnerPrintClient extends PartnerPrintBaseClient, PartnerPrintHelpers {}

/** The Partner Print V2 client, with the scheduler beneath the retry layer by default. */
export function createClient(options: ClientOptions): PartnerPrintClient {
  let scheduler: Scheduler | undefined;
  const client = createCore(options, {
    operations: OPERATIONS,
    userAgent: USER_AGENT,
    parseRateLimit: parseRateLimitHeaders,
    telemetry: (secret) =>
      clientTelemetry(
        options.telemetry,
        secret,
        USER_AGENT.split('/')[1] ?? '',
        OPERATIONS,
        parseRateLimitHeaders,
      ),
    limiter(option = {}, kit, clock) {
      if (option === false) return undefined;
      if (isScheduler(option)) {
        scheduler = option;
        return { fetch: (request) => option.fetch(request, ONE_BUDGET), own: true, refused: pausedPast };
      }
      // Without a `store` the budget is this client's alone, so its key needs no hash: a request does not
      // wait for crypto.subtle, which no fake timer controls (a test's first advance would run before it).
      const key = option.store ? budgetKey(options.secretKey) : OWN_BUDGET;
      // What `client.scheduler.close(reason)` closed it with: the scheduler rejects every attempt it still
      // holds, and every later one, with that very reason, never sent.
      let closed: { reason: unknown } | undefined;
      const limiter = queueThrough(kit, (timed) => {
        let s: Scheduler;
        try {
          s = createScheduler({ clock, key, ...option, fetch: timed });
        } catch (error) {
          // An option the scheduler refuses (NaN, a typo): the client's error for options, named as given here.
          throw new ConfigurationError(
            String((error as Error).message).replace('createScheduler: ', 'rateLimit: '),
          );
        }
        const { close } = s;
        s.close = (reason = new Error('Scheduler closed')) => {
          closed ??= { reason };
          close(reason);
        };
        scheduler = s;
        // No 429 retries of the scheduler's own (one budget per call), and no pause waited out past the call's.
        return (request, unabortable, call) => {
          // What is left of the call's budget, within a rateLimit.maxPauseMs of the partner's own.
          const maxPauseMs = call
            ? Math.min(
                option.maxPauseMs ?? Infinity,
                Math.max(0, call.started + call.settings.retry.maxElapsedMs - clock.now()),
              )
            : undefined;
          return s.fetch(
            request,
            unabortable
              ? { rateLimit: { maxRetries: 0, watchSignal: false, maxPauseMs } }
              : { rateLimit: { maxRetries: 0, maxPauseMs } },
          );
        };
      });
      return Object.assign(limiter, {
        refused: (error: unknown, call: string) =>
          closed && error === closed.reason
            ? new AbortedError(`${call}: not sent, the rate-limit queue was closed`, { cause: error })
            : pausedPast(error, call),
      });
    },
  });
  return withHelpers(Object.assign(client, { scheduler }));
}

/**
 * A call the scheduler did not send because a pause after a 429 (another call's, or another process's through
 * a shared store) runs past the call's `maxElapsedMs`: the RateLimitedError its 429 would have given, at once.
 */
function pausedPast(error: unknown, call: string): RateLimitedError | undefined {
  if (!isRateLimitPaused(error)) return undefined;
  const retryAfter = Math.ceil(error.retryAfterMs / 1000);
  return new RateLimitedError(
    `${call}: not sent, the rate limit is paused after a 429 for another ${retryAfter} s, past the call's retry.maxElapsedMs`,
    { cause: error, retryAfter },
  );
}

const isScheduler = (value: object): value is Scheduler =>
  typeof (value as Scheduler).fetch === 'function' && typeof (value as Scheduler).stats === 'function';

/** The budget key of a scheduler the client made with no `store`: the only budget that store holds. */
const OWN_BUDGET = 'client';

/**
 * The scheduler's default budget key with a `store` (SHA-256 of the key), computed once instead of per request; a string
 * once known, so a request does not wait a promise hop for it.
 */
function budgetKey(secretKey: string): () => string | Promise<string> {
  let key: string | Promise<string> | undefined;
  return () =>
    (key ??= budgetKeyOf(secretKey).then((k) => {
      key = k;
      return k;
    }));
}
