import fc from 'fast-check';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../test-utils/redis-server.ts';
import type { BucketObservation } from '../src/bucket.ts';
import { RedisStore } from '../src/redis.ts';
import { type BucketRequest, type BucketSnapshot, MemoryStore, type RateLimitStore } from '../src/store.ts';
import * as TUNING from '../src/tuning.ts';

// The memory store and the Redis store are two implementations of one algorithm: driven through the
// public RateLimitStore interface with the same random sequences, every decision and every snapshot must
// be equal (relative tolerance 1e-9). A real redis-server on 127.0.0.1; without it this test fails.
let server: RedisServer;
let client: ReturnType<typeof createClient>;

beforeAll(async () => {
  server = await startRedisServer();
  client = createClient({ url: server.url });
  await client.connect();
}, 20_000);

afterAll(async () => {
  await client?.quit();
  await server?.stop();
});

const T0 = 1_800_000_000_000;
const KEYS = ['org-a', 'org-b'] as const;
const POLICIES: readonly BucketRequest[] = [
  { name: 'default', quota: 20, windowSeconds: 10 },
  { name: 'uploads', quota: 3, windowSeconds: 60 },
  { name: 'orders', quota: 5, windowSeconds: 1 },
];

type Op =
  | { kind: 'clock'; ms: number }
  /** Until the last refused take's `retryAt` (when it is finite). */
  | { kind: 'wait' }
  | { kind: 'take'; key: number; buckets: number[] }
  | {
      kind: 'observe';
      pick: number;
      /** Answers for the buckets the request took (in order), or for the buckets they name. */
      forTaken: boolean;
      answers: Answer[];
      noTicket: boolean;
      ticketOnly: boolean;
      again: boolean;
    }
  | { kind: 'snapshot' };

/**
 * What the server said about one bucket, relative to the clock (resolved when the op runs): `remaining`
 * as given, or (when absent and `others` is set) from a simulated server whose balance others spend too.
 */
interface Answer {
  bucket: number;
  others?: number;
  /** The policy the answer states: the bucket's usual one, none, or a changed one. */
  policy?: 'usual' | { quota: number; windowSeconds: number };
  remaining?: number;
  resetSeconds?: number;
  status: 'ok' | '429' | 'headerless';
  pauseMs: number;
  sentAgoMs?: number;
  answeredAgoMs?: number;
}

