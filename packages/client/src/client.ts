import createFetchClient from 'openapi-fetch';
import { type Clock, systemClock } from './clock.ts';
import { checkBaseUrl, checkHeaders } from './config.ts';
import { type AnyInit, ambiguous, type Core, type Loose, register } from './core.ts';
import { ConfigurationError, NetworkError, PartnerPrintError, TimeoutError } from './errors.ts';
import { type OperationTable, operationIndex } from './operations.ts';
import { type CallContext, errorFromResponse, type RateLimitParser } from './response.ts';
import { createStack, type Fetch, type Hooks, isRepeatable, type RetryOptions } from './transport.ts';

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
  operations?: OperationTable | undefined;
  rateLimit?: (option: RateLimit | undefined, inner: Fetch, clock: Clock) => Fetch;
  parseRateLimit?: RateLimitParser;
  userAgent: string;
}

/** Untyped core: openapi-fetch's methods plus `get`/`post`; the entries give it the types of the spec. */
export function createCore<RateLimit>(options: CoreOptions<RateLimit>, deps: CoreDeps<RateLimit>) {
  const { secretKey, clock = systemClock } = options;
  if (typeof secretKey !== 'string' || !secretKey.trim())
    throw new ConfigurationError('secretKey is required', { code: 'missing_secret_key' });
  const baseUrl = checkBaseUrl(options.baseUrl);
  const retry = {
    attempts: 3,
    baseDelayMs: 500,
    maxDelayMs: 20_000,
    maxElapsedMs: 60_000,
    ...(options.retry === false ? { attempts: 1 } : options.retry),
  };
  const scrub = (text: string) => text.split(secretKey).join('[redacted]');
  const operations = operationIndex(deps.operations);
  const raw: Loose = createFetchClient<Loose>({
    baseUrl,
    fetch: createStack({
      retry,
      timeoutMs: options.timeoutMs ?? 30_000,
      hooks: options.hooks,
      clock,
      transport: options.fetch ?? ((request, init) => fetch(request, init)),
      rateLimit: deps.rateLimit && ((inner) => deps.rateLimit!(options.rateLimit, inner, clock)),
      baseUrl,
      operation: operations.byPath,
      scrub,
    }),
    // The key goes in at Request construction, as openapi-fetch's default headers: no per-request copy.
    headers: {
      'X-Service-Secret-Key': secretKey,
      'User-Agent': (options.userAgent ?? deps.userAgent) || undefined,
    },
  });

  // The V1 guard reads the headers a call is given, before openapi-fetch builds the Request: reading
  // a built Request's headers back costs more than the whole check. `init` is the last argument:
  // GET(path, init), request(method, path, init).
  for (const name of ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE', 'request']) {
    const send = raw[name];
    raw[name] = (a: unknown, b: Loose, c: Loose) => {
      const init = typeof b === 'object' ? b : c;
      try {
        checkHeaders(init?.headers);
        checkHeaders(init?.params?.header);
      } catch (error) {
        return Promise.reject(error);
      }
      return send(a, b, c);
    };
  }

  const context = (method: string, template: string, init?: AnyInit): CallContext => ({
    operation: operations.byTemplate(method, template),
    method,
    path: template.replace(/\{([^}]+)\}/g, (m, name: string) => String(init?.params?.path?.[name] ?? m)),
  });

  const call: Core['call'] = async (method, template, init, whole) => {
    let error: Loose;
    try {
      const result = await raw[method](template, init);
      if (result.response.ok) return whole ? result : result.data;
      error = errorFromResponse(result.response, result.error, {
        ...context(method, template, init),
        now: clock.now(),
        parseRateLimit: deps.parseRateLimit,
        scrub,
      });
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
  };

  raw.get = (path: string, init?: AnyInit) => call('GET', path, init);
  raw.post = (path: string, init?: AnyInit) => call('POST', path, init);
  return register(raw, { call, context, clock, retry });
}
