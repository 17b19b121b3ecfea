/**
 * The constants of the bucket arithmetic: one home for both stores. `MemoryStore`'s arithmetic (bucket.ts)
 * reads them as `TUNING.<name>` from this module's namespace, which a bundler turns into the numbers
 * themselves; `RedisStore` (redis.ts) names each in the table it passes to its Lua script as JSON, under these
 * names (twins.test.ts fails on one left out). A bundle without the Redis store so carries neither the table
 * nor its names.
 */
/** A measurement sample counts fully after this many tokens spent at the server. */
export const tauTokens = 30;
/** A measurement window closes after this many tokens spent at the server, or `windowMs`. */
export const windowTokens = 10;
export const windowMs = 1000;
/** Tokens kept back per token/s others spend, so racing processes rarely collide. */
export const reserveSeconds = 0.25;
/** A sample of our part above this is measurement noise of a process alone: nobody else spent. */
export const aloneAbove = 0.97;
/** Slack (tokens) for timing differences before the level is corrected. */
export const tolerance = 0.25;
/** Never allow ourselves less than this share of the refill. */
export const minShare = 0.05;
/** Additive increase: share gained per policy window (0.5: from a third to all of it in 1.3 windows). */
export const increasePerWindow = 0.5;
/** Multiplicative decrease: the share kept at a cut. */
export const decrease = 0.6;
/** At most one cut per this fraction of the policy window. */
export const cutEvery = 0.05;
/** The budget counts as shared once others' measured part is above this. */
export const sharedAbove = 0.03;
/** The reserve and the congestion level are at most this part of the quota. */
export const reserveQuotaPart = 0.05;
/** What others have on the way is held back up to this part of the quota. */
export const onTheirWayQuotaPart = 0.5;
/** Others' unexpected spending pace fades by half every this many ms. */
export const unseenHalfLifeMs = 500;
/** Weight of a new round trip in the smoothed one. */
export const rttWeight = 0.2;
/** An estimate older than max(staleFloorMs, window / staleWindowParts) may be checked by one request. */
export const staleFloorMs = 250;
export const staleWindowParts = 24;
/** The share kept at a 429 while others spend (a loss, as in TCP). */
export const decreaseOn429 = 0.5;
/** Width (tokens) of the balance a fractional `t` at `r=0` leaves open. */
export const fractionalResetWidth = 0.05;
/** A full bucket found at the start is spent over this long (ms) from the first request, or a window. */
export const startPaceMs = 6000;
/** This part of the quota (at least a token) goes at once. */
export const paceFreeQuotaPart = 0.02;
/** A first balance below this part of the quota is no fresh bucket (others spend it already): no pace. */
export const paceBelowQuotaPart = 0.75;
