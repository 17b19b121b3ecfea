// Per-request options: checked at run time for JavaScript callers (TypeScript refuses unknown keys already),
// and a call's own `timeoutMs`/`retry` turned into the settings its requests are sent with.
import { checkHeaders, readableHeaders } from './config.ts';
import type { CoreInit } from './core.ts';
import { ConfigurationError } from './errors.ts';
import type { CallSettings, RetryOptions } from './transport.ts';

/** The keys a method's `init` may hold: openapi-fetch's request options, the client's own, and fetch's harmless ones. */
const METHOD_KEYS = new Set([
  'params',
  'body',
  'headers',
  'signal',
  'timeoutMs',
  'retry',
  'parseAs',
  'querySerializer',
  'bodySerializer',
  'pathSerializer',
  'middleware',
  'cache',
  'credentials',
  'integrity',
  'keepalive',
  'mode',
  'priority',
  'referrer',
  'referrerPolicy',
]);
// Refused with a reason: each would take a request past the client's rules (the key to another origin).
const WHY: Record<string, string> = {
  baseUrl: 'the base URL is the client’s (create another client for another base URL)',
  fetch: 'the transport is the client’s (pass fetch to createClient)',
  Request: 'the transport is the client’s',
  redirect: 'redirects follow the client’s policy (same origin only)',
};
/** The keys of the helpers' `init` that take no request of the caller's (uploads, orders). */
export const HELPER_KEYS: ReadonlySet<string> = new Set(['signal', 'headers', 'timeoutMs', 'retry']);

/**
 * Throws a ConfigurationError for a key `allowed` does not hold or a per-request option of the wrong type.
 * The call is named `label` (and `detail`, e.g. `GET /orders`), put together only for a message. Returns
 * whether the call's own headers name the User-Agent (see `checkHeaders`).
 */
export function checkInit(
  init: object | undefined,
  label: string | (() => string),
  allowed: ReadonlySet<string> = METHOD_KEYS,
  detail?: string,
): boolean {
  if (!init) return false;
  // Closures only where an option is there to check: this runs on every request.
  for (const key in init)
    if (!allowed.has(key))
      throw new ConfigurationError(
        `${callName(label, detail)}: unknown option ${JSON.stringify(key)}${WHY[key] ? ` (${WHY[key]})` : ''}; options are ${[...allowed].join(', ')}`,
      );
  let agent = 'headers' in init && checkHeaders(init.headers);
  if ('params' in init && init.params && typeof init.params === 'object' && 'header' in init.params)
    agent = checkHeaders(init.params.header, 'params.header') || agent;
  if ('timeoutMs' in init) checkTimeout(init.timeoutMs, () => `${callName(label, detail)}: timeoutMs`);
  if ('retry' in init) checkRetry(init.retry, () => `${callName(label, detail)}: retry`);
  // Any AbortSignal, the runtime's or a polyfill's or another realm's, as the runtime's Request takes it (every
  // layer reads `aborted`, `reason` and the abort event); an AbortController given for its signal is refused.
  const { signal } = init as { signal?: AbortSignal };
  if (signal !== undefined && !(typeof signal?.aborted === 'boolean' && signal.addEventListener))
    throw new ConfigurationError(`${callName(label, detail)}: signal must be an AbortSignal`);
  return agent;
}

/**
 * `init` with its `headers` and `params.header` as openapi-fetch can read them (see `readableHeaders`): `init`
 * itself when they already are (a record, a global Headers, none), else a copy holding them as Headers, made
 * once for the call (each attempt's Request is made of what openapi-fetch merged).
 */
export function readableInit<T extends object | undefined>(init: T): T {
  const headers = (init as CoreInit | undefined)?.headers;
  const params = (init as CoreInit | undefined)?.params;
  const header = params?.header;
  // Most calls give neither: nothing allocated or called (this runs on every request).
  if (headers === undefined && header === undefined) return init;
  const own = readableHeaders(headers);
  const param = readableHeaders(header, 'params.header');
  return own === headers && param === header
    ? init
    : ({ ...init, headers: own, ...(param !== header && { params: { ...params, header: param } }) } as T);
}

const callName = (label: string | (() => string), detail: string | undefined) =>
  detail === undefined ? text(label) : `${text(label)} ${detail}`;

const text = (what: string | (() => string)) => (typeof what === 'string' ? what : what());

/** `value` is undefined or a number ≥ 0 (`Infinity` included): NaN, a negative number or a string is refused. */
export function checkTimeout(value: unknown, what: string | (() => string)): void {
  if (value !== undefined && !(typeof value === 'number' && value >= 0))
    throw new ConfigurationError(`${text(what)} must be a number of milliseconds ≥ 0`);
}

const RETRY_KEY = /^(attempts|baseDelayMs|maxDelayMs|maxElapsedMs)$/;

/** `false` or `{ attempts, baseDelayMs, maxDelayMs, maxElapsedMs }`, each a number ≥ 0 or undefined (not given). */
export function checkRetry(value: unknown, what: string | (() => string)): void {
  if (
    value !== undefined &&
    value !== false &&
    (typeof value !== 'object' ||
      value === null ||
      Object.entries(value).some(
        ([key, n]) => !RETRY_KEY.test(key) || (n !== undefined && !(typeof n === 'number' && n >= 0)),
      ))
  )
    throw new ConfigurationError(
      `${text(what)} must be false or { attempts, baseDelayMs, maxDelayMs, maxElapsedMs }, each a number ≥ 0`,
    );
}

/** The client's retry policy with `retry` over it (`false`: one attempt); a field given as undefined is not given. */
export const retryPolicy = (
  base: Required<RetryOptions>,
  retry: RetryOptions | false | undefined,
): Required<RetryOptions> => {
  const policy: Record<string, number> = { ...base };
  if (retry === false) policy.attempts = 1;
  else if (retry) for (const [key, n] of Object.entries(retry)) if (n !== undefined) policy[key] = n;
  return policy as Required<RetryOptions>;
};

/** A call's settings when it has its own `timeoutMs` or `retry`, else undefined (the client's apply). */
export function callSettings(init: CoreInit | undefined, client: CallSettings): CallSettings | undefined {
  if (init?.timeoutMs === undefined && init?.retry === undefined) return undefined;
  return { timeoutMs: init.timeoutMs ?? client.timeoutMs, retry: retryPolicy(client.retry, init.retry) };
}

/**
 * Store options in milliseconds (by name), each a whole number at least `least`: a NaN (an unset environment
 * variable) or a negative one would give every Redis command about 1 ms (a timer given NaN fires at once), and
 * make the in-process claim store remember nothing; Infinity or a fraction is refused by Redis's `PX` (every
 * script call failed, read as Redis unavailable). Both twins of a store check their shared options here, alike.
 */
export function checkMs(durations: Record<string, unknown>, least: number): void {
  for (const [name, value] of Object.entries(durations))
    if (!Number.isSafeInteger(value) || (value as number) < least)
      // ConfigurationError's code is `invalid_option`.
      throw new ConfigurationError(
        // A number (or null) as it is, anything else by its type only: it may be a secret in the wrong place.
        `${name} must be a whole number of milliseconds ≥ ${least}, got ${typeof value === 'number' || value === null ? value : typeof value}`,
      );
}
