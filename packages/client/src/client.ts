import type { paths } from '@partner-print/openapi';
import {
  type Clock,
  refuseUnknownOptions,
  systemClock,
  V2_SECRET_KEY_HEADER,
} from '@partner-print/openapi/wire';
import createFetchClient, { type Client, createQuerySerializer } from 'openapi-fetch';
import { checkBaseUrl, checkKey, readableHeaders } from './config.ts';
import { type Core, type RequestOptions, register, type Whole } from './core.ts';
import type { Fetch } from './deadline.ts';
import { ConfigurationError, PartnerPrintError } from './errors.ts';
import { createEmitter, type Hooks, LEVELS, type Logger, type LogLevel, loggerHooks } from './events.ts';
import type { StrictMethods } from './helpers.ts';
import { type OperationTable, operationIndex } from './operations.ts';
import { callSettings, checkInit, checkRetry, checkTimeout, readableInit, retryPolicy } from './options.ts';
import { pathSerializer } from './paths.ts';
import { redactSecret } from './redact.ts';
import { type CallContext, errorFromResponse, fieldOf, type RateLimitParser, webAnswer } from './response.ts';
import type { ClientTelemetry } from './telemetry/index.ts';
import {
  abortOf,
  ambiguousIf,
  type CallSettings,
  createStack,
  handoff,
  isRepeatable,
  type Limiter,
  notJson,
  type QueueKit,
  type RetryOptions,
  readDone,
  type Stack,
  spentOf,
  unread,
} from './transport.ts';
import type { Media, PartnerPrintBaseClient, ThrowingMethod } from './types.ts';

export interface CoreOptions<RateLimit> {
  /** The V2 secret key, sent only as `X-Service-Secret-Key`; visible ASCII characters. */
  secretKey: string;
  /** Ends with `/v2`; https, or http for loopback hosts only. */
  baseUrl: string;
  /** The transport beneath everything (default `globalThis.fetch`), e.g. a sandbox's `fetch`. */
  fetch?: Fetch;
  /** Retry policy, or `false` for a single attempt. */
  retry?: RetryOptions | false;
  /** Per attempt, until the response headers. Default 30 000; 0 turns it off. See the README for the queue. */
  timeoutMs?: number;
  rateLimit?: RateLimit;
  userAgent?: string;
  hooks?: Hooks;
  /** Where log lines go (e.g. `console`): requests and responses at debug, retries at warn, failures at error. */
  logger?: Logger;
  /** The least level written to `logger`. Default `'info'`. */
  logLevel?: LogLevel;
  /** Time source for backoff, Retry-After and 202 waits (a sandbox's virtual clock in tests). */
  clock?: Clock;
}

export interface CoreDeps<RateLimit> {
  operations?: OperationTable | undefined;
  /** The rate-limit layer for the `rateLimit` option, given what a queue the client sends through needs. */
  limiter?: (option: RateLimit | undefined, kit: QueueKit, clock: Clock) => Limiter | undefined;
  parseRateLimit?: RateLimitParser;
  userAgent: string;
  /** Spans and metrics (the main entry's); the lite entry has none. */
  telemetry?: ((secret: string) => ClientTelemetry | undefined) | undefined;
}

