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

/** The field families, the V3 names first: each one's name (the `source`), policy field and limit field. */
const FAMILIES = [
  ['ratelimit', 'ratelimit-policy', 'ratelimit'],
  ['x-ratelimit', 'x-ratelimit-policy', 'x-ratelimit'],
] as const;

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
  const result: ParsedRateLimitHeaders = { policies: [], limits: [] };
  const family = readFamily(get, namesOf(options.parameterNames));
  if (family) {
    // The readings are shared between answers: the caller gets objects of its own.
    result.policies = family.policies.map((p) => ({ ...p }));
    result.limits = family.limits.map((l) => ({ ...l }));
    result.source = family.source;
  }
  const retryAfterMs = parseRetryAfter(get('retry-after'), options.now ?? Date.now(), get('date'));
  if (retryAfterMs !== undefined) result.retryAfterSeconds = retryAfterMs / 1000;
  return result;
}

/** What the scheduler reads of an answer: like {@link ParsedRateLimitHeaders}, shared and read-only. */
export interface RateLimitFields {
  readonly policies: readonly RateLimitPolicy[];
  readonly limits: readonly RateLimitLimit[];
  readonly retryAfterSeconds?: number;
  readonly source?: 'x-ratelimit' | 'ratelimit';
}

const NO_FIELDS: RateLimitFields = Object.freeze({ policies: Object.freeze([]), limits: Object.freeze([]) });

/**
 * The scheduler's reading of an answer, the same as {@link parseRateLimitHeaders} gives, without a copy:
 * readings of a field value are kept and shared (answer after answer carries the same policy field), and
 * `Retry-After` is read only when asked (only a 429's matters). `names` comes from {@link namesOf}.
 */
export function readRateLimitFields(
  headers: Headers,
  names: ParameterNames,
  now: number,
  retryAfter: boolean,
): RateLimitFields {
  const family = readFamily(headers, names);
  if (!retryAfter) return family ?? NO_FIELDS;
  const retryAfterMs = parseRetryAfter(headers.get('retry-after'), now, headers.get('date'));
  if (retryAfterMs === undefined) return family ?? NO_FIELDS;
  return { ...(family ?? NO_FIELDS), retryAfterSeconds: retryAfterMs / 1000 };
}

/** The parameter names in use: the defaults, with the given spellings instead where set. */
export function namesOf(names: Partial<ParameterNames> | undefined): ParameterNames {
  return names ? { ...DEFAULT_PARAMETER_NAMES, ...names } : DEFAULT_PARAMETER_NAMES;
}

/**
 * The first field family (V3 names, then X-) with a usable field, read; undefined when none has one. The
 * fields come from a `Headers` (the scheduler's answers) or a reader of any other header shape.
 */
function readFamily(
  get: Headers | ((name: string) => string | undefined),
  names: ParameterNames,
): RateLimitFields | undefined {
  for (let i = 0; i < FAMILIES.length; i++) {
    const family = FAMILIES[i];
    if (!family) continue;
    const source = family[0];
    const policyField = family[1];
    const limitField = family[2];
    const policy = policyReading(typeof get === 'function' ? get(policyField) : fieldOf(get, policyField));
    const limit = limitReading(typeof get === 'function' ? get(limitField) : fieldOf(get, limitField));
    if (!policy?.list && !limit?.list) continue;
    return {
      policies: policy ? policiesIn(policy, names) : NO_FIELDS.policies,
      limits: limit ? limitsIn(limit, names) : NO_FIELDS.limits,
      source,
    };
  }
  return undefined;
}

const fieldOf = (headers: Headers, name: string): string | undefined => headers.get(name) ?? undefined;

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
// field while a bucket is full), so readings are kept by their text: the parsed List, and what it says for
// the parameter names it was last read with. They are only read, never changed. Policy fields are kept in
// a small map; a limit field changes with every request while tokens are spent, so only the last one is
// kept (a map would fill with values that never come back).
interface Reading {
  value: string;
  list: (Item | InnerList)[] | undefined;
  names?: ParameterNames;
  policies?: readonly RateLimitPolicy[];
  limits?: readonly RateLimitLimit[];
}
const policyReadings = new Map<string, Reading>();
const POLICY_READINGS_KEPT = 64;
let lastLimitReading: Reading | undefined;

function policyReading(value: string | undefined): Reading | undefined {
  if (value === undefined) return undefined;
  let r = policyReadings.get(value);
  if (r) return r;
  r = { value, list: readList(value) };
  if (policyReadings.size >= POLICY_READINGS_KEPT) policyReadings.clear();
  policyReadings.set(value, r);
  return r;
}

function limitReading(value: string | undefined): Reading | undefined {
  if (value === undefined) return undefined;
  if (lastLimitReading?.value !== value) lastLimitReading = { value, list: readList(value) };
  return lastLimitReading;
}

function readList(value: string): (Item | InnerList)[] | undefined {
  try {
    const list = scanSimpleList(value) ?? parseList(value);
    return list.length === 0 ? undefined : list;
  } catch {
    return undefined;
  }
}

/** Readings for other parameter names than last time start again. */
function forNames(r: Reading, names: ParameterNames): void {
  if (r.names === names) return;
  r.names = names;
  r.policies = undefined;
  r.limits = undefined;
}

function policiesIn(r: Reading, names: ParameterNames): readonly RateLimitPolicy[] {
  forNames(r, names);
  r.policies ??= membersOf(r, names, toPolicy);
  return r.policies;
}

function limitsIn(r: Reading, names: ParameterNames): readonly RateLimitLimit[] {
  forNames(r, names);
  r.limits ??= membersOf(r, names, toLimit);
  return r.limits;
}

/** What each member of a reading's List says, those that say something. */
function membersOf<T>(
  r: Reading,
  names: ParameterNames,
  read: (member: Item | InnerList, names: ParameterNames) => T | undefined,
): T[] {
  const out: T[] = [];
  for (const member of r.list ?? []) {
    const value = read(member, names);
    if (value !== undefined) out.push(value);
  }
  return out;
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
  for (let i = 0; i < keys.length; i++) {
    // A hole in `keys` reads as no value (the Map's keys are strings).
    const value = params.get(keys[i]!);
    if (value === undefined) continue;
    const ok =
      typeof value === 'number' && value >= 0 && (decimal ? Number.isFinite(value) : Number.isInteger(value));
    return ok ? value : undefined;
  }
  return undefined;
}

function toPolicy(member: Item | InnerList, names: ParameterNames): RateLimitPolicy | undefined {
  if (isInner(member)) return undefined;
  const name = nameOf(member[0]);
  const quota = param(member[1], names.quota);
  if (name === undefined || quota === undefined) return undefined;
  const policy: RateLimitPolicy = { name, quota };
  const window = param(member[1], names.window);
  if (window !== undefined && window > 0) policy.windowSeconds = window;
  return policy;
}

function toLimit(member: Item | InnerList, names: ParameterNames): RateLimitLimit | undefined {
  if (isInner(member)) return undefined;
  const name = nameOf(member[0]);
  const remaining = param(member[1], names.remaining);
  if (name === undefined || remaining === undefined) return undefined;
  const limit: RateLimitLimit = { name, remaining };
  const reset = param(member[1], names.reset, true);
  if (reset !== undefined) limit.resetSeconds = reset;
  return limit;
}
