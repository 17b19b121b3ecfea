import { budgetKeyOf, V2_SECRET_KEY_HEADER } from '@partner-print/openapi/wire';
import type { Entry } from './lanes.ts';

/** What `classify` and `key` see of a request before it is sent. */
export interface RequestInfoLite {
  method: string;
  url: string;
  headers: Headers;
  /** `METHOD /path/template`, e.g. `GET /renders/*\/media`. */
  route: string;
}

/** Per-request options, passed as `init.rateLimit` to the scheduler's `fetch`. */
export interface RateLimitRequestOptions {
  /** Higher runs first; default 0. Integers from -10 to 10. */
  priority?: number;
  /**
   * Retries after a 429 for this request, at most the scheduler's `maxRetries`. 0 hands every 429 back to
   * the caller, for a caller that retries on its own budget (the Partner Print client does).
   */
  maxRetries?: number;
  /**
   * `false`: the scheduler does not listen to the request's signal, for a caller whose request cannot be
   * aborted (no signal was given to it) — a listener per request costs more than most of the scheduler's work.
   * An abort of such a request then reaches only the fetch beneath. Default `true`.
   */
  watchSignal?: boolean;
  /**
   * The longest pause (ms from when it is queued) this request waits out in the queue: one whose buckets or
   * route are paused after a 429 until later leaves the queue at once, rejected with an error whose `code` is
   * `rate_limit_paused` (`isRateLimitPaused`), instead of waiting for a `Retry-After` (up to an hour) past its caller's
   * patience. Only a pause the scheduler knows of (see the README) is judged, never a wait for tokens. Default:
   * the scheduler's `maxPauseMs`, else every pause is waited out; a value that is not a number ≥ 0 is taken as
   * not given.
   */
  maxPauseMs?: number;
}

export type SchedulerRequestInit = RequestInit & { rateLimit?: RateLimitRequestOptions };

const MIN_PRIORITY = -10;
const MAX_PRIORITY = 10;

export type KeyOption = string | ((request: RequestInfoLite) => string | Promise<string>) | undefined;

/**
 * The budget key of a request: the option, or a SHA-256 of the secret key. The last secret and its hash
 * are kept, so a run of requests with one key hashes once and stays in order. The secret is only referenced
 * here (the caller holds it anyway); it never reaches the store, stats, events or errors.
 */
export function keyResolver(option: KeyOption): (info: RequestInfoLite) => string | Promise<string> {
  if (typeof option === 'string') return () => option;
  if (typeof option === 'function') return option;
  let lastSecret: string | undefined;
  let lastKey: Promise<string> | string | undefined;
  return (info) => {
    const secret = info.headers.get(V2_SECRET_KEY_HEADER);
    if (!secret) return 'anonymous';
    if (secret === lastSecret && lastKey !== undefined) return lastKey;
    const key = budgetKeyOf(secret).then((k) => {
      if (lastSecret === secret) lastKey = k;
      return k;
    });
    lastSecret = secret;
    lastKey = key;
    return key;
  };
}

/**
 * A request's priority: `init.rateLimit.priority`, else the priority header's value `raw` (null when the
 * request has none); clamped to -10..10.
 */
export function priorityOf(init: SchedulerRequestInit | undefined, raw: string | null): number {
  let p = init?.rateLimit?.priority;
  if (p === undefined && raw !== null && raw.trim() !== '') p = Number(raw);
  if (p === undefined || !Number.isFinite(p)) return 0;
  return Math.min(MAX_PRIORITY, Math.max(MIN_PRIORITY, Math.round(p)));
}

/** A request's 429 retries: its own `maxRetries` within the scheduler's. */
export function maxRetriesOf(init: SchedulerRequestInit | undefined, scheduler: number): number {
  const own = init?.rateLimit?.maxRetries;
  if (own === undefined || !(own >= 0)) return scheduler;
  return Math.min(scheduler, Math.floor(own));
}

/** The longest pause a request waits out: its own `maxPauseMs`, else the scheduler's (infinite: every pause). */
export function maxPauseOf(init: SchedulerRequestInit | undefined, scheduler: number): number {
  const own = init?.rateLimit?.maxPauseMs;
  return own === undefined || !(own >= 0) ? scheduler : own;
}

/**
 * `init` without the scheduler's own `rateLimit` member; undefined when nothing else is left and the Request
 * can go as it is. `marked`: the request carries the priority header, so it goes as a copy without it (an
 * empty init asks {@link attemptRequest} for that copy).
 */
export function requestInitOf(
  init: SchedulerRequestInit | undefined,
  marked: boolean,
): RequestInit | undefined {
  if (!init || !('rateLimit' in init)) return init ?? (marked ? {} : undefined);
  // `{ rateLimit }` alone (what a client wrapping the scheduler passes with every request): no copy.
  for (const key in init) if (key !== 'rateLimit') return withoutRateLimit(init);
  return marked ? {} : undefined;
}

function withoutRateLimit(init: SchedulerRequestInit): RequestInit {
  const { rateLimit: _ignored, ...rest } = init;
  return rest;
}

/**
 * The Request to send for an attempt. A Request passed alone is sent as it is: copying it (and its abort
 * signal) cost more than the rest of the scheduler's work per request. Only the priority header is removed,
 * from a copy (`entry.init` is then set, see {@link requestInitOf}). A body is read once and copied for each
 * attempt, since a retry needs a fresh one.
 */
export function attemptRequest(
  entry: Entry,
  priorityHeader: string | undefined,
  retries: boolean,
): Request | Promise<Request> {
  if (!entry.request) {
    const { input, init } = entry;
    const request = input instanceof Request && !init ? input : new Request(input ?? '', init);
    entry.input = undefined;
    entry.init = undefined;
    if (priorityHeader && request !== input) request.headers.delete(priorityHeader);
    entry.request = request;
    entry.body = null;
    // Without a body, the same Request can be sent again.
    if (!retries || !request.body) return request;
    return request.arrayBuffer().then((body) => {
      entry.body = body;
      return new Request(request, { body: body.slice(0) });
    });
  }
  if (entry.body) return new Request(entry.request, { body: entry.body.slice(0) });
  return entry.request;
}