/** What openapi-fetch's methods resolve to. */
interface Result {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** Checks the options; every error comes out with the key redacted (a key pasted as the base URL included). */
/** What `createClient` takes, of either entry (`telemetry` is the main entry's, `operations` lite's). */
const CLIENT_KEYS = [
  'secretKey',
  'baseUrl',
  'fetch',
  'retry',
  'timeoutMs',
  'rateLimit',
  'userAgent',
  'hooks',
  'logger',
  'logLevel',
  'clock',
  'telemetry',
  'operations',
];

function checkOptions<R>(options: CoreOptions<R>): { baseUrl: string; settings: CallSettings } {
  checkKey(options?.secretKey);
  try {
    // A misspelt option was ignored (`timeoutms` kept the default); only its name is shown, never its value.
    refuseUnknownOptions(options, CLIENT_KEYS, ConfigurationError);
    if (options.logLevel !== undefined && !LEVELS.includes(options.logLevel))
      throw new ConfigurationError(`logLevel must be one of ${LEVELS.join(', ')}`);
    checkTimeout(options.timeoutMs, 'timeoutMs');
    checkRetry(options.retry, 'retry');
    const retry = { attempts: 3, baseDelayMs: 500, maxDelayMs: 20_000, maxElapsedMs: 60_000 };
    return {
      baseUrl: checkBaseUrl(options.baseUrl),
      settings: { retry: retryPolicy(retry, options.retry), timeoutMs: options.timeoutMs ?? 30_000 },
    };
  } catch (error) {
    throw redactSecret(error, options.secretKey);
  }
}

/**
 * The core both entries build on: openapi-fetch's client (with the client's transport beneath it) plus the
 * throwing `get`/`post`; the entries add the rate-limit layer and the helpers.
 */
export function createCore<RateLimit>(
  options: CoreOptions<RateLimit>,
  deps: CoreDeps<RateLimit>,
): Omit<PartnerPrintBaseClient, 'scheduler'> {
  const { baseUrl, settings } = checkOptions(options);
  const { secretKey, clock = systemClock, logger } = options;
  const operations = operationIndex(deps.operations);
  const telemetry = deps.telemetry?.(secretKey);
  const own = options.fetch;
  // Answers of the partner's fetch read as web Responses (webAnswer), until one is the runtime's own Response:
  // from then on that fetch's answers go as they are, with no promise added per request (the sandbox's, a test's).
  let web = false;
  const transport: Fetch = own
    ? (request, init) =>
        web
          ? own(request, init)
          : own(request, init).then((answer) => {
              web = answer instanceof Response;
              return webAnswer(answer);
            })
    : (request, init) => fetch(request, init);
  const stack = createStack({
    ...settings,
    emit: createEmitter(options.hooks, logger && loggerHooks(logger, options.logLevel), secretKey),
    clock,
    transport: telemetry ? telemetry.stack.transport(transport) : transport,
    limiter:
      deps.limiter &&
      ((kit) => {
        const limiter = deps.limiter?.(options.rateLimit, kit, clock);
        return limiter && telemetry ? telemetry.limiter(limiter) : limiter;
      }),
    baseUrl,
    operation: operations.byPath,
    secret: secretKey,
    telemetry: telemetry?.stack,
  });
  const raw = createFetchClient<paths, Media>({
    baseUrl,
    fetch: (request: Request) => stack(request),
    // The key goes in at Request construction, as openapi-fetch's default headers: no per-request copy.
    headers: { [V2_SECRET_KEY_HEADER]: secretKey },
    Request: agentRequest((options.userAgent ?? deps.userAgent) || undefined),
    // The client decides on redirects itself (redirect.ts): fetch would follow them to any origin with the key.
    redirect: 'manual',
    // openapi-fetch's own URLs, for less work per call (paths.ts); a call's own serializers still come first.
    pathSerializer: pathSerializer(),
    querySerializer: createQuerySerializer(),
  });
  const send = guarded(raw, stack, settings, (name, url, init, reason) =>
    abortOf(reason, context(name, url, init)),
  );

  const context = (method: string, template: string, init?: object): CallContext => ({
    operation: operations.byTemplate(method, template),
    method,
    path: template.replace(/\{([^}]+)\}/g, (m, name: string) => String(pathParam(init, name) ?? m)),
  });
  /** What a call throws: the key redacted, a POST that failed without a clear answer marked ambiguous. */
  const failed = (method: string, init: object | undefined, error: unknown): never => {
    // Only a POST can be ambiguous: no other call's failure reads its headers (contentTypeOf makes a Headers).
    throw redactSecret(
      ambiguousIf(method, method === 'POST' ? contentTypeOf(init) : undefined, error),
      secretKey,
    );
  };
  // Every form (`form`: 0 the data, 1 with the response, 2 openapi-fetch's result of any status) in one `then`,
  // not an async function: its frame and its await cost a promise and ~250 bytes per call. `send` rejects
  // rather than throws. One function takes the result and the failure (never openapi-fetch's `{ response }`):
  // the failure may need the call, to read it again.
  const request = (method: string, template: string, init: object | undefined, form: 0 | 1 | 2) => {
    // The stack's record of this call, when it is entered within `send` (see `unread`).
    handoff.call = null;
    const sent = send(method, template, init);
    const call = handoff.call;
    handoff.call = handoff.resume = undefined;
    const settled = (outcome: unknown): unknown => {
      if (!isResult(outcome)) {
        // A 2xx whose body was cut off goes on as a failed attempt of the call (its budget, its span).
        const read = unread(call, outcome);
        if (read && !(outcome instanceof SyntaxError)) {
          handoff.resume = read;
          handoff.error = outcome;
          return request(method, template, init, form);
        }
        const error = read ? notJson(read, outcome as Error, context(method, template, init)) : outcome;
        readDone(call, error);
        return failed(method, init, error);
      }
      const result = outcome;
      readDone(call);
      // A 2xx result is openapi-fetch's `{ data, response }` as it is.
      if (result.response.ok || form > 1) return form ? result : result.data;
      let error: unknown;
      try {
        const ctx = {
          ...context(method, template, init),
          now: clock.now(),
          parseRateLimit: deps.parseRateLimit,
        };
        error = Object.assign(
          errorFromResponse(result.response, result.error, ctx),
          spentOf(result.response),
        );
      } catch (e) {
        error = e;
      }
      return failed(method, init, error);
    };
    return sent.then(settled, settled);
  };
  const core: Core = {
    call: (method, template, init) => request(method, template, init, 0),
    callWhole: (method, template, init) => request(method, template, init, 1) as Promise<Whole>,
    context,
    clock,
    // The client's retry and timeoutMs.
    ...settings,
    operation: telemetry?.operation,
    // `false` kept: render and callback on a client made with `telemetry: false` stay silent too.
    telemetry: deps.telemetry && (telemetry ? telemetry.option : false),
    redact: (value) => redactSecret(value, secretKey),
  };
  // `POST()`/`request()` of a POST that may not be repeated read its 2xx as `post()` does: a body that cannot be
  // read leaves the outcome unknown (an AmbiguousOutcomeError). Only those rare calls pay for it (a `then`).
  const open: Send = (name, url, init) => {
    if (name === 'POST') {
      // A header collection of another kind copied once, here, for the judgement and the call (`send` takes the
      // copy as it is); one that cannot be read is left to `send` to refuse.
      try {
        init = readableInit(init);
      } catch {}
      if (!isRepeatable(name, contentTypeOf(init))) return request(name, url, init, 2) as Promise<Result>;
    }
    return send(name, url, init);
  };
  // `get`/`post`: openapi-fetch's typed call, resolving to `data` or throwing (`ThrowingMethod` types them).
  const methods = {
    ...strictMethods(open),
    get: ((url: string, init?: object) => request('GET', url, init, 0)) as ThrowingMethod<paths, 'get'>,
    post: ((url: string, init?: object) => request('POST', url, init, 0)) as ThrowingMethod<paths, 'post'>,
  };
  return register(Object.assign(raw, methods), core);
}

