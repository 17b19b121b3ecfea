import * as TUNING from './tuning.ts';

/**
 * The local mirror of one server-side token bucket. The same arithmetic runs in the Redis store's Lua
 * script, with every constant from {@link TUNING}; a differential property test drives both stores with
 * the same random sequences and requires equal decisions and snapshots.
 *
 * - `level` estimates the server's balance minus our requests not yet reflected in a response. Every
 *   response's `r` (and `t` at `r=0`) bounds the server's balance; the level is corrected to the
 *   cautious end whenever it leaves those bounds (requests sent after the answered one are assumed
 *   unreflected).
 * - Requests of one client (one store instance) are sent in ticket order, but those of
 *   clients sharing a store are not: a ticket travels back to its process before the request is sent, and
 *   each answer comes back over its own connection. So for the answer to a ticket, every request of another
 *   client that was open when that ticket was taken may have reached the server after it, and is counted
 *   as possibly unreflected: those bounds widen downwards, and a correction goes to their cautious end.
 *   With one client (the memory store) nothing changes.
 * - `others` is the part of what the server spends that is not ours (other processes, other machines
 *   spending the same budget without a shared store), measured over windows of ~10 tokens or a second:
 *   the server spent refill + balance before − balance after, of which our requests in between were ours.
 * - `share` is the part of the refill we allow ourselves, steered like TCP's congestion window (AIMD):
 *   while the budget is shared and the server's balance is low (congestion), it is cut by a factor at
 *   most a few times per window; otherwise it grows by a fixed amount per second. Every sharer sees the
 *   same balance in its answers, so all cut together: cuts keep the ratio of two shares, increases close
 *   their gap, and the shares converge to equal parts (and to 1 for a process left alone) — unlike a
 *   share measured from what a process already got, which keeps whoever started first ahead.
 * - `tokens` is our claim: at most our share of the server's balance, refilled at our share of the rate,
 *   with our share of any surplus the server reports, so uncoordinated processes do not all spend the
 *   same spare tokens.
 * - While others are seen, a reserve of (others' rate × reserveSeconds) stays in the bucket: racing
 *   processes rarely empty it, and the server's `r` stays informative (at `r=0`, a whole-second `t` says
 *   little when tokens come every 50 ms).
 */
export interface BucketState {
  quota: number;
  windowSeconds: number;
  /** Estimated server balance minus our unreflected requests. */
  level: number;
  /** Our claim on `level`: what this store may still dispatch. */
  tokens: number;
  /** Time (ms) `level` and `tokens` were computed for. */
  at: number;
  /** The part (0..1] of the refill we allow ourselves (AIMD). */
  share: number;
  /** Measured part (0..1) of the server's consumption that is not ours. */
  others: number;
  /** Whether a window was measured yet (the first sample sets `share` and `others` at once). */
  sampled: boolean;
  /** Time of the last answer that reported this bucket's balance. */
  seenAt: number;
  /** Time of the last share increase step and of the last cut. */
  grownAt: number;
  cutAt: number;
  pausedUntil: number;
  /** Requests dispatched and not yet answered, in dispatch (ticket) order. */
  inflight: InFlight[];
  /** Takes so far, and refunds (429s) so far. */
  taken: number;
  refunded: number;
  /** Highest ticket whose response corrected the estimate; older responses carry staler counts. */
  lastTicket: number;
  /** True once a response described this bucket. */
  live: boolean;
  /** After a pause (a 429), one request probes the bucket until an answer describes it again. */
  probing: boolean;
  /** Start of the current measurement window: time, server balance, take count, refund count. */
  refAt: number;
  refBalance: number;
  refSeq: number;
  refRefunded: number;
  /** The refill rate the window started with: a policy change ends the window without a sample. */
  refRate: number;
  /**
   * Requests that were on the way when the window's first answer came (older than it): the server may
   * have counted them after that answer, so up to this many of the window's spending may be ours.
   */
  refSlack: number;
  /**
   * How fast others spent what our answers did not expect (tokens/s, from the last downward correction,
   * fading by half every 500 ms), and our round trip (ms, smoothed): together, what others may have on the
   * way to the server right now, kept back while it lasts (processes draining one full bucket at once).
   */
  unseenRate: number;
  unseenAt: number;
  rttMs: number;
  /**
   * The start pace (see {@link startFloor}): until `paceUntil` (ms; 0 when there is none), the server's
   * balance is kept above a line that falls from `paceLevel` to 0, so processes started together all find
   * part of the full bucket, however late their first requests reach the server.
   */
  paceUntil: number;
  paceLevel: number;
}

