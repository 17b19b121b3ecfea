import type { RateLimitFields } from './parse.ts';

/** The shortest wait after a 429 whose Retry-After is 0, missing or malformed. */
export const BACKOFF_FLOOR_MS = 250;
const BACKOFF_CAP_MS = 30_000;
/** However long a Retry-After, a bucket is paused at most this long (a hostile or broken answer). */
const MAX_BUCKET_PAUSE_MS = 3_600_000;
/** A 429 without rate-limit fields pauses its route 1 s, then 2, 4, … up to this, whatever Retry-After says. */
const MAX_ROUTE_PAUSE_MS = 60_000;

/** What a 429 is about, and so what it pauses. */
export type Throttle =
  /** Buckets the answer reports empty (or all the request took, when it names none). */
  | { scope: 'buckets'; buckets: string[]; pauseMs: number; retryAfterMs: number | undefined }
  /** No rate-limit fields: only the route that got it. */
  | { scope: 'route'; pauseMs: number; retryAfterMs: number | undefined }
  /** Not about the rate limit (rendertokens, or buckets with tokens left): nothing is paused. */
  | { scope: 'none'; code: string | undefined };

export interface RetryPolicyOptions {
  maxRetryAfterMs: number;
  random: () => number;
}

/**
 * Decides what a 429 pauses and for how long, and whether its request is tried again. Backoff state is
 * kept per budget key and scope (a bucket, a route): 429s that arrive while their scope is already paused
 * belong to the same episode and do not lengthen it; a success ends the episode.
 */
export class RetryPolicy {
  readonly #episodes = new Map<string, { count: number; until: number }>();

  readonly #options: RetryPolicyOptions;

  constructor(options: RetryPolicyOptions) {
    this.#options = options;
  }

  /**
   * The n-th wait of an episode: exponential with full jitter over its upper half, from the floor —
   * 250–500 ms, 500–1000 ms, 1–2 s, … up to 30 s — so processes hit by one storm spread out.
   */
  #backoff(n: number): number {
    const base = Math.min(BACKOFF_CAP_MS / 2, BACKOFF_FLOOR_MS * 2 ** Math.max(0, n - 1));
    return base + this.#options.random() * base;
  }

  classify(
    parsed: RateLimitFields,
    code: string | undefined,
    taken: readonly string[],
    at: { key: string; route: string; now: number },
  ): Throttle {
    const retryAfterMs =
      parsed.retryAfterSeconds === undefined ? undefined : Math.round(parsed.retryAfterSeconds * 1000);
    if (code === 'rendertoken_limit_exceeded') return { scope: 'none', code };
    if (parsed.source === undefined) {
      const n = this.#episode(`${at.key}\nroute ${at.route}`, at.now);
      const bound = Math.min(MAX_ROUTE_PAUSE_MS, 1000 * 2 ** (n - 1));
      const pauseMs =
        retryAfterMs !== undefined && retryAfterMs >= BACKOFF_FLOOR_MS
          ? Math.min(retryAfterMs, bound)
          : this.#backoff(n);
      this.#extend(`${at.key}\nroute ${at.route}`, at.now + pauseMs);
      return { scope: 'route', pauseMs, retryAfterMs };
    }
    // Buckets with tokens left mean this 429 is not a rate limit.
    const buckets =
      parsed.limits.length === 0
        ? [...taken]
        : parsed.limits.filter((l) => l.remaining === 0).map((l) => l.name);
    if (buckets.length === 0) return { scope: 'none', code };
    const waitMs = retryAfterMs ?? resetMs(parsed, buckets);
    let n = 0;
    for (const name of buckets) n = Math.max(n, this.#episode(`${at.key}\n${name}`, at.now));
    const pauseMs =
      waitMs !== undefined && waitMs >= BACKOFF_FLOOR_MS
        ? Math.min(waitMs, MAX_BUCKET_PAUSE_MS)
        : this.#backoff(n);
    for (const name of buckets) this.#extend(`${at.key}\n${name}`, at.now + pauseMs);
    return { scope: 'buckets', buckets, pauseMs, retryAfterMs: waitMs };
  }

  /** Whether the request that got this 429 is queued again (at the front of its lane). */
  retries(throttle: Throttle, attempts: number, maxRetries: number): boolean {
    if (throttle.scope === 'none' || attempts > maxRetries) return false;
    return (throttle.retryAfterMs ?? 0) <= this.#options.maxRetryAfterMs;
  }

  /** A non-429 answer ends the episodes of the request's buckets and route. */
  succeeded(key: string, route: string, taken: readonly string[]): void {
    if (this.#episodes.size === 0) return;
    this.#episodes.delete(`${key}\nroute ${route}`);
    for (const name of taken) this.#episodes.delete(`${key}\n${name}`);
  }

  /** The episode's count after this 429: the same while its pause lasts, one more after it. */
  #episode(id: string, now: number): number {
    const e = this.#episodes.get(id);
    if (!e) {
      this.#episodes.set(id, { count: 1, until: now });
      return 1;
    }
    if (now >= e.until) e.count++;
    return e.count;
  }

  #extend(id: string, until: number): void {
    const e = this.#episodes.get(id);
    if (e && e.until < until) e.until = until;
  }
}

function resetMs(parsed: RateLimitFields, names: readonly string[]): number | undefined {
  let max: number | undefined;
  for (const l of parsed.limits) {
    if (names.includes(l.name) && l.resetSeconds !== undefined)
      max = Math.max(max ?? 0, l.resetSeconds * 1000);
  }
  return max;
}