const answer: fc.Arbitrary<Answer> = fc.record(
  {
    bucket: fc.nat(POLICIES.length - 1),
    policy: fc.oneof(
      { weight: 6, arbitrary: fc.constant('usual' as const) },
      { weight: 3, arbitrary: fc.constant(undefined) },
      {
        weight: 1,
        arbitrary: fc.record({
          // q=0 too: the parser accepts it (a bucket the server shuts), and both stores then divide by a zero rate.
          quota: fc.integer({ min: 0, max: 40 }),
          windowSeconds: fc.constantFrom(1, 2, 10, 60),
        }),
      },
    ),
    remaining: fc.oneof(
      { weight: 1, arbitrary: fc.nat(40) },
      { weight: 4, arbitrary: fc.constant(undefined) },
    ),
    others: fc.option(fc.oneof(fc.constant(0), fc.nat(3)), { nil: undefined, freq: 4 }),
    resetSeconds: fc.option(fc.oneof(fc.nat(60), fc.double({ min: 0, max: 60, noNaN: true })), {
      nil: undefined,
    }),
    status: fc.constantFrom('ok', 'ok', 'ok', 'ok', '429', 'headerless'),
    pauseMs: fc.integer({ min: 0, max: 30_000 }),
    // nil 1 in 4 (answers of a failure-free transport always carry both; the store must cope without).
    sentAgoMs: fc.option(fc.integer({ min: 0, max: 2_000 }), { nil: undefined, freq: 4 }),
    answeredAgoMs: fc.option(fc.integer({ min: 0, max: 2_000 }), { nil: undefined, freq: 4 }),
  },
  { requiredKeys: ['bucket', 'status', 'pauseMs'] },
);

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('clock' as const),
      ms: fc.oneof(
        { weight: 8, arbitrary: fc.integer({ min: 0, max: 300 }) },
        { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 600_000 }) },
        { weight: 1, arbitrary: fc.integer({ min: -5_000, max: -1 }) },
      ),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('wait' as const) }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('take' as const),
      key: fc.nat(KEYS.length - 1),
      buckets: fc.uniqueArray(fc.nat(POLICIES.length - 1), { minLength: 1, maxLength: POLICIES.length }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('observe' as const),
      pick: fc.nat(),
      forTaken: fc.oneof(
        { weight: 4, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) },
      ),
      answers: fc.uniqueArray(answer, { minLength: 1, maxLength: 3, selector: (a) => a.bucket }),
      noTicket: fc.oneof(
        { weight: 9, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
      ticketOnly: fc.oneof(
        { weight: 9, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
      again: fc.oneof(
        { weight: 9, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('snapshot' as const) }) },
);

function policyOf(name: string): { quota: number; windowSeconds: number } {
  const p = POLICIES.find((q) => q.name === name) ?? POLICIES[0];
  return { quota: p?.quota ?? 20, windowSeconds: p?.windowSeconds ?? 10 };
}

const indexOf = (name: string): number => POLICIES.findIndex((p) => p.name === name);

interface Issued {
  at: number;
  key: string;
  ticket: number;
  names: string[];
}

/** A server's balance per key and bucket, which others spend too (for answers without a given `remaining`). */
class Server {
  private readonly buckets = new Map<
    string,
    { balance: number; at: number; quota: number; windowSeconds: number }
  >();

  answer(key: string, name: string, a: Answer, now: number): { remaining: number; resetSeconds: number } {
    const policy = typeof a.policy === 'object' ? a.policy : policyOf(name);
    let b = this.buckets.get(`${key}/${name}`);
    if (!b) {
      b = { balance: policy.quota, at: now, ...policy };
      this.buckets.set(`${key}/${name}`, b);
    }
    const rate = policy.quota / policy.windowSeconds;
    b.balance = Math.min(policy.quota, b.balance + (rate * Math.max(0, now - b.at)) / 1000);
    b.at = now;
    b.balance = Math.max(0, b.balance - (a.others ?? 0) - (a.status === '429' ? 0 : 1));
    return {
      remaining: Math.floor(b.balance),
      // A shut bucket (q=0) never refills: its `t` is the window, as a finite header value must be.
      resetSeconds: b.balance >= 1 ? 0 : rate > 0 ? Math.ceil((1 - b.balance) / rate) : policy.windowSeconds,
    };
  }
}

function observation(server: Server, key: string, a: Answer, now: number): BucketObservation {
  const name = POLICIES[a.bucket]?.name ?? 'default';
  if (a.status === 'headerless') return { name, seen: true };
  const policy = a.policy === 'usual' ? policyOf(name) : a.policy;
  const o: BucketObservation = { name };
  if (policy) {
    o.quota = policy.quota;
    o.windowSeconds = policy.windowSeconds;
  }
  if (a.remaining !== undefined) o.remaining = a.remaining;
  else if (a.others !== undefined) Object.assign(o, server.answer(key, name, a, now));
  if (a.resetSeconds !== undefined && a.others === undefined) o.resetSeconds = a.resetSeconds;
  if (a.sentAgoMs !== undefined) {
    o.sentAt = now - a.sentAgoMs;
    if (a.answeredAgoMs !== undefined) o.answeredAt = now - Math.min(a.sentAgoMs, a.answeredAgoMs);
  }
  if (a.status === '429') {
    o.refund = true;
    o.pauseUntil = now + a.pauseMs;
  }
  return o;
}

const close = (a: number, b: number): boolean =>
  a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

function sameSnapshot(a: Record<string, BucketSnapshot>, b: Record<string, BucketSnapshot>): boolean {
  const names = Object.keys(a).sort();
  if (names.join() !== Object.keys(b).sort().join()) return false;
  for (const name of names) {
    const x = a[name] as unknown as Record<string, number | boolean>;
    const y = b[name] as unknown as Record<string, number | boolean>;
    for (const field of Object.keys(x)) {
      const u = x[field];
      const v = y[field];
      if (typeof u === 'number' && typeof v === 'number' ? !close(u, v) : u !== v) return false;
    }
  }
  return true;
}

/** Runs one sequence on both stores; returns the first difference, or undefined. */
async function differ(
  ops: readonly Op[],
  memory: RateLimitStore,
  redis: RateLimitStore,
): Promise<string | undefined> {
  let now = T0;
  const issued: Issued[] = [];
  const answered: Issued[] = [];
  const server = new Server();
  let lastKey: string = KEYS[0];
  let retryAt = now;
  for (const [i, o] of ops.entries()) {
    if (o.kind === 'clock') now += o.ms;
    else if (o.kind === 'wait') now = Number.isFinite(retryAt) ? Math.max(now, retryAt) : now;
    else if (o.kind === 'take') {
      const key = KEYS[o.key] ?? 'org-a';
      lastKey = key;
      const buckets = o.buckets.map((b) => POLICIES[b] as BucketRequest);
      const [m, r] = [await memory.take(key, buckets, now), await redis.take(key, buckets, now)];
      const same =
        m.ok && r.ok
          ? m.ticket === r.ticket
          : !m.ok && !r.ok && close(m.retryAt, r.retryAt) && close(m.pausedUntil ?? -1, r.pausedUntil ?? -2);
      if (!same) return `op ${i} take: memory ${JSON.stringify(m)} redis ${JSON.stringify(r)}`;
      if (!m.ok) retryAt = m.retryAt;
      if (m.ok) issued.push({ at: now, key, ticket: m.ticket, names: buckets.map((b) => b.name) });
    } else if (o.kind === 'observe') {
      // Mostly a request on the way; sometimes one answered before (a duplicate or stale answer).
      const from = o.again && answered.length > 0 ? answered : issued;
      const index = o.pick % Math.max(1, from.length);
      const target = from === issued ? issued.splice(index, 1)[0] : from[index];
      if (target && from === issued) answered.push(target);
      const key = target?.key ?? 'org-a';
      lastKey = key;
      const ticket = o.noTicket ? undefined : target?.ticket;
      const taken = target?.names ?? [];
      // Answers for what the request took are timed as it was: sent when taken, answered now.
      const timed = target ? { sentAgoMs: now - target.at, answeredAgoMs: 0 } : {};
      const answers = o.forTaken
        ? taken.map((name, i) => ({
            ...(o.answers[i % o.answers.length] as Answer),
            bucket: indexOf(name),
            ...timed,
          }))
        : o.answers;
      const observations = o.ticketOnly ? [] : answers.map((a) => observation(server, key, a, now));
      await memory.observe(key, ticket, taken, observations, now);
      await redis.observe(key, ticket, taken, observations, now);
    }
    const looked = o.kind === 'snapshot' ? KEYS : o.kind === 'clock' ? [] : [lastKey];
    for (const k of looked) {
      const [m, r] = [await memory.snapshot(k, now), await redis.snapshot(k, now)];
      if (!sameSnapshot(m, r))
        return `op ${i} snapshot ${k}:\nmemory ${JSON.stringify(m)}\nredis  ${JSON.stringify(r)}`;
    }
  }
  return undefined;
}

// The runs are split into shards that run at once: each run is a few hundred Redis round trips, one after
// another, so one shard mostly waits on the loopback; four overlap their waits (each run has its own keys).
const RUNS = Number(process.env.TWINS_RUNS ?? 80);
const SHARDS = 4;
let run = 0;

describe('MemoryStore and RedisStore decide alike', { timeout: 300_000 }, () => {
  it.concurrent.each(Array.from({ length: SHARDS }, (_, shard) => shard))(
    'every take, observation and snapshot of the same random sequence agrees (shard %i)',
    async (shard) => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 300, size: 'max' }), async (ops) => {
          run += 1;
          const redis = new RedisStore({ client, prefix: `twins${run}`, staleMs: 1e12 });
          const difference = await differ(ops, new MemoryStore(), redis);
          if (difference) throw new Error(difference);
        }),
        // The shards split the runs (the first takes what does not divide evenly).
        { numRuns: Math.floor(RUNS / SHARDS) + (shard === 0 ? RUNS % SHARDS : 0) },
      );
    },
  );
});