/** A request dispatched from a bucket and not yet answered. */
export interface InFlight {
  ticket: number;
  /** The bucket's count of takes at its dispatch. */
  seq: number;
  /** The client (store instance) that took it. */
  owner: string;
  /** Other clients' requests open when it was taken. */
  foreign: number;
}

export interface BucketObservation {
  name: string;
  quota?: number;
  windowSeconds?: number;
  remaining?: number;
  resetSeconds?: number;
  /** Pause the bucket for everyone until this time (ms), after a 429. */
  pauseUntil?: number;
  /** The request was refused (429): it spent no token of this bucket. */
  refund?: boolean;
  /** A response came without rate-limit fields: stop probing, keep the estimate from the defaults. */
  seen?: boolean;
  /** When the request was sent (ms): the server's balance is of a moment between this and now. */
  sentAt?: number;
  /** When its answer came (ms, the same clock as `sentAt`). */
  answeredAt?: number;
}

export function newBucket(quota: number, windowSeconds: number, now: number): BucketState {
  return {
    quota,
    windowSeconds,
    level: quota,
    tokens: quota,
    at: now,
    share: 1,
    others: 0,
    sampled: false,
    grownAt: now,
    cutAt: -1,
    seenAt: now,
    pausedUntil: 0,
    inflight: [],
    taken: 0,
    refunded: 0,
    lastTicket: -1,
    live: false,
    probing: false,
    refAt: -1,
    refBalance: 0,
    refSeq: 0,
    refRefunded: 0,
    refRate: quota / windowSeconds,
    refSlack: 0,
    unseenRate: 0,
    unseenAt: now,
    rttMs: 0,
    paceUntil: 0,
    paceLevel: 0,
  };
}

const rateOf = (b: BucketState): number => b.quota / b.windowSeconds;
const effectiveRate = (b: BucketState): number => rateOf(b) * b.share;
/** The refill others leave to the server's balance (measured). */
const levelRate = (b: BucketState): number => rateOf(b) * Math.max(TUNING.minShare, 1 - b.others);
/** What others spend, tokens per second (measured). */
export const foreignRate = (b: BucketState): number => rateOf(b) * b.others;
/** Below this server balance, a shared budget is congested: the sharers want more than the refill. */
export const congestionLevel = (b: BucketState): number =>
  Math.min(b.quota * TUNING.reserveQuotaPart, rateOf(b) * TUNING.reserveSeconds) + 1;
/** Kept back while others spend, so racing processes rarely empty the bucket. */
const reserveOf = (b: BucketState): number =>
  Math.min(b.quota * TUNING.reserveQuotaPart, foreignRate(b) * TUNING.reserveSeconds);
/** What others probably have on the way right now (a crowded start): real spending, whatever our claim. */
const onTheirWay = (b: BucketState, now: number): number =>
  Math.min(b.quota * TUNING.onTheirWayQuotaPart, unseenNow(b, now) * (b.rttMs / 1000));
/**
 * The start pace: the balance the server keeps at `now`, so that a full bucket found at the start is spent
 * over {@link paceMs} rather than by whoever's requests arrive first. Processes started together agree on
 * it (the quota at their first request, down to 0 at its end), so all of them find part of the bucket, even
 * those whose first requests reach the server hundreds of ms late. It lets the refill go from the start (a
 * full bucket would waste it); 0 once the pace is over.
 */
function startFloor(b: BucketState, now: number): number {
  if (now >= b.paceUntil) return 0;
  const sincePace = (rateOf(b) * Math.max(0, now - b.paceUntil + paceMs(b))) / 1000;
  return Math.max(0, Math.min(b.paceLevel * paceLeft(b, now), b.quota - freeOf(b) - sincePace));
}
/** What the pace lets go at once: a few calls in a row need not wait for it. */
const freeOf = (b: BucketState): number => Math.max(1, b.quota * TUNING.paceFreeQuotaPart);
const paceMs = (b: BucketState): number => Math.min(TUNING.startPaceMs, b.windowSeconds * 1000);
/**
 * The part of the paced balance still held back: from 1 to 0 along a smoothstep, so the pace lets tokens
 * go slowly at first (while late processes' first requests are still on their way) and slowly at the end
 * (a fast release that stops at once would leave the requests on the way to meet an empty bucket).
 */
