import createFetchClient from 'openapi-fetch';
import { type Clock, systemClock } from './clock.ts';
import { checkBaseUrl } from './config.ts';
import {
  AmbiguousOutcomeError,
  ConfigurationError,
  NetworkError,
  NotFoundError,
  PartnerPrintError,
  TimeoutError,
} from './errors.ts';
import { type OperationTable, operationIndex } from './operations.ts';
import { errorFromResponse, type RateLimitParser, retryAfterSeconds } from './response.ts';
import { createStack, type Fetch, type Hooks, isRepeatable, type RetryOptions } from './transport.ts';
import type { DownloadOptions } from './types.ts';
import { checkImageSignature, toBytes, type UploadData } from './upload.ts';

export interface CoreOptions<RateLimit> {
  /** The V2 secret key, sent only as `X-Service-Secret-Key`. */
  secretKey: string;
  /** Ends with `/v2`; https, or http for loopback hosts only. */
  baseUrl: string;
  /** The transport beneath everything (default `globalThis.fetch`), e.g. a sandbox's `fetch`. */
  fetch?: Fetch;
  /** Retry policy, or `false` for a single attempt. */
  retry?: RetryOptions | false;
  /** Per attempt, started when the request leaves the rate-limit queue. Default 30 000; 0 turns it off. */
  timeoutMs?: number;
  rateLimit?: RateLimit;
  userAgent?: string;
  hooks?: Hooks;
  /** Time source for backoff, Retry-After and 202 waits (a sandbox's virtual clock in tests). */
  clock?: Clock;
}

export interface CoreDeps<RateLimit> {
  operations: OperationTable;
  rateLimit?: (option: RateLimit | undefined, inner: Fetch, clock: Clock) => Fetch;
  parseRateLimit?: RateLimitParser;
  userAgent: string;
}

const LOOKUP_ORDER = '/utilities/lookup-order-reference-by-custom-identifier';
const DEFAULT_RETRY: Required<RetryOptions> = {
  attempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxElapsedMs: 60_000,
};

type AnyInit = {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  headers?: Record<string, string>;
  signal?: AbortSignal;
  [option: string]: unknown;
};
// biome-ignore lint/suspicious/noExplicitAny: the core is untyped; index.ts types it from the spec
type Loose = any;

const fill = (template: string, params?: Record<string, unknown>) =>
  template.replace(/\{([^}]+)\}/g, (m, name: string) => (params?.[name] == null ? m : String(params[name])));

