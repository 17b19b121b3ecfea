/**
 * The local mirror of one server-side token bucket. The same arithmetic runs in the Redis store's Lua
 * script (src/redis-script.ts); keep the two in step.
 *
 * `tokens` is what may still be dispatched: the estimated server balance minus the requests sent but not
 * yet reflected in any response. The server's `r` bounds it from above and below on every response, and
 * what the server spent beyond our own requests (other processes sharing the budget) is learned as a
 * `foreign` rate that is subtracted from the refill, so several uncoordinated processes converge on
 * shares that add up to the quota instead of each assuming the whole of it.
 */
export interface BucketState {
  quota: number;
  windowSeconds: number;
  tokens: number;
  /** Time (ms) `tokens` was computed for. */
  at: number;
  /** Estimated consumption of others, tokens per second. */
  foreign: number;
  pausedUntil: number;
  /** Tickets dispatched and not yet answered, in dispatch order. */
  inflight: number[];
  /** Highest ticket whose response corrected the estimate; older responses carry staler counts. */
  lastTicket: number;
  /** True once a response described this bucket. */
  live: boolean;
}

export interface BucketObservation {
  name: string;
  quota?: number;
  windowSeconds?: number;
  remaining?: number;
  resetSeconds?: number;
  /** Pause the bucket for everyone until this time (ms), after a 429. */
  pauseUntil?: number;
}

export const TUNING = {
  /** Time constant (s) of the foreign-consumption estimate. */
  tau: 2,
  /** Tokens kept back per token/s of foreign consumption, so racing processes rarely collide. */
  reserveSeconds: 0.1,
  /** Never assume less than this share of the refill for ourselves. */
  minShare: 0.05,
} as const;

export function newBucket(quota: number, windowSeconds: number, now: number): BucketState {
  return {
    quota,
    windowSeconds,
    tokens: quota,
    at: now,
    foreign: 0,
    pausedUntil: 0,
    inflight: [],
    lastTicket: -1,
    live: false,
  };
}

const rateOf = (b: BucketState): number => b.quota / b.windowSeconds;
const effectiveRate = (b: BucketState): number =>
  Math.max(rateOf(b) * TUNING.minShare, rateOf(b) - b.foreign);
const reserveOf = (b: BucketState): number => Math.min(b.quota * 0.05, b.foreign * TUNING.reserveSeconds);

export function refill(b: BucketState, now: number): void {
  const cap = b.quota - b.inflight.length;
  if (now > b.at && b.tokens < cap)
    b.tokens = Math.min(cap, b.tokens + (effectiveRate(b) * (now - b.at)) / 1000);
  else if (b.tokens > cap) b.tokens = cap;
  if (now > b.at) b.at = now;
}

/** When the bucket can give one token (ms); `now` if it can now. Call after {@link refill}. */
export function readyAt(b: BucketState, now: number): number {
  const need = 1 + reserveOf(b);
  const at = b.tokens >= need ? now : now + ((need - b.tokens) / effectiveRate(b)) * 1000;
  return Math.max(at, b.pausedUntil);
}

/** Takes one token from every bucket if all have one; otherwise returns the time to try again. */
export function takeAll(
  buckets: readonly BucketState[],
  ticket: number,
  now: number,
): { ok: true } | { ok: false; retryAt: number } {
  let retryAt = now;
  for (const b of buckets) {
    refill(b, now);
    retryAt = Math.max(retryAt, readyAt(b, now));
  }
  if (retryAt > now) return { ok: false, retryAt };
  for (const b of buckets) {
    b.tokens -= 1;
    b.inflight.push(ticket);
  }
  return { ok: true };
}

/** Removes a ticket (its response arrived, or it failed before one did). */
export function settle(b: BucketState, ticket: number | undefined): void {
  if (ticket === undefined) return;
  const i = b.inflight.indexOf(ticket);
  if (i !== -1) b.inflight.splice(i, 1);
}

/** Applies what a response said about this bucket. `ticket` is the request that carried it, if known. */
export function observe(b: BucketState, ticket: number | undefined, o: BucketObservation, now: number): void {
  refill(b, now);
  settle(b, ticket);
  if (o.quota !== undefined && o.quota >= 0) b.quota = o.quota;
  if (o.windowSeconds !== undefined && o.windowSeconds > 0) b.windowSeconds = o.windowSeconds;
  if (o.pauseUntil !== undefined && o.pauseUntil > b.pausedUntil) b.pausedUntil = o.pauseUntil;
  if (b.tokens > b.quota - b.inflight.length) b.tokens = b.quota - b.inflight.length;
  if (o.remaining === undefined) return;
  const t = ticket ?? b.lastTicket + 1;
  if (t < b.lastTicket) return;
  b.lastTicket = t;

  // Requests sent after this one and still open are not in its `r` yet.
  let unreflected = 0;
  for (const other of b.inflight) if (ticket === undefined || other > ticket) unreflected++;

  // The server's balance right after this request lies in [lo, hi).
  const rate = rateOf(b);
  let lo = o.remaining;
  let hi = o.remaining + 1;
  const reset = o.resetSeconds;
  if (o.remaining === 0 && reset !== undefined && reset > 0) {
    if (Number.isInteger(reset)) {
      lo = Math.max(0, 1 - reset * rate);
      hi = Math.min(1, 1 - (reset - 1) * rate);
    } else {
      const exact = Math.max(0, 1 - reset * rate);
      lo = exact;
      hi = Math.min(1, exact + 0.05);
    }
  }
  const predicted = b.tokens + unreflected;
  let balance = predicted;
  if (predicted >= hi || predicted < lo) {
    balance = (lo + hi) / 2;
    if (b.live) {
      const max = rate * (1 - TUNING.minShare);
      b.foreign = Math.min(max, Math.max(0, b.foreign + (predicted - balance) / TUNING.tau));
    }
  }
  b.tokens = balance - unreflected;
  b.live = true;
}
