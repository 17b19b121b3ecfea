import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../test-utils/redis-server.ts';
import { stallFreeUntil } from '../../../test-utils/stall.ts';
import { createTokenBucketApi } from '../bench/token-bucket-api.ts';
import { createScheduler, type RateLimitStore } from '../src/index.ts';
import { RedisStore } from '../src/redis.ts';
import { claimGap, virtualClock } from './helpers.ts';

// A real redis-server on 127.0.0.1 (tools/ci/install-redis.sh). Without it these tests fail, never skip.
let server: RedisServer;
const clients: ReturnType<typeof createClient>[] = [];

async function client(): Promise<ReturnType<typeof createClient>> {
  const c = createClient({ url: server.url });
  await c.connect();
  clients.push(c);
  return c;
}

beforeAll(async () => {
  server = await startRedisServer();
}, 20_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.quit()));
  await server?.stop();
});

const T0 = 1_800_000_000_000;
const spec = (name: string, quota: number, windowSeconds: number) => ({ name, quota, windowSeconds });

describe('RedisStore', { timeout: 30_000 }, () => {
  it('takes atomically from every bucket or none, and observes responses', async () => {
    const store = new RedisStore({ client: await client(), prefix: 'test1' });
    const first = await store.take('org', [spec('default', 10, 10), spec('uploads', 1, 60)], T0);
    expect(first).toEqual({ ok: true, ticket: 1 });
    // The buckets are not described yet: one request probes them.
    expect(await store.take('org', [spec('default', 10, 10)], T0)).toEqual({
      ok: false,
      retryAt: Number.POSITIVE_INFINITY,
      pausedUntil: 0,
    });
    await store.observe(
      'org',
      1,
      ['default', 'uploads'],
      [
        { name: 'default', quota: 10, windowSeconds: 10, remaining: 9, resetSeconds: 0 },
        { name: 'uploads', quota: 1, windowSeconds: 60, remaining: 0, resetSeconds: 60 },
      ],
      T0,
    );
    const blocked = await store.take('org', [spec('default', 10, 10), spec('uploads', 1, 60)], T0);
    expect(blocked.ok).toBe(false);
    expect(!blocked.ok && blocked.retryAt).toBeGreaterThanOrEqual(T0 + 59_000);
    // Nothing was taken from default by the refused take.
    const snapshot = await store.snapshot('org', T0);
    expect(snapshot.default).toMatchObject({ quota: 10, windowSeconds: 10, inflight: 0, live: true });
    expect(snapshot.default?.tokens).toBeCloseTo(9, 5);
    expect(await store.take('org', [spec('default', 10, 10)], T0)).toEqual({ ok: true, ticket: 2 });
    expect(await store.take('org', [spec('uploads', 1, 60)], T0 + 60_000)).toEqual({ ok: true, ticket: 3 });
  });

  it('pauses a bucket for everyone after a 429', async () => {
    const a = new RedisStore({ client: await client(), prefix: 'test2' });
    const b = new RedisStore({ client: await client(), prefix: 'test2' });
    await a.take('org', [spec('default', 100, 10)], T0);
    await a.observe('org', 1, ['default'], [{ name: 'default', remaining: 50, pauseUntil: T0 + 5000 }], T0);
    expect(await b.take('org', [spec('default', 100, 10)], T0 + 1000)).toEqual({
      ok: false,
      retryAt: T0 + 5000,
      // The pause's end, for the scheduler's maxPauseMs.
      pausedUntil: T0 + 5000,
    });
    expect((await b.take('org', [spec('default', 100, 10)], T0 + 5000)).ok).toBe(true);
  });

  it('runs the script again after SCRIPT FLUSH (EVALSHA falls back to EVAL)', async () => {
    const c = await client();
    const store = new RedisStore({ client: c, prefix: 'test3' });
    expect((await store.take('org', [spec('default', 5, 5)], T0)).ok).toBe(true);
    await c.scriptFlush();
    await store.observe('org', 1, ['default'], [{ name: 'default', remaining: 4, resetSeconds: 0 }], T0);
    expect((await store.take('org', [spec('default', 5, 5)], T0)).ok).toBe(true);
  });

  it('forgets a request whose answer never comes (a crashed process)', async () => {
    const store = new RedisStore({ client: await client(), prefix: 'test4', staleMs: 1000 });
    await store.take('org', [spec('default', 5, 5)], T0);
    expect((await store.snapshot('org', T0)).default?.inflight).toBe(1);
    expect((await store.snapshot('org', T0 + 2000)).default?.inflight).toBe(0);
  });

  it('can use Redis TIME instead of the caller clock', async () => {
    const store = new RedisStore({ client: await client(), prefix: 'test5', time: 'redis' });
    expect((await store.take('org', [spec('default', 5, 5)], 0)).ok).toBe(true);
    const snapshot = await store.snapshot('org', 0);
    expect(snapshot.default?.inflight).toBe(1);
  });

  it("counts another process's open request as maybe not in an answer (requests arrive in any order)", async () => {
    const a = new RedisStore({ client: await client(), prefix: 'test7' });
    const b = new RedisStore({ client: await client(), prefix: 'test7' });
    const d = [spec('default', 10, 10)];
    await a.take('org', d, T0);
    await a.observe(
      'org',
      1,
      ['default'],
      [{ name: 'default', quota: 10, windowSeconds: 10, remaining: 3 }],
      T0,
    );
    expect(await a.take('org', d, T0)).toEqual({ ok: true, ticket: 2 });
    expect(await b.take('org', d, T0)).toEqual({ ok: true, ticket: 3 });
    expect(await a.take('org', d, T0)).toEqual({ ok: true, ticket: 4 });
    // The server saw 3 first (r=2): 2 and 4 are not in it. Nothing is left for a fourth request.
    await b.observe('org', 3, ['default'], [{ name: 'default', remaining: 2, resetSeconds: 0 }], T0);
    expect(await b.take('org', d, T0)).toMatchObject({ ok: false });
    expect((await b.snapshot('org', T0)).default?.tokens).toBeCloseTo(0, 5);
  });

  it('lets the claim catch up with the level once the doubt is gone: no token stays unspent', async () => {
    const stores = {
      a: new RedisStore({ client: await client(), prefix: 'test9' }),
      b: new RedisStore({ client: await client(), prefix: 'test9' }),
    };
    const d = [spec('default', 120, 6)];
    const balance = await claimGap(
      {
        take: async (owner, now) => {
          const result = await stores[owner].take('org', d, now);
          return result.ok ? { ticket: result.ticket } : { retryAt: result.retryAt };
        },
        observe: (ticket, o, now) =>
          stores.a.observe(
            'org',
            ticket,
            ['default'],
            [{ name: 'default', quota: 120, windowSeconds: 6, ...o }],
            now,
          ),
      },
      T0,
    );
    expect(balance).toBeLessThanOrEqual(2);
  });

  it("starts soon after another process's first answer: the 5 processes waiting for it check the store every 50 ms and send at their first check after it", async () => {
    // Real time: the first request to a bucket goes alone (its defaults may be stale); the others wait for
    // its answer through the store. A fleet starting together lost a quarter second of the budget here. The
    // wait is counted, not timed (a starved process saw 150 ms pass): each waiting process's checks of the
    // store are timers of 50 ms (the README's figure), and none of them is refused once the first answer is
    // in the store, so none waits longer than one check for it, plus a round trip to Redis.
    const api = createTokenBucketApi({ policies: { default: { q: 120, w: 6 } } });
    let inStore = false;
    const takes: { process: number; afterAnswer: boolean; retryAt?: number }[] = [];
    const recorded = (process: number, store: RedisStore): RateLimitStore => ({
      take: async (key, buckets, now) => {
        const afterAnswer = inStore;
        const result = await store.take(key, buckets, now);
        takes.push({ process, afterAnswer, ...(result.ok ? {} : { retryAt: result.retryAt }) });
        return result;
      },
      observe: async (key, ticket, taken, observations, now) => {
        await store.observe(key, ticket, taken, observations, now);
        if (observations.length > 0) inStore = true;
      },
      snapshot: (key, now) => store.snapshot(key, now),
    });
    const fetch = async (request: Request): Promise<Response> => {
      await new Promise((r) => setTimeout(r, 30));
      return api.fetch(request);
    };
    const schedulers = await Promise.all(
      Array.from({ length: 6 }, async (_, i) =>
        createScheduler({
          fetch,
          key: 'organization-s',
          store: recorded(i, new RedisStore({ client: await client(), prefix: 'test10' })),
        }),
      ),
    );
    // The delays of the schedulers' own real timers (the checks of a process waiting for the first answer).
    const polls: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      callback: () => void,
      ms?: number,
      ...rest: unknown[]
    ) => {
      if (/schedulePoll/.test(new Error().stack ?? '')) polls.push(ms ?? 0);
      return realSetTimeout(callback, ms, ...rest);
    }) as typeof setTimeout);
    let results: Response[];
    try {
      results = await Promise.all(schedulers.map((s) => s.fetch('https://api.example/v2/orders')));
    } finally {
      spy.mockRestore();
    }
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(api.counts).toEqual({ ok: 6, limited: 0 });
    // One process sent first; the 5 others were refused while its answer was awaited (retryAt infinite), and
    // checked again; none was refused so once the answer was in the store. (A refusal with a finite retryAt
    // after it is the budget's pacing, a wait on the scheduler's clock, not this one: a starved process,
    // whose round trips looked slow, was paced for 41 ms there.)
    const awaiting = takes.filter((t) => t.retryAt === Number.POSITIVE_INFINITY);
    expect(new Set(awaiting.map((t) => t.process)).size).toBe(5);
    expect(awaiting.filter((t) => t.afterAnswer)).toEqual([]);
    expect(takes.filter((t) => t.retryAt === undefined)).toHaveLength(6);
    expect(polls.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...polls)).toBeLessThanOrEqual(50);
  });

  it('lets two schedulers (two connections) share one budget without 429s', async () => {
    const clock = virtualClock();
    const api = createTokenBucketApi({ policies: { default: { q: 10, w: 10 } }, now: clock.now });
    const make = async () =>
      createScheduler({
        fetch: api.fetch,
        clock,
        key: 'organization-a',
        store: new RedisStore({ client: await client(), prefix: 'test6' }),
      });
    const [one, two] = [await make(), await make()];
    const start = clock.now();
    const results = await Promise.all([
      ...Array.from({ length: 15 }, () => one.fetch('https://api.example/v2/orders')),
      ...Array.from({ length: 15 }, () => two.fetch('https://api.example/v2/claims')),
    ]);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(api.counts).toEqual({ ok: 30, limited: 0 });
    expect(clock.now() - start).toBeGreaterThanOrEqual(19_000);
  });
});