/** Untyped core; `createClient` in index.ts gives it the types of the spec. */
export function createCore<RateLimit>(options: CoreOptions<RateLimit>, deps: CoreDeps<RateLimit>) {
  const { secretKey } = options;
  if (typeof secretKey !== 'string' || !secretKey.trim())
    throw new ConfigurationError('secretKey is required', { code: 'missing_secret_key' });
  const baseUrl = checkBaseUrl(options.baseUrl);
  const clock = options.clock ?? systemClock;
  const retry =
    options.retry === false ? { ...DEFAULT_RETRY, attempts: 1 } : { ...DEFAULT_RETRY, ...options.retry };
  const scrub = (text: string) => text.split(secretKey).join('[redacted]');
  const operations = operationIndex(deps.operations);
  const transport: Fetch = options.fetch ?? ((request, init) => globalThis.fetch(request, init));
  const fetch = createStack({
    retry,
    timeoutMs: options.timeoutMs ?? 30_000,
    hooks: options.hooks,
    clock,
    transport,
    rateLimit: deps.rateLimit && ((inner) => deps.rateLimit!(options.rateLimit, inner, clock)),
    baseUrl,
    operations,
    scrub,
  });
  // The key goes in at Request construction, as openapi-fetch's default headers: no per-request copy.
  const raw = createFetchClient<Loose>({
    baseUrl,
    fetch,
    headers: {
      'X-Service-Secret-Key': secretKey,
      'User-Agent': (options.userAgent ?? deps.userAgent) || undefined,
    },
  });

  /** The error for a non-2xx response to `method template`. */
  const fail = (response: Response, body: unknown, method: string, template: string, init?: AnyInit) =>
    errorFromResponse(response, body, {
      operation: operations.byTemplate(method, template),
      method,
      path: fill(template, init?.params?.path),
      now: clock.now(),
      parseRateLimit: deps.parseRateLimit,
      scrub,
    });

  async function call(method: 'GET' | 'POST', template: string, init?: AnyInit): Promise<Loose> {
    let error: unknown;
    try {
      const result = await (raw as Loose)[method](template, init);
      if (result.response.ok) return result.data;
      error = fail(result.response, result.error, method, template, init);
    } catch (e) {
      error = e;
    }
    // A non-repeatable POST that failed without a clear answer may have taken effect.
    throw method === 'POST' &&
      !isRepeatable(method, template) &&
      (error instanceof NetworkError ||
        error instanceof TimeoutError ||
        (error instanceof PartnerPrintError && error.status! >= 500))
      ? ambiguous(error)
      : error;
  }

  const ambiguous = (cause: unknown, hint = '') => {
    const { name, message, ...fields } = (cause as PartnerPrintError).toJSON();
    return new AmbiguousOutcomeError(`${message}: it may have taken effect, so it was not repeated${hint}`, {
      ...fields,
      code: 'ambiguous_outcome',
      cause,
    });
  };

  async function lookupOrderReference(customIdentifier: string, init?: AnyInit): Promise<string | null> {
    let data: Loose;
    try {
      data = await call('GET', LOOKUP_ORDER, { ...init, params: { query: { customIdentifier } } });
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
    // The reference does not name this response's fields: accept the likely shapes.
    const found = [
      data?.orderReference,
      data?.order?.reference,
      data?.order?.orderReference,
      data?.reference,
    ].find((v) => typeof v === 'string' && v);
    return (found as string | undefined) ?? null;
  }

  async function createOrder(order: Record<string, unknown>, init?: AnyInit): Promise<Loose> {
    const id = order?.customIdentifier as string | undefined;
    for (let round = 1; ; round++) {
      try {
        return await call('POST', '/orders', { ...init, body: { order } });
      } catch (error) {
        if (!(error instanceof AmbiguousOutcomeError)) throw error;
        if (!id)
          throw ambiguous(error.cause, ' (with a customIdentifier, createOrder checks and reconciles)');
        // Reconcile: the lookup tells whether the failed attempt created the order.
        const reference = await lookupOrderReference(id, init);
        if (reference) return { order: { reference } };
        if (round >= retry.attempts) throw error;
      }
    }
  }

  async function upload(
    template: '/images' | '/evidence',
    data: UploadData,
    init?: AnyInit,
  ): Promise<string> {
    const operation = operations.byTemplate('POST', template) ?? `POST ${template}`;
    const bytes = await toBytes(data, operation);
    checkImageSignature(bytes, operation);
    const result = await call('POST', template, {
      ...init,
      body: bytes,
      bodySerializer: (b: unknown) => b,
      headers: { ...init?.headers, 'Content-Type': 'application/octet-stream' },
    });
    return result[template === '/images' ? 'image' : 'evidence'].reference;
  }

  async function* paginate(template: string, init?: AnyInit): AsyncGenerator<unknown, void, undefined> {
    const seen = new Set<string>();
    let cursor = init?.params?.query?.cursor as string | undefined;
    for (;;) {
      const query = { ...init?.params?.query, cursor };
      if (cursor === undefined) delete query.cursor;
      const page = await call('GET', template, { ...init, params: { ...init?.params, query } });
      const field = page && Object.keys(page).find((k) => k !== 'nextCursor' && Array.isArray(page[k]));
      if (!field)
        throw new PartnerPrintError(`GET ${template} is not a list`, {
          code: 'not_a_list',
          method: 'GET',
          path: template,
        });
      yield* page[field];
      const next = page.nextCursor;
      if (typeof next !== 'string' || !next) return;
      // A cursor is used once; a repeated one would loop forever.
      if (seen.has(next))
        throw new PartnerPrintError(`GET ${template}: cursor repeated`, { code: 'cursor_repeated' });
      seen.add(next);
      cursor = next;
    }
  }

  async function collect(template: string, init?: AnyInit, { max = Number.POSITIVE_INFINITY } = {}) {
    const items: unknown[] = [];
    if (max <= 0) return items;
    for await (const item of paginate(template, init)) if (items.push(item) >= max) break;
    return items;
  }

  async function download(
    template: string,
    init?: AnyInit,
    opts: DownloadOptions<'bytes' | 'blob' | 'stream'> = {},
  ) {
    const { as = 'bytes', wait = true, maxWaitMs = 600_000 } = opts;
    const started = clock.now();
    for (;;) {
      const { error, response } = await raw.GET(template, { ...init, parseAs: 'stream' });
      if (!response.ok) throw fail(response, error, 'GET', template, init);
      if (response.status === 202) {
        await response.body?.cancel().catch(() => {});
        // Not ready yet; 60 s is the polling interval the reference gives for renders.
        const retryAfter = retryAfterSeconds(response.headers, clock.now()) ?? 60;
        if (!wait) return { pending: true, retryAfter };
        if (clock.now() + retryAfter * 1000 - started > maxWaitMs) {
          const operation = operations.byTemplate('GET', template);
          const path = fill(template, init?.params?.path);
          throw new TimeoutError(`${operation ?? path}: not ready after ${maxWaitMs} ms`, {
            code: 'download_pending',
            operation,
            method: 'GET',
            path,
            retryAfter,
          });
        }
        await clock.sleep(retryAfter * 1000, init?.signal);
        continue;
      }
      const contentType = response.headers.get('content-type');
      const data =
        as === 'stream'
          ? (response.body ?? new Blob([]).stream())
          : as === 'blob'
            ? await response.blob()
            : new Uint8Array(await response.arrayBuffer());
      return { pending: false, data, contentType };
    }
  }

  return Object.assign(raw, {
    get: (path: string, init?: AnyInit) => call('GET', path, init),
    post: (path: string, init?: AnyInit) => call('POST', path, init),
    paginate,
    collect,
    uploadImage: (data: UploadData, init?: AnyInit) => upload('/images', data, init),
    uploadEvidence: (data: UploadData, init?: AnyInit) => upload('/evidence', data, init),
    download,
    createOrder,
    lookupOrderReference,
  });
}