function paceLeft(b: BucketState, now: number): number {
  if (now >= b.paceUntil) return 0;
  const x = Math.max(0, 1 - (b.paceUntil - now) / paceMs(b));
  return 1 - x * x * (3 - 2 * x);
}
/** When the start pace's floor comes down to `target` (the inverse of {@link startFloor}). */
function paceAt(b: BucketState, target: number): number {
  const start = b.paceUntil - paceMs(b);
  const linear = start + ((b.quota - freeOf(b) - target) / rateOf(b)) * 1000;
  // The smoothstep 3x² − 2x³ = y has x = 1/2 − sin(asin(1 − 2y) / 3) in [0, 1].
  const y = Math.min(1, Math.max(0, 1 - target / b.paceLevel));
  const smooth = start + paceMs(b) * (0.5 - Math.sin(Math.asin(1 - 2 * y) / 3));
  return Math.min(b.paceUntil, linear, smooth);
}
const unseenNow = (b: BucketState, now: number): number =>
  b.unseenRate * 0.5 ** (Math.max(0, now - b.unseenAt) / TUNING.unseenHalfLifeMs);

/**
 * The server's balance refills at the rate others leave (measured); our claim at our share (AIMD). The
 * first is an estimate of what is there, the second of what we may take of it.
 */
export function refill(b: BucketState, now: number): void {
  const cap = b.quota - b.inflight.length;
  if (now > b.at) {
    const dt = (now - b.at) / 1000;
    b.level = Math.min(cap, b.level + levelRate(b) * dt);
    // What the start pace lets go is refill too: our claim grows by our share of it.
    const paced = b.paceUntil > b.at ? b.share * (startFloor(b, b.at) - startFloor(b, now)) : 0;
    b.tokens = Math.min(b.level, b.tokens + effectiveRate(b) * dt + paced);
    b.at = now;
  }
  if (b.level > cap) b.level = cap;
  // Once measured alone (a process, or the clients of one store, with nobody outside spending), our claim
  // lags the level by at most what our share leaves, less a token for the precision of `r`. Without this
  // floor a gap opened once (a cautious cap while answers came reordered) would stay for good, tokens never
  // spent. While others spend, the claim is our part of the refill (AIMD) and the gap is theirs.
  if (b.sampled && b.others <= TUNING.sharedAbove) {
    const floor = b.level - (1 - b.share) * b.quota - 1;
    if (b.tokens < floor) b.tokens = floor;
  }
  if (b.tokens > b.level) b.tokens = b.level;
}

/** An estimate of the balance older than this (ms) may be checked by one request, whatever it says. */
const staleMs = (b: BucketState): number =>
  Math.max(TUNING.staleFloorMs, (b.windowSeconds * 1000) / TUNING.staleWindowParts);

/** When the bucket can give one token (ms); `now` if it can now. Call after {@link refill}. */
export function readyAt(b: BucketState, now: number): number {
  // Tokens of our share left unspent (the reserve held us back) entitle us to dig into the reserve, so a
  // process that keeps a reserve is never starved by one that does not (yet) see it.
  // What others have on the way is no reserve: it reaches the server whatever our claim.
  const reserve = Math.max(Math.max(0, reserveOf(b) - Math.max(0, b.tokens - 1)), onTheirWay(b, now));
  const claimAt = b.tokens >= 1 ? now : now + ((1 - b.tokens) / effectiveRate(b)) * 1000;
  const short = 1 + reserve - b.level;
  let levelAt = short > 0 ? now + (short / levelRate(b)) * 1000 : now;
  // The start pace's floor falls by itself: we may go when the level has risen to it or it has come down.
  const floor = startFloor(b, now);
  if (floor > reserve && 1 + floor - b.level > 0)
    levelAt = Math.max(
      levelAt,
      Math.min(now + ((1 + floor - b.level) / levelRate(b)) * 1000, paceAt(b, b.level - 1)),
    );
  // A low estimate that no answer has refreshed for a while: one request (none on the way) asks the server.
  if (b.live && b.inflight.length === 0) levelAt = Math.min(levelAt, b.seenAt + staleMs(b));
  return Math.max(claimAt, levelAt, b.pausedUntil, now);
}