const pathParam = (init: object | undefined, name: string): unknown =>
  fieldOf(fieldOf(fieldOf(init, 'params'), 'path'), name);

const contentTypeOf = (init: object | undefined): string | undefined => {
  // Any case, in any collection the call reads, params.header over headers as openapi-fetch merges them (an
  // upload's is in params.header): the transport reads the Request's header, and both must judge the call
  // alike. Only a POST (its failure, or a POST() call) asks; a collection that cannot be read is the call's to report.
  const { headers, params } = (init ?? {}) as { headers?: unknown; params?: { header?: unknown } };
  try {
    return (
      new Headers(readableHeaders(params?.header) as HeadersInit).get('content-type') ??
      new Headers(readableHeaders(headers) as HeadersInit).get('content-type') ??
      undefined
    );
  } catch {
    return undefined;
  }
};

/** openapi-fetch's result of a call, as opposed to what a call failed with. */
const isResult = (outcome: unknown): outcome is Result =>
  outcome instanceof Object && !(outcome instanceof Error) && 'response' in outcome;

type Raw = Client<paths, Media>;

/** openapi-fetch's method `name` called with `url` and `init`, untyped (the typed surface is built on it). */
type Send = (name: string, url: string, init: object | undefined) => Promise<Result>;

/**
 * Checks a call's `init` before openapi-fetch builds the Request (unknown options, V1 credential headers:
 * reading a built Request's headers back costs more than the whole check), and sends a call with its own
 * `timeoutMs`/`retry` through the stack with those settings.
 */