// Redis keys expire in real time (`ttlMs`, at least two windows per bucket); the memory store never forgets.
// A bucket with a long window must not lose, while its state lives, what the store keeps beside it: the
// ticket counter (a restarted count reads every answer as older than one applied, and ignores it) and the
// set of bucket names (a snapshot would leave the bucket out).
describe('MemoryStore and RedisStore agree while a long-window bucket outlives a short ttl', () => {
  const long: BucketRequest = { name: 'uploads', quota: 5, windowSeconds: 86_400 };
  const short: BucketRequest = { name: 'burst', quota: 10, windowSeconds: 0.02 };

  it('keeps counting tickets and naming the bucket after an idle time longer than ttlMs', async () => {
    const memory = new MemoryStore();
    const redis = new RedisStore({ client, prefix: 'twins-ttl', ttlMs: 50 });
    const both = async <R>(f: (s: RateLimitStore) => Promise<R>): Promise<[R, R]> => [
      await f(memory),
      await f(redis),
    ];
    let now = T0;
    const answer = (name: string, quota: number, windowSeconds: number, remaining: number, reset = 0) => ({
      name,
      quota,
      windowSeconds,
      remaining,
      resetSeconds: reset,
      sentAt: now,
      answeredAt: now,
    });
    for (const remaining of [4, 3]) {
      const [m, r] = await both((s) => s.take('org', [long], now));
      expect(m.ok).toBe(true);
      expect(r).toEqual(m);
      const ticket = m.ok ? m.ticket : undefined;
      await both((s) =>
        s.observe('org', ticket, ['uploads'], [answer('uploads', 5, 86_400, remaining)], now),
      );
      now += 10_000;
    }
    // A request of the short bucket alone: its keys may expire after 50 ms (two windows are less).
    const [m, r] = await both((s) => s.take('org', [short], now));
    expect(r).toEqual(m);
    await both((s) =>
      s.observe('org', m.ok ? m.ticket : undefined, ['burst'], [answer('burst', 10, 0.02, 9)], now),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    now += 60_000;

    const [ms, rs] = await both((s) => s.snapshot('org', now));
    expect(Object.keys(rs)).toContain('uploads');
    expect(
      sameSnapshot({ uploads: ms.uploads as BucketSnapshot }, { uploads: rs.uploads as BucketSnapshot }),
    ).toBe(true);
    // Another process spent the rest: the answer says so, and both stores stop taking.
    const [m2, r2] = await both((s) => s.take('org', [long], now));
    expect(r2).toEqual(m2);
    const ticket = m2.ok ? m2.ticket : undefined;
    await both((s) => s.observe('org', ticket, ['uploads'], [answer('uploads', 5, 86_400, 0, 3_600)], now));
    const [m3, r3] = await both((s) => s.take('org', [long], now));
    expect(m3.ok).toBe(false);
    expect(r3).toEqual(m3);
  });
});

// With `time: 'redis'` the arithmetic runs on Redis's clock, but the caller waits on its own: the times it
// passes (an answer's sentAt, a 429's pauseUntil) and those it gets back (retryAt, pausedUntil) are on its
// clock, so a host whose clock is off from Redis's waits as long as with the memory store, neither in a loop
// of refused takes (a retryAt already past) nor a skew longer.
describe("MemoryStore and RedisStore with time: 'redis' agree on a host whose clock is off", () => {
  const SKEW_MS = 60_000;
  // A token every minute, the next one 30 s away once the answers say the bucket is empty: a starved
  // process (pnpm test runs this file beside busy cores) may stop for a second or more between two calls,
  // which must not refill the bucket or make a retryAt on the caller's clock past.
  const bucket: BucketRequest = { name: 'default', quota: 5, windowSeconds: 300 };
  const RESET_S = 30;

  it('answers retryAt and pausedUntil on the caller clock', async () => {
    const memory = new MemoryStore();
    const redis = new RedisStore({ client, prefix: 'twins-time', time: 'redis' });
    const now = () => Date.now() + SKEW_MS;
    // Redis's clock moves on in real time between the two stores' calls, so their answers may differ by
    // the real time the calls took (measured, not assumed: a starved process may take seconds), never by
    // the skew.
    const started = performance.now();
    const near = (a: number, b: number) => Math.abs(a - b) <= performance.now() - started + 5;
    const answer = (remaining: number, at: number) => ({
      name: 'default',
      quota: 5,
      windowSeconds: 300,
      remaining,
      resetSeconds: remaining > 0 ? 0 : RESET_S,
      sentAt: at,
      answeredAt: at,
    });
    for (const store of [memory, redis]) {
      const at = now();
      const took = await store.take('org', [bucket], at);
      expect(took.ok).toBe(true);
      await store.observe('org', took.ok ? took.ticket : undefined, ['default'], [answer(0, at)], at);
    }
    const [m, r] = [await memory.take('org', [bucket], now()), await redis.take('org', [bucket], now())];
    expect(m.ok || r.ok).toBe(false);
    if (m.ok || r.ok) return;
    expect(r.retryAt).toBeGreaterThan(now());
    expect(near(r.retryAt, m.retryAt)).toBe(true);

    // A 429 pauses the bucket for 10 s from now, on the caller's clock.
    for (const store of [memory, redis]) {
      const at = now();
      await store.observe(
        'org',
        undefined,
        [],
        [{ ...answer(0, at), refund: true, pauseUntil: at + 10_000 }],
        at,
      );
    }
    const [ms, rs] = [await memory.snapshot('org', now()), await redis.snapshot('org', now())];
    expect(near(rs.default?.pausedUntil ?? 0, ms.default?.pausedUntil ?? 0)).toBe(true);
    const [m2, r2] = [await memory.take('org', [bucket], now()), await redis.take('org', [bucket], now())];
    expect(m2.ok || r2.ok).toBe(false);
    if (m2.ok || r2.ok) return;
    expect(near(r2.retryAt, m2.retryAt)).toBe(true);
    // The pause's end, which the scheduler judges maxPauseMs by, on the caller's clock too.
    expect(r2.pausedUntil).toBeGreaterThan(now() + 5_000);
    expect(near(r2.pausedUntil ?? 0, m2.pausedUntil ?? 0)).toBe(true);
  });
});

describe('RedisStore passes its script every constant of the arithmetic', () => {
  // The script reads each constant from the table it is sent (tuning.ts, named one by one in redis.ts): a
  // name left out would be nil there, and only the branch that reads it would notice.
  it('sends tuning.ts whole, under its names', async () => {
    const sent: string[][] = [];
    const recorder = {
      scriptLoad: async () => 'sha',
      evalSha: async (_sha: string, options: { keys: string[]; arguments: string[] }) => {
        sent.push(options.arguments);
        throw new Error('recorded');
      },
      eval: async () => null,
      sMembers: async () => [],
    };
    await expect(new RedisStore({ client: recorder }).take('org', POLICIES, T0)).rejects.toThrow('recorded');
    expect(JSON.parse(sent[0]?.[4] ?? 'null')).toEqual({ ...TUNING });
  });
});