/**
 * Takes one token from every bucket if all have one; otherwise returns the time to try again (infinite
 * while the first response of a bucket is awaited). `owner` names the client taking it (one per store
 * instance; the memory store has one).
 */
export function takeAll(
  buckets: readonly BucketState[],
  ticket: number,
  now: number,
  owner = '',
): { ok: true } | { ok: false; retryAt: number; pausedUntil: number } {
  let retryAt = now;
  let pausedUntil = 0;
  for (const b of buckets) {
    refill(b, now);
    // Until a response has described the bucket, one request at a time: the defaults may be stale
    // (policies change within a major version) and others may have spent the budget already. The wait
    // ends with that response, not at a time.
    if ((!b.live || b.probing) && b.inflight.length > 0) retryAt = Infinity;
    retryAt = Math.max(retryAt, readyAt(b, now));
    if (b.pausedUntil > pausedUntil) pausedUntil = b.pausedUntil;
  }
  if (retryAt > now) return { ok: false, retryAt, pausedUntil: pausedUntil > now ? pausedUntil : 0 };
  dispatch(buckets, ticket, owner);
  return TOOK;
}

/** takeAll's answer when the request may go: one object for all (its caller adds the ticket). */
const TOOK = { ok: true } as const;

/**
 * Records a request as on the way, without asking whether it may go: {@link takeAll} once it may, or a local
 * mirror of a request another store (a shared one) let go. Call after {@link refill}.
 */
export function dispatch(buckets: readonly BucketState[], ticket: number, owner = ''): void {
  for (const b of buckets) {
    b.tokens -= 1;
    b.level -= 1;
    b.taken += 1;
    let foreign = 0;
    for (const other of b.inflight) if (other.owner !== owner) foreign++;
    b.inflight.push({ ticket, seq: b.taken, owner, foreign });
  }
}

/** Removes a ticket (its response arrived, or it failed before one did) and returns it. */
export function settle(b: BucketState, ticket: number | undefined): InFlight | undefined {
  if (ticket === undefined) return undefined;
  const list = b.inflight;
  for (let i = 0; i < list.length; i++) {
    const found = list[i];
    if (found?.ticket !== ticket) continue;
    // Moved down in place: `splice` makes an array of what it removes, per answer.
    list.copyWithin(i, i + 1);
    list.pop();
    return found;
  }
  return undefined;
}

/** Applies what a response said about this bucket. `ticket` is the request that carried it, if known. */
export function observe(b: BucketState, ticket: number | undefined, o: BucketObservation, now: number): void {
  refill(b, now);
  const settled = settle(b, ticket);
  const seq = settled?.seq;
  // A 429 spent nothing at the server: the token taken for it is back.
  if (o.refund && seq !== undefined) {
    b.tokens += 1;
    b.level += 1;
    b.refunded += 1;
  }
  if (o.quota !== undefined && o.quota >= 0) b.quota = o.quota;
  if (o.windowSeconds !== undefined && o.windowSeconds > 0) b.windowSeconds = o.windowSeconds;
  if (o.pauseUntil !== undefined && o.pauseUntil > b.pausedUntil) b.pausedUntil = o.pauseUntil;
  refill(b, now);
  if (o.seen && !b.live) b.live = true;
  // While others spent during the pause, our estimate grew: after it, one request asks first.
  if (o.pauseUntil !== undefined) {
    b.probing = true;
    // A 429 is the strongest sign of congestion: halve at once, like TCP on a loss.
    if (o.refund && seq !== undefined && b.others > TUNING.sharedAbove) {
      b.share = Math.max(TUNING.minShare, b.share * TUNING.decreaseOn429);
      b.cutAt = now;
    }
  } else if (o.seen || (o.remaining !== undefined && !o.refund)) b.probing = false;
  if (o.remaining === undefined) return;
  if (ticket !== undefined) {
    // A response to an older request than one already applied carries a staler balance.
    if (ticket < b.lastTicket) return;
    b.lastTicket = ticket;
  }
  const previousSeen = b.seenAt;
  b.seenAt = now;
  if (o.sentAt !== undefined) {
    const rtt = Math.max(0, (o.answeredAt ?? now) - o.sentAt);
    b.rttMs = b.rttMs === 0 ? rtt : b.rttMs + (rtt - b.rttMs) * TUNING.rttWeight;
  }
  const way = onTheWay(b, ticket, settled);
  const first = !b.live;
  const before = b.level;
  const { lo, balance } = correctLevel(b, way, o.remaining, o.resetSeconds);
  if (first && o.sentAt !== undefined) startPace(b, o.sentAt, lo, now);
  else if (b.paceUntil > now) followPace(b, lo, now);
  noteUnseen(b, before - b.level - way.unsure, now - previousSeen, now);
  steerShare(b, lo, now);
  if (seq !== undefined) measure(b, seq, balance, { sentAt: o.sentAt ?? now, now: o.answeredAt ?? now }, way);
}