function guarded(
  raw: Raw,
  stack: Stack,
  client: CallSettings,
  aborted: (name: string, url: string, init: object | undefined, reason: unknown) => PartnerPrintError,
): Send {
  // openapi-fetch's own methods, before the client object gets its typed ones in their place.
  const methods = new Map(Object.entries(raw).filter(([name]) => name === name.toUpperCase()));
  return (name, url, init) => {
    let ownAgent: boolean;
    try {
      if (init !== undefined && (typeof init !== 'object' || init === null))
        throw new TypeError(`${name} ${url}: init must be an object`);
      init = readableInit(init);
      ownAgent = checkInit(init, name, undefined, url);
      const own = callSettings(init, client);
      if (own && init) {
        const { timeoutMs: _t, retry: _r, ...rest } = init as RequestOptions;
        init = { ...rest, fetch: (request: Request) => stack(request, own) };
      }
    } catch (error) {
      return Promise.reject(error);
    }
    const method: unknown = methods.get(name);
    if (typeof method !== 'function') return Promise.reject(new TypeError(`no method ${name}`));
    // No signal given: the Request openapi-fetch makes has a signal of its own that nothing can abort.
    const signal = (init as RequestOptions | undefined)?.signal;
    handoff.unabortable = !signal;
    handoff.ownAgent = ownAgent;
    let sent: Promise<Result>;
    try {
      sent = method.call(raw, url, init);
    } finally {
      handoff.unabortable = handoff.ownAgent = false;
    }
    // An abort once the headers came ends the reading of the body with the signal's reason, as the platform
    // hands it on (the deadline keeps listening until then): mapped like an abort of an attempt.
    return signal
      ? sent.catch((error: unknown) => {
          throw signal.aborted && !(error instanceof PartnerPrintError)
            ? aborted(name, url, init, signal.reason)
            : error;
        })
      : sent;
  };
}

/**
 * The Request openapi-fetch makes (synchronously, in the method's call), with the client's User-Agent set on
 * it unless the call's own headers name one (theirs, or null for none, as openapi-fetch merges them). As a
 * default header openapi-fetch merges it into a new Headers per call that the Request copies again: about
 * 8,000 instructions per call, a twentieth of a bare openapi-fetch call; set here, about a quarter of that.
 */
function agentRequest(agent: string | undefined): typeof Request {
  if (!agent) return Request;
  // A function, not a subclass: `new` on it gives the platform's own Request.
  // biome-ignore lint/complexity/useArrowFunction: openapi-fetch calls it with `new`
  const make = function (url: RequestInfo | URL, init?: RequestInit) {
    const request = new Request(url, init);
    if (!handoff.ownAgent) request.headers.set('User-Agent', agent);
    return request;
  };
  // openapi-fetch takes a middleware's result as the request when it is `instanceof` this class: every
  // Request must be, not only those made here.
  make.prototype = Request.prototype;
  return make as unknown as typeof Request;
}

/**
 * openapi-fetch's `GET`, `POST`… and `request(method, url, init)` through `send` (which refuses unknown keys at
 * run time; `StrictMethods` types them), made in a loop: written out one by one they cost 0.04 kB min+gzip in
 * every bundle.
 */
function strictMethods(send: Send): StrictMethods {
  const methods: Record<string, (...args: never[]) => Promise<unknown>> = {
    request: (method: unknown, url: unknown, init?: object) =>
      typeof method === 'string' && typeof url === 'string'
        ? send(method.toUpperCase(), url, init)
        : Promise.reject(new TypeError('request(method, url, init) takes two strings')),
  };
  for (const name of ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'])
    methods[name] = (url: string, init?: object) => send(name, url, init);
  return methods as unknown as StrictMethods;
}
