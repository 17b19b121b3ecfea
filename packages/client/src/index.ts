import { OPERATIONS, type paths } from '@partner-print/openapi';
import {
  createScheduler,
  parseRateLimitHeaders,
  type Scheduler,
  type SchedulerOptions,
} from '@partner-print/ratelimit';
import type { Client, MaybeOptionalInit } from 'openapi-fetch';
import { type CoreOptions, createCore } from './client.ts';
import type {
  DownloadAs,
  Downloaded,
  DownloadOptions,
  DownloadPending,
  InitParam,
  ListItem,
  ListPaths,
  Media,
  PathsWith,
  ResponseData,
  ThrowingMethod,
  UploadData,
} from './types.ts';

export { type Clock, systemClock } from './clock.ts';
export { MIGRATION_GUIDE } from './config.ts';
export * from './errors.ts';
export type { RateLimitParser } from './response.ts';
export type { ClientEvent, Fetch, Hooks, RetryOptions } from './transport.ts';
export type {
  DownloadAs,
  Downloaded,
  DownloadOptions,
  DownloadPending,
  ListItem,
  ListPaths,
  ResponseData,
  ThrowingMethod,
  UploadData,
} from './types.ts';

export const USER_AGENT = 'partner-print-sdk-client/0.0.0';

/**
 * Client-side rate limiting by @partner-print/ratelimit's scheduler, beneath the retry layer.
 * Default: a scheduler per client with the reference's policies, learning live values from headers.
 * - options: a scheduler per client made with them (`store` shares a budget between processes);
 * - a `Scheduler` instance: used as is, with the transport it was created with (the client's
 *   `fetch` and per-attempt timeout do not apply beneath it);
 * - `false`: off; 429s are still retried after Retry-After by the retry layer.
 */
export type RateLimitOption = false | Scheduler | Omit<SchedulerOptions, 'fetch'>;

export interface ClientOptions extends CoreOptions<RateLimitOption> {}

type DownloadPath = Extract<
  PathsWith<paths, 'get'>,
  | '/renders/{renderReference}/media'
  | '/renders/{renderReference}/thumbnail'
  | `/products/${string}/media/${string}`
>;
type OrderInput = paths extends {
  '/orders': { post: { requestBody: { content: { 'application/json': { order: infer O } } } } };
}
  ? O
  : never;
/** Per-call options of the helpers that build their own request. */
export interface CallInit {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface PartnerPrintClient extends Client<paths, Media> {
  /** The rate-limit scheduler beneath the retry layer (`stats()`, `on(event)`), unless turned off. */
  readonly scheduler: Scheduler | undefined;
  /** `GET` that resolves to `data` or throws a `PartnerPrintError`. */
  get: ThrowingMethod<paths, 'get'>;
  /** `POST` that resolves to `data` or throws a `PartnerPrintError` (AmbiguousOutcomeError when a non-repeatable POST may have taken effect). */
  post: ThrowingMethod<paths, 'post'>;
  /** Every item of a list endpoint, page after page, following `nextCursor` until it is null. */
  paginate<P extends ListPaths<paths>>(
    path: P,
    ...init: InitParam<MaybeOptionalInit<paths[P], 'get'>>
  ): AsyncGenerator<ListItem<paths, P>, void, undefined>;
  /** The items of a list endpoint, at most `max`; stops requesting pages once it has them. */
  collect<P extends ListPaths<paths>>(
    path: P,
    init?: MaybeOptionalInit<paths[P], 'get'>,
    options?: { max?: number },
  ): Promise<ListItem<paths, P>[]>;
  /** Uploads a JPEG or PNG print image (checked before sending) and returns its `Image_…` reference. */
  uploadImage(data: UploadData, init?: CallInit): Promise<string>;
  /** Uploads a JPEG or PNG evidence photo and returns its `Evidence_…` reference. */
  uploadEvidence(data: UploadData, init?: CallInit): Promise<string>;
  /** Render media, thumbnail or product media; waits out 202 + Retry-After unless `wait: false`. */
  download<P extends DownloadPath, As extends DownloadAs = 'bytes'>(
    path: P,
    init: MaybeOptionalInit<paths[P], 'get'>,
    options?: DownloadOptions<As> & { wait?: true },
  ): Promise<Downloaded<As>>;
  download<P extends DownloadPath, As extends DownloadAs = 'bytes'>(
    path: P,
    init: MaybeOptionalInit<paths[P], 'get'>,
    options: DownloadOptions<As> & { wait: false },
  ): Promise<Downloaded<As> | DownloadPending>;
  /**
   * POST /orders, never blindly repeated: after a network error, timeout or 5xx it looks the order up
   * by `customIdentifier` and returns the one that exists, or creates it if absent. Without a
   * customIdentifier such a failure throws AmbiguousOutcomeError.
   */
  createOrder(
    order: OrderInput,
    init?: CallInit,
  ): Promise<NonNullable<ResponseData<paths, '/orders', 'post'>>>;
  /** The order reference for a custom identifier, or null when no order has it. */
  lookupOrderReference(customIdentifier: string, init?: CallInit): Promise<string | null>;
}

/** The Partner Print V2 client: openapi-fetch's typed methods plus throwing helpers. */
export function createClient(options: ClientOptions): PartnerPrintClient {
  let scheduler: Scheduler | undefined;
  const client = createCore(options, {
    operations: OPERATIONS,
    userAgent: USER_AGENT,
    parseRateLimit: parseRateLimitHeaders,
    rateLimit(option = {}, inner, clock) {
      if (option === false) return inner;
      const s = isScheduler(option)
        ? option
        : createScheduler({ clock, key: budgetKey(options.secretKey), ...option, fetch: inner });
      scheduler = s;
      return (request) => s.fetch(request);
    },
  });
  return Object.assign(client, { scheduler }) as unknown as PartnerPrintClient;
}

const isScheduler = (value: object): value is Scheduler =>
  typeof (value as Scheduler).fetch === 'function' && typeof (value as Scheduler).stats === 'function';

/** The scheduler's default budget key (SHA-256 of the key), computed once instead of per request. */
function budgetKey(secretKey: string): () => Promise<string> {
  let key: Promise<string> | undefined;
  return () =>
    (key ??= crypto.subtle
      .digest('SHA-256', new TextEncoder().encode(secretKey))
      .then(
        (digest) =>
          `sha256:${Array.from(new Uint8Array(digest), (b) => (b | 256).toString(16).slice(1)).join('')}`,
      ));
}