/**
 * The first answer starts the pace from our first request, on the line or below it: a process that joins
 * others already spending finds a balance well below, and keeps back no more than what is there.
 */
function startPace(b: BucketState, sentAt: number, lo: number, now: number): void {
  b.paceUntil = sentAt + paceMs(b);
  b.paceLevel = b.quota;
  if (lo < b.quota * TUNING.paceBelowQuotaPart) b.paceUntil = 0;
  else if (now < b.paceUntil) followPace(b, lo, now);
}

/**
 * A balance below the line (others spent ahead of it): the line drops to it and goes on to 0 from there.
 * Otherwise all would wait for the line to come down to the balance and then go at once, late in the pace,
 * when little is left.
 */
function followPace(b: BucketState, lo: number, now: number): void {
  if (startFloor(b, now) > lo) b.paceLevel = lo / paceLeft(b, now);
}

/** Requests on the way besides the answered one, as far as they matter for reading its balance. */
interface OnTheWay {
  /** Ours sent before it and still open: the server may count them after it. */
  older: number;
  /** Sent after it and still open: most likely not in its `r` yet. */
  newer: number;
  /**
   * Other clients' requests open when it was taken: they may have reached the server after it (even if
   * answered since), so maybe not in its `r` either. Always 0 with one client.
   */
  unsure: number;
}

function onTheWay(b: BucketState, ticket: number | undefined, settled: InFlight | undefined): OnTheWay {
  let older = 0;
  let newer = 0;
  for (const f of b.inflight) {
    if (ticket === undefined || f.ticket > ticket) newer++;
    else older++;
  }
  return { older, newer, unsure: settled?.foreign ?? 0 };
}

/**
 * Before the first measured window (later, the measured part of others keeps the reserve): a correction
 * down by `unseen` tokens (the caution for other clients of a shared store left out: it is not spending)
 * sets others' pace, read from the time between our answers or, when answers come closer together than
 * the clock tells apart, from our own requests on the way (our answers come that many per round trip, and
 * theirs with them).
 */
function noteUnseen(b: BucketState, unseen: number, sinceLastAnswer: number, now: number): void {
  if (b.sampled || unseen <= 1) return;
  const rate = Math.max(
    (unseen * 1000) / Math.max(1, sinceLastAnswer),
    b.rttMs > 0 ? (unseen * b.inflight.length * 1000) / b.rttMs : 0,
  );
  b.unseenRate = Math.max(rate, unseenNow(b, now));
  b.unseenAt = now;
}

/**
 * Corrects the level from an answer's balance (`r`, and `t` at `r=0`) and bounds our claim by it. Returns
 * the lower bound of the server's balance right after the request and its midpoint.
 */
function correctLevel(
  b: BucketState,
  { newer: after, unsure }: OnTheWay,
  remaining: number,
  reset: number | undefined,
): { lo: number; balance: number } {
  // The server's balance right after this request lies in [lo, hi).
  const rate = rateOf(b);
  let lo = remaining;
  let hi = remaining + 1;
  if (remaining === 0 && reset !== undefined && reset > 0) {
    lo = Math.max(0, 1 - reset * rate);
    hi = Number.isInteger(reset)
      ? Math.min(1, 1 - (reset - 1) * rate)
      : Math.min(1, lo + TUNING.fractionalResetWidth);
  }

  if (!b.live) {
    b.level = lo - after - unsure;
    b.tokens = b.level;
    b.live = true;
  } else {
    const predicted = b.level + after;
    if (predicted >= hi + TUNING.tolerance || predicted < lo - unsure - TUNING.tolerance) {
      const level = lo - after - unsure;
      // A surplus is shared: every process spending this budget sees it, each takes its part.
      if (level > b.level) b.tokens += (level - b.level) * b.share;
      b.level = level;
    }
  }
  // Our claim is at most our part of what the server holds, less what we have on the way.
  b.tokens = Math.min(b.tokens, b.level, lo * b.share - after - unsure);
  return { lo, balance: (lo + hi) / 2 };
}

