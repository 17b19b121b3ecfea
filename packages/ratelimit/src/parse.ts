import { parseRetryAfter } from '@partner-print/openapi/wire';
import { type BareItem, type InnerList, type Item, parseList, Token } from 'structured-headers';
import { scanSimpleList } from './fast-list.ts';

/** A quota policy from `RateLimit-Policy` / `X-RateLimit-Policy`. */
export interface RateLimitPolicy {
  name: string;
  /** Quota units (requests) per window. */
  quota: number;
  /** Window in seconds; absent when the server does not send `w`. */
  windowSeconds?: number;
}

/** A service limit from `RateLimit` / `X-RateLimit`. */
export interface RateLimitLimit {
  name: string;
  /** Remaining quota units. */
  remaining: number;
  /** Seconds until additional quota is available (`t`); absent when not sent. */
  resetSeconds?: number;
}

export interface ParsedRateLimitHeaders {
  policies: RateLimitPolicy[];
  limits: RateLimitLimit[];
  /** `Retry-After` in seconds (delay-seconds or HTTP-date relative to `now`). Takes precedence over `t`. */
  retryAfterSeconds?: number;
  /** Which field family was read; absent when neither carried a usable value. */
  source?: 'x-ratelimit' | 'ratelimit';
}

/**
 * Parameter names per meaning. The draft is still renaming some of them, so the table can be extended
 * (several spellings per meaning; the first one present wins).
 */
export interface ParameterNames {
  quota: readonly string[];
  window: readonly string[];
  remaining: readonly string[];
  reset: readonly string[];
}

export const DEFAULT_PARAMETER_NAMES: ParameterNames = Object.freeze({
  quota: Object.freeze(['q']),
  window: Object.freeze(['w']),
  remaining: Object.freeze(['r']),
  reset: Object.freeze(['t']),
});

/** Anything that carries header fields: a `Headers`, a plain record (Node style, arrays allowed) or entries. */
export type HeadersInput =
  | Headers
  | Record<string, string | readonly string[] | number | undefined | null>
  | Iterable<readonly [string, string]>;

export interface ParseOptions {
  /** Milliseconds since the epoch, for an HTTP-date `Retry-After`. Defaults to `Date.now()`. */
  now?: number;
  parameterNames?: Partial<ParameterNames>;
}

const FIELDS = {
  ratelimit: { policy: 'ratelimit-policy', limit: 'ratelimit' },
  'x-ratelimit': { policy: 'x-ratelimit-policy', limit: 'x-ratelimit' },
} as const;

/**
 * Reads the rate-limit header fields of a response (draft-ietf-httpapi-ratelimit-headers, -08 and later).
 * The unprefixed `RateLimit-Policy` / `RateLimit` (V3) win over the `X-` names (V2) when present and
 * well-formed. A malformed field is ignored, never thrown.
 */
export function parseRateLimitHeaders(
  headers: HeadersInput,
  options: ParseOptions = {},
): ParsedRateLimitHeaders {
  const get = headerReader(headers);
  const names: ParameterNames = { ...DEFAULT_PARAMETER_NAMES, ...options.parameterNames };
  const result: ParsedRateLimitHeaders = { policies: [], limits: [] };

  for (const source of ['ratelimit', 'x-ratelimit'] as const) {
    const policyList = readList(get(FIELDS[source].policy));
    const limitList = readList(get(FIELDS[source].limit));
    if (policyList === undefined && limitList === undefined) continue;
    result.policies = policyList ? policyList.flatMap((m) => toPolicy(m, names)) : [];
    result.limits = limitList ? limitList.flatMap((m) => toLimit(m, names)) : [];
    result.source = source;
    break;
  }

  const retryAfterMs = parseRetryAfter(get('retry-after'), options.now ?? Date.now());
  if (retryAfterMs !== undefined) result.retryAfterSeconds = retryAfterMs / 1000;
  return result;
}

function headerReader(headers: HeadersInput): (name: string) => string | undefined {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    return (name) => headers.get(name) ?? undefined;
  }
  const map = new Map<string, string[]>();
  const add = (key: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    const k = key.toLowerCase();
    const values = Array.isArray(value) ? value.map(String) : [String(value)];
    const existing = map.get(k);
    if (existing) existing.push(...values);
    else map.set(k, values);
  };
  if (Symbol.iterator in headers) {
    for (const [key, value] of headers as Iterable<readonly [string, string]>) add(key, value);
  } else {
    for (const [key, value] of Object.entries(headers)) add(key, value);
  }
  // Several field lines of a structured List combine with ", " (RFC 9651 §3.1).
  return (name) => map.get(name)?.join(', ');
}

// The same field values come back response after response (the policy field nearly always, the limit
// field while a bucket is full), so parsed Lists are kept by their text. They are only read, never changed.
const parsedLists = new Map<string, (Item | InnerList)[] | undefined>();
const PARSED_LISTS_KEPT = 64;

function readList(value: string | undefined): (Item | InnerList)[] | undefined {
  if (value === undefined) return undefined;
  if (parsedLists.has(value)) return parsedLists.get(value);
  let list: (Item | InnerList)[] | undefined;
  try {
    list = scanSimpleList(value) ?? parseList(value);
    if (list.length === 0) list = undefined;
  } catch {
    list = undefined;
  }
  if (parsedLists.size >= PARSED_LISTS_KEPT) parsedLists.clear();
  parsedLists.set(value, list);
  return list;
}

function isInner(member: Item | InnerList): member is InnerList {
  return Array.isArray(member[0]);
}

function nameOf(value: BareItem): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof Token) return value.toString();
  return undefined;
}

/** A non-negative Integer parameter (the draft's rule); `decimal` also admits a Decimal (for `t`). */
function param(params: Map<string, BareItem>, keys: readonly string[], decimal = false): number | undefined {
  for (const key of keys) {
    const value = params.get(key);
    if (value === undefined) continue;
    const ok =
      typeof value === 'number' && value >= 0 && (decimal ? Number.isFinite(value) : Number.isInteger(value));
    return ok ? value : undefined;
  }
  return undefined;
}

function toPolicy(member: Item | InnerList, names: ParameterNames): RateLimitPolicy[] {
  if (isInner(member)) return [];
  const name = nameOf(member[0]);
  const quota = param(member[1], names.quota);
  if (name === undefined || quota === undefined) return [];
  const policy: RateLimitPolicy = { name, quota };
  const window = param(member[1], names.window);
  if (window !== undefined && window > 0) policy.windowSeconds = window;
  return [policy];
}

function toLimit(member: Item | InnerList, names: ParameterNames): RateLimitLimit[] {
  if (isInner(member)) return [];
  const name = nameOf(member[0]);
  const remaining = param(member[1], names.remaining);
  if (name === undefined || remaining === undefined) return [];
  const limit: RateLimitLimit = { name, remaining };
  const reset = param(member[1], names.reset, true);
  if (reset !== undefined) limit.resetSeconds = reset;
  return [limit];
}