describe('RedisStore under faults (a real redis-server stopped and restarted)', () => {
  it('falls back to header learning when Redis stops, loses no request, and shares again when it is back', async () => {
    let redis = await startRedisServer();
    const c = createClient({
      url: redis.url,
      disableOfflineQueue: true,
      socket: { reconnectStrategy: () => 50, connectTimeout: 500 },
    });
    c.on('error', () => {});
    await c.connect();
    // Real time: 10 tokens/s, a full bucket of 20.
    const api = createTokenBucketApi({ policies: { default: { q: 20, w: 2 } } });
    const scheduler = createScheduler({
      fetch: api.fetch,
      key: 'organization-f',
      store: new RedisStore({ client: c, prefix: 'fault' }),
      storeTimeoutMs: 1000,
      storeRetryMs: 100,
    });
    const events: string[] = [];
    scheduler.on('store-down', () => events.push('down'));
    scheduler.on('store-up', () => events.push('up'));
    const outcomes: (number | string)[] = [];
    let phase = 'redis';
    const byPhase: Record<string, number> = {};
    const served = (p: string) => byPhase[p] ?? 0;
    // The phases end on what happened in them, not after a time (a process starved for a second served next
    // to nothing in a real 1.5 s): each waits for 6 answers, and the last for the store to be back too. A
    // wait gives up after 15 s in which this process could run (stalls are not counted), and the
    // assertions below then say what was missing.
    let running = true;
    const caller = async () => {
      while (running) {
        try {
          const response = await scheduler.fetch('https://api.example/v2/orders');
          outcomes.push(response.status);
          if (response.status === 200) byPhase[phase] = served(phase) + 1;
        } catch (error) {
          outcomes.push(String(error));
        }
      }
    };
    // Whatever fails, the client and the server (the one running now) end with the test: a failure left
    // redis-server running past the file.
    let shared: Awaited<ReturnType<RedisStore['snapshot']>>;
    try {
      const callers = Array.from({ length: 4 }, () => caller());
      await stallFreeUntil(() => served('redis') > 5, 15_000);
      phase = 'down';
      await redis.stop();
      await stallFreeUntil(() => served('down') > 5, 15_000);
      phase = 'back';
      redis = await startRedisServer(redis.port);
      await stallFreeUntil(() => served('back') > 5 && events.at(-1) === 'up', 15_000);
      running = false;
      await Promise.all(callers);
      const after = new RedisStore({ client: c, prefix: 'fault' });
      shared = await after.snapshot('organization-f', Date.now());
    } finally {
      running = false;
      c.destroy();
      await redis.stop();
    }

    // Nothing lost, nothing thrown: every call got its answer.
    expect(outcomes.filter((o) => o !== 200)).toEqual([]);
    // Down when Redis went, up again at the end (a reconnecting client may flap in between).
    expect(events[0]).toBe('down');
    expect(events.at(-1)).toBe('up');
    // Requests went on while Redis was away, and the budget lives in Redis again afterwards.
    expect(served('redis')).toBeGreaterThan(5);
    expect(served('down')).toBeGreaterThan(5);
    expect(served('back')).toBeGreaterThan(5);
    expect(shared.default?.live).toBe(true);
    expect(api.counts.limited).toBe(0);
  }, 120_000);
});