/**
 * Measures others' part of the server's consumption over a window that ends with this answer: the
 * server spent refill + balance before − balance after, of which our requests in between were ours.
 * Measured from send to send: a late answer (a slow network, a virtual clock that jumped) must not read
 * as others spending the refill of the wait. Requests on the way at either end may have reached the server
 * in another order than they were sent (concurrent connections): at the window's start, older ones the
 * server counted after its first answer; at its end, newer ones it counted before this answer. Both would
 * read as someone else's spending, so up to that many tokens of the difference are taken to be ours (a
 * burst of concurrent requests, when this matters most, must not make a process alone think it shares).
 */
function measure(
  b: BucketState,
  seq: number,
  balance: number,
  time: { sentAt: number; now: number },
  { older, newer, unsure }: OnTheWay,
): void {
  const rate = rateOf(b);
  const at = time.sentAt;
  const elapsed = at - b.refAt;
  // The server counted this request somewhere between its sending and its answer: the refill of that
  // time is unknown too.
  const inTransit = (rate * Math.max(0, time.now - at)) / 1000;
  if (b.refAt < 0 || elapsed < 0 || b.refRate !== rate) {
    startWindow(b, at, balance, seq, older + unsure + inTransit);
    return;
  }
  const ours = seq - b.refSeq - (b.refunded - b.refRefunded);
  const spent = (rate * elapsed) / 1000 + b.refBalance - balance;
  // Reordering blurs a window by up to `slack` tokens: it must be long enough to see through that.
  const slack = b.refSlack + newer + unsure + inTransit;
  if (spent < Math.max(TUNING.windowTokens, 3 * slack) && elapsed < TUNING.windowMs) return;
  // A full bucket wastes refill, which would read as someone else's use: no sample when it may have
  // filled up during the window.
  if (b.refBalance + (rate * elapsed) / 1000 < b.quota - 1 && balance < b.quota - 1 && ours > 0) {
    // Within a token of rounding of `r`, or within what reordering can explain, nobody else spent anything.
    const excess = Math.max(0, spent - ours - 1);
    const others = excess <= slack ? 0 : excess;
    const measured = others / (ours + others);
    const sample = measured <= 1 - TUNING.aloneAbove ? 0 : Math.min(1 - TUNING.minShare, measured);
    // The first sample of a full window replaces the initial guess at once: the start, when every
    // process drains the same full bucket, is when a wrong share collides most.
    const weight = Math.min(1, (ours + others) / (b.sampled ? TUNING.tauTokens : TUNING.windowTokens));
    b.others += (sample - b.others) * weight;
    if (!b.sampled) b.share = Math.max(TUNING.minShare, 1 - sample);
    b.sampled = true;
  }
  startWindow(b, at, balance, seq, older + unsure + inTransit);
}

/**
 * AIMD on our share of the refill: cut (×decrease, at most once per cutEvery·w) while a shared budget is
 * congested, grow (+increasePerWindow per window) otherwise.
 */
function steerShare(b: BucketState, balance: number, now: number): void {
  const windowMs = b.windowSeconds * 1000;
  const elapsed = Math.max(0, now - b.grownAt);
  b.grownAt = now;
  if (b.others > TUNING.sharedAbove && balance < congestionLevel(b)) {
    if (b.cutAt < 0 || now - b.cutAt >= TUNING.cutEvery * windowMs) {
      b.share = Math.max(TUNING.minShare, b.share * TUNING.decrease);
      b.cutAt = now;
    }
    return;
  }
  b.share = Math.min(1, b.share + (TUNING.increasePerWindow * elapsed) / windowMs);
}

function startWindow(b: BucketState, now: number, balance: number, seq: number, slack: number): void {
  b.refAt = now;
  b.refSlack = slack;
  b.refBalance = balance;
  b.refSeq = seq;
  b.refRefunded = b.refunded;
  b.refRate = rateOf(b);
}
