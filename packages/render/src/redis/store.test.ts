import { createClient } from '@partner-print/client';
import { type Clock, systemClock } from '@partner-print/openapi/wire';
import { createSandbox } from '@partner-print/sandbox';
import { createClient as createRedisClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { drivenClock } from '../../../../test-utils/driven-clock.ts';
import { type RedisServer, startRedisServer } from '../../../../test-utils/redis-server.ts';
import { busy, stallFreeUntil } from '../../../../test-utils/stall.ts';
import { pngBytes, withLease } from '../../test/helpers.ts';
import { MemoryRenderStore, type RenderLease, type RenderStore, renderCacheKey } from '../cache.ts';
import type { RenderProgressEvent } from '../events.ts';
import { renderMockup } from '../render.ts';
import { RedisRenderStore, type RedisRenderStoreOptions } from './store.ts';

// A real redis-server on 127.0.0.1 and the sandbox on real time; each "worker" is its own client (the
// SDK deduplicates per client) with its own store and Redis connection, as separate processes would be.
// Without redis-server these tests fail, never skip.
let server: RedisServer;
const connections: ReturnType<typeof createRedisClient>[] = [];
const sandboxes: ReturnType<typeof createSandbox>[] = [];

beforeAll(async () => {
  server = await startRedisServer();
}, 20_000);
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.close();
  faults.length = 0;
});
afterAll(async () => {
  for (const c of connections) if (c.isOpen) c.destroy();
  await server?.stop();
});

/** The default lease, and the time between its heartbeats (a third of it): far past any stall of a process. */
const LEASE_MS = 30_000;
const HEARTBEAT_MS = LEASE_MS / 3;

/**
 * Moves `driven`, a store's clock, to its lease's next heartbeat: `asleep` once the heartbeat sleeps again
 * (its renewal answered, or failed), `lost` once `signal`, the lease's, aborted instead.
 */
function heartbeat(driven: ReturnType<typeof drivenClock>, signal?: AbortSignal): Promise<'asleep' | 'lost'> {
  const outcome = Promise.race([
    driven.nextSleep().then(() => 'asleep' as const),
    new Promise<'lost'>((resolve) =>
      signal?.addEventListener('abort', () => resolve('lost'), { once: true }),
    ),
  ]);
  driven.advance(HEARTBEAT_MS);
  return outcome;
}

/** `inner`, and the leases it handed out (`held`); `released` resolves once one of them has been released. */
function watched(inner: RedisRenderStore) {
  const held: Extract<RenderLease, { acquired: true }>[] = [];
  let done = () => {};
  const released = new Promise<void>((resolve) => {
    done = resolve;
  });
  const store = withLease(inner, async (key) => {
    const lease = await inner.lease(key);
    if (!lease.acquired) return lease;
    held.push(lease);
    return {
      ...lease,
      release: async () => {
        await lease.release();
        done();
      },
    };
  });
  return { store, held, released };
}

/** A direct connection, for looking at (and changing) the keys the stores share. */
async function direct() {
  const client = createRedisClient({ url: server.url });
  client.on('error', () => {});
  connections.push(client);
  await client.connect();
  return client;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Redis availability events of the stores made without an `onEvent` of their test's own. */
const faults: string[] = [];

/**
 * A store on its own connection, as a worker process has. The tests of sharing state what holds while Redis
 * answers: its commands get 5 s (the fleet test's figure), not the default 1 s, since on a loaded machine a
 * fresh connection's first command took longer once, and the store then (as documented) fell back to leasing
 * in process and both workers paid. Each of those tests also checks that no store saw Redis as unavailable.
 */
function store(prefix: string, options: Partial<RedisRenderStoreOptions> = {}, url = server.url) {
  const client = createRedisClient({ url, socket: { reconnectStrategy: 100 } });
  client.on('error', () => {});
  connections.push(client);
  // Not awaited: an unreachable server keeps connect() retrying; commands queue until it connects.
  client.connect().catch(() => {});
  return new RedisRenderStore({
    client,
    prefix,
    pollMs: 20,
    commandTimeoutMs: 5_000,
    onEvent: (e) => faults.push(`${prefix}: ${e.type}`),
    ...options,
  });
}

/** A sandbox, one image uploaded, and `worker()` to make a client of its own (a process of the fleet). */
async function world() {
  const sandbox = createSandbox({ rateLimits: false, jitter: 0, clock: 'real', renderProcessingMs: 50 });
  sandboxes.push(sandbox);
  /**
   * `hang`: its POST /renders answers when this settles (a rejection as the network's failure; a promise
   * resolving to a Response, that answer instead of the sandbox's); `onHang` is told when it is sent (the
   * lease is held by then).
   */
  const worker = (hang?: Promise<Response | undefined | never>, onHang?: () => void) =>
    createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      rateLimit: false,
      fetch: async (request: Request) => {
        if (!hang || request.method !== 'POST' || !request.url.endsWith('/renders'))
          return sandbox.fetch(request);
        onHang?.();
        return (await hang) ?? sandbox.fetch(request);
      },
    });
  const { seed } = sandbox;
  const image = await worker().uploadImage(pngBytes(7));
  const job = {
    sceneReference: seed.scenes.studio,
    productReference: seed.products.print,
    perspectiveReference: seed.perspectives.studioFront,
    image,
    pollIntervalMs: 20,
    checkCompatibility: false,
  };
  const used = async () => (await worker().get('/rendertokens')).rendertokens.used;
  return { worker, job, used, key: renderCacheKey(seed.compositions.available, image) };
}

const render = (
  client: ReturnType<typeof createClient>,
  job: Awaited<ReturnType<typeof world>>['job'],
  cache: RenderStore,
  events: RenderProgressEvent[] = [],
  signal?: AbortSignal,
) =>
  renderMockup(client, { ...job, cache, onProgress: (e) => events.push(e), ...(signal ? { signal } : {}) });

// The sandbox draws real PNGs: on a loaded machine a render takes seconds.
vi.setConfig({ testTimeout: 60_000 });

describe('RedisRenderStore', () => {
  it('two workers with in-process stores both pay for the same mockup', async () => {
    const { worker, job, used } = await world();
    const [a, b] = await Promise.all([
      render(worker(), job, new MemoryRenderStore()),
      render(worker(), job, new MemoryRenderStore()),
    ]);
    expect(a.tokensSpent + b.tokensSpent).toBe(2 * a.composition.tokenCost);
    expect(await used()).toBe(2 * a.composition.tokenCost);
  });

  it('lets two workers rendering the same mockup at once pay once: one holds the lease, the other waits', async () => {
    const { worker, job, used } = await world();
    const events: RenderProgressEvent[] = [];
    const [a, b] = await Promise.all([
      render(worker(), job, store('r1'), events),
      render(worker(), job, store('r1'), events),
    ]);
    expect(faults).toEqual([]);
    expect(await used()).toBe(a.composition.tokenCost);
    expect([a.tokensSpent, b.tokensSpent].sort()).toEqual([0, a.composition.tokenCost]);
    expect(a.render.reference).toBe(b.render.reference);
    expect(events.filter((e) => e.type === 'submitted')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'leased-elsewhere')).toHaveLength(1);
  });

  it('pays once through a Redis stall shorter than commandTimeoutMs', async () => {
    // The CI failure this reproduces: Redis answered a fresh connection's first command after more than the
    // default 1 s on a loaded machine, both stores fell back to in-process leases, and both workers paid.
    // A stall within the deadline only delays the lease. Past it, the store falls back as documented (the
    // test with Redis unreachable from the start, and the fleet's with Redis killed mid-run).
    const { worker, job, used } = await world();
    const stalled = server.pause(1_500);
    const [a, b] = await Promise.all([
      render(worker(), job, store('r8')),
      render(worker(), job, store('r8')),
    ]);
    await stalled;
    expect(faults).toEqual([]);
    expect(await used()).toBe(a.composition.tokenCost);
    expect([a.tokensSpent, b.tokensSpent].sort()).toEqual([0, a.composition.tokenCost]);
  });

  it('pays once when a worker stalls right after asking for the lease (a busy process is not a Redis outage)', async () => {
    // Before: with Redis healthy, a synchronous task longer than commandTimeoutMs right after the lease command
    // was sent (the sandbox drawing a PNG, a partner's own work) fired the deadline before the reply was read:
    // redis-unavailable, an in-process lease, and both workers paid.
    const { worker, job, used } = await world();
    // The first lease asked for stalls the process 1.5 × the deadline (the other worker's lease, asked for
    // before or after it, waits out the same stall): the deadline starts again after a stall, once, and the
    // reply must then be read within that second window. Windows of 200 ms (with a 500 ms stall) and of 1 s
    // (with two stalls of 1.5 s, one per worker) were each missed once beside other work (redis-unavailable);
    // a 2 s window survives a further stall of the process or of Redis of up to 2 s.
    let stalls = 1;
    const stalling = (inner: RedisRenderStore): RenderStore =>
      withLease(inner, (key) => {
        const asked = inner.lease(key);
        if (stalls-- > 0) busy(3_000);
        return asked;
      });
    const [a, b] = await Promise.all([
      render(worker(), job, stalling(store('r10', { commandTimeoutMs: 2_000 }))),
      render(worker(), job, stalling(store('r10', { commandTimeoutMs: 2_000 }))),
    ]);
    expect(faults).toEqual([]);
    expect(await used()).toBe(a.composition.tokenCost);
    expect([a.tokensSpent, b.tokensSpent].sort()).toEqual([0, a.composition.tokenCost]);
  });

  it('does not pay again when another worker stored the render between its look and its lease', async () => {
    // The race of the fleet test under load (86 POST /renders for 50 mockups): B looks (nothing yet), A
    // leases, submits, stores and releases, then B's lease is free and B submitted again.
    const { worker, job, used } = await world();
    const a = await render(worker(), job, store('r9'));
    const shared = store('r9');
    let looks = 0;
    const racing: RenderStore = {
      get: async (key) => (looks++ === 0 ? undefined : shared.get(key)),
      set: (key, value) => shared.set(key, value),
      delete: (key) => shared.delete(key),
      lease: (key) => shared.lease(key),
    };
    const b = await render(worker(), job, racing);
    expect(faults).toEqual([]);
    expect(b.tokensSpent).toBe(0);
    expect(b.render.reference).toBe(a.render.reference);
    expect(await used()).toBe(a.composition.tokenCost);
  });

  // A stored reference the service no longer knows (its poll answers 404): every worker that found it paid for
  // a new render (the fresh render neither looked in the store again nor took the lease).
  it('pays once across workers for a stored reference the service no longer knows', async () => {
    const { worker, job, used, key } = await world();
    const stale = 'Render_0000000000000000000000000X';
    await store('r13').set(key, stale);
    const events: RenderProgressEvent[] = [];
    const [a, b, c] = await Promise.all([
      render(worker(), job, store('r13'), events),
      render(worker(), job, store('r13'), events),
      render(worker(), job, store('r13'), events),
    ]);
    expect(faults).toEqual([]);
    expect(a.render.reference).not.toBe(stale);
    expect([b.render.reference, c.render.reference]).toEqual([a.render.reference, a.render.reference]);
    expect(a.tokensSpent + b.tokensSpent + c.tokensSpent).toBe(a.composition.tokenCost);
    expect(await used()).toBe(a.composition.tokenCost);
    expect(events.filter((e) => e.type === 'submitted')).toHaveLength(1);
    expect(await store('r13').get(key)).toBe(a.render.reference);
  });

  it("takes over a dead worker's lease once it expires, and pays once", async () => {
    const { worker, job, used } = await world();
    // Worker A dies inside its POST /renders: its request never reaches the service, its lease stays.
    const dead = new AbortController();
    let posting = () => {};
    const posted = new Promise<void>((resolve) => {
      posting = resolve;
    });
    let die: (error: Error) => void = () => {};
    const hang = new Promise<never>((_, reject) => {
      die = reject;
    });
    const dying = render(
      worker(hang, () => posting()),
      job,
      store('r2', { onEvent: () => {} }),
      [],
      dead.signal,
    );
    const link = connections.at(-1);
    dying.catch(() => {});
    // Once A's POST is out it holds the lease (a fixed 100 ms wait let B come first on a loaded machine:
    // B then never saw the lease held elsewhere). Then A dies: its connection goes, its lease is not renewed.
    // The lease lasts the default 30 s, and runs out when B has found it held: the test expires it (a 400 ms
    // lease could run out by itself before B first looked, in a stall of the test).
    await posted;
    const redis = await direct();
    const [lease] = await redis.keys('r2:*:lease');
    link?.destroy();
    const events: RenderProgressEvent[] = [];
    // B's POSTs, each with whether A's lease had run out when it was sent: B waits for it.
    const posts: boolean[] = [];
    let expired = false;
    const taking = render(
      worker(Promise.resolve(undefined), () => posts.push(expired)),
      job,
      store('r2'),
      events,
    );
    await stallFreeUntil(() => events.some((e) => e.type === 'leased-elsewhere'), 10_000);
    expect(events.map((e) => e.type)).toContain('leased-elsewhere');
    await sleep(100); // B's tries, every 20 ms, find the lease held
    expired = true;
    expect(await redis.del(lease as string)).toBe(1);
    const b = await taking;
    expect(posts).toEqual([true]);
    expect(faults).toEqual([]);
    expect(b.tokensSpent).toBe(b.composition.tokenCost);
    expect(await used()).toBe(b.composition.tokenCost);
    dead.abort();
    // Its POST ends as a dead process's connection does: else the client would wait out its timeout and
    // go on after the test (its POST cannot be aborted), beside the next file in the worker.
    die(new Error('the worker died'));
    await dying.catch(() => {});
  });

  it("does not let a late release free the next holder's lease", async () => {
    // a's lease must outlast the next two calls on a loaded machine (200 ms and 1 s leases were at risk: a
    // stall of the test before b's first try let b take it at once), and run out before b's next try: it
    // lasts the default 30 s, and its expiry is the test's doing, as a worker stalled past it would see.
    const redis = await direct();
    const a = store('r3');
    const b = store('r3');
    const c = store('r3');
    const first = await a.lease('k');
    expect(first.acquired).toBe(true);
    expect(await b.lease('k')).toEqual({ acquired: false, retryMs: 20 });
    // a's worker stalls: its lease is not renewed and runs out.
    expect(await redis.del('r3:k:lease')).toBe(1);
    const second = await b.lease('k');
    expect(second.acquired).toBe(true);
    if (first.acquired) await first.release(); // a wakes up and releases: b's lease must stay
    expect((await c.lease('k')).acquired).toBe(false);
    if (second.acquired) await second.release();
    const third = await c.lease('k');
    expect(third.acquired).toBe(true);
    if (third.acquired) await third.release(); // its heartbeat must not outlive the file
    expect(faults).toEqual([]);
  });

  it.each([
    ['completes', 'ok'],
    ['fails', 'fail'],
    ['is aborted', 'abort'],
    ['times out', 'timeout'],
  ] as const)(
    'renews the lease while its POST is held, and stops renewing when the render %s',
    async (_, path) => {
      const { worker, job, used } = await world();
      // The lease lasts the default 30 s on a clock the test moves (a 300 ms to 2 s lease was lost by a process
      // stalled over 2/3 of it, beside the checks of what ships): the heartbeats come when the test says, and
      // the time between them passes for the key in Redis as the test cuts its TTL.
      const driven = drivenClock();
      const redis = await direct();
      let posting = () => {};
      const posted = new Promise<void>((resolve) => {
        posting = resolve;
      });
      let answer: (response: Response | undefined) => void = () => {};
      const hang = new Promise<Response | undefined>((resolve) => {
        answer = resolve;
      });
      const stop = new AbortController();
      // Timing out: the deadline passes while the POST is held, on a clock the test sets ahead once the POST
      // is out (a 700 ms timeout ran out before the POST was sent in a stall, and the test waited for it).
      let ahead = 0;
      const late: Clock = { now: () => Date.now() + ahead, sleep: systemClock.sleep };
      const cache = watched(store(`r5${path}`, { clock: driven.clock }));
      const holder = renderMockup(
        worker(hang, () => posting()),
        {
          ...job,
          cache: cache.store,
          ...(path === 'abort' ? { signal: stop.signal } : {}),
          ...(path === 'timeout' ? { timeoutMs: 60_000, clock: late } : {}),
        },
      );
      holder.catch(() => {});
      await posted;
      const [lease] = await redis.keys(`r5${path}:*:lease`);
      expect(lease).toBeDefined();
      if (path === 'abort') stop.abort();
      if (path === 'timeout') ahead = 120_000;
      // A lease's length of the store's time, three heartbeats: before each, a heartbeat's time passes for
      // the key (the test cuts its TTL to two), and each renewal puts it back to the whole lease.
      for (let i = 0; i < 3; i++) {
        await redis.pExpire(lease as string, 2 * HEARTBEAT_MS);
        expect(await heartbeat(driven, cache.held[0]?.signal)).toBe('asleep');
        expect(await redis.pTTL(lease as string)).toBeGreaterThan(2 * HEARTBEAT_MS);
      }
      answer(
        path === 'fail'
          ? Response.json(
              { error: { code: 'validation_error', message: 'refused' } },
              { status: 422, headers: { 'x-request-id': 'r5' } },
            )
          : undefined,
      );
      const outcome = await holder.then(
        (r) => r.tokensSpent,
        (error: Error) => error.name,
      );
      expect(outcome).toBe(
        path === 'ok'
          ? 1
          : path === 'abort'
            ? 'AbortError'
            : path === 'timeout'
              ? 'RenderTimeoutError'
              : outcome,
      );
      if (path === 'fail') expect(outcome).not.toBe(1);
      // The POST sent finishes even when its caller has gone; then the lease is released and no sleep is left.
      await cache.released;
      expect(await redis.exists(lease as string)).toBe(0);
      expect(driven.sleeping()).toBe(0);
      expect(cache.held).toHaveLength(1);
      expect(await used()).toBe(path === 'fail' ? 0 : 1);
      expect(faults).toEqual([]);
    },
  );

  it('tells the holder it lost a lease that expired, and does not take it back from the next holder', async () => {
    // The default 30 s lease on a clock the test moves (a 1 s one expired in a stall of the test's process
    // before its first renewal, or was not renewed in the second the test gave it to notice the loss).
    const redis = await direct();
    const driven = drivenClock();
    const a = store('r6', { clock: driven.clock });
    const held = await a.lease('k');
    if (!held.acquired) throw new Error('not acquired');
    // Renewed past its first expiry: a heartbeat's time passes for the key before each of three heartbeats.
    for (let i = 0; i < 3; i++) {
      await redis.pExpire('r6:k:lease', 2 * HEARTBEAT_MS);
      expect(await heartbeat(driven, held.signal)).toBe('asleep');
      expect(await redis.pTTL('r6:k:lease')).toBeGreaterThan(2 * HEARTBEAT_MS);
    }
    expect(held.signal?.aborted).toBe(false);
    // a's process stalls past leaseMs (its lease expires) and another worker takes the lease, for longer.
    await redis.set('r6:k:lease', 'another worker', { PX: 4 * LEASE_MS });
    expect(await heartbeat(driven, held.signal)).toBe('lost'); // the next renewal finds the lease another's
    expect(held.signal?.aborted).toBe(true);
    expect(await redis.get('r6:k:lease')).toBe('another worker');
    expect(await redis.pTTL('r6:k:lease')).toBeGreaterThan(LEASE_MS); // not cut to this store's leaseMs
    await held.release();
    expect(await redis.get('r6:k:lease')).toBe('another worker');
    expect(driven.sleeping()).toBe(0);
    expect(faults).toEqual([]);
  });

  it('sends no POST after losing the lease, and records the reference of a POST sent only where none is known', async () => {
    // The holders' leases last the default 30 s on clocks the test moves: each is lost when the test has
    // another worker take it and then moves the clock to its next renewal, never by a stall of the process
    // (600 ms leases were, beside the checks of what ships; and a sleep of 600 ms did not always see a renewal).
    const { worker, job, used } = await world();
    const redis = await direct();
    let posting = () => {};
    const posted = new Promise<void>((resolve) => {
      posting = resolve;
    });
    let answer: (response: Response | undefined) => void = () => {};
    const hang = new Promise<Response | undefined>((resolve) => {
      answer = resolve;
    });
    const events: RenderProgressEvent[] = [];
    const driven = drivenClock();
    const holding = watched(store('r7', { clock: driven.clock }));
    const holder = render(
      worker(hang, () => posting()),
      job,
      holding.store,
      events,
    );
    await posted;
    const [lease] = await redis.keys('r7:*:lease');
    // The lease expires under the POST (a stall) and another worker takes it, and stores its reference.
    await redis.set(lease as string, 'another worker', { PX: 4 * LEASE_MS });
    const reference = (lease as string).slice('r7:'.length, -':lease'.length);
    const other = 'Render_AnotherWorkerStoredThisOne';
    await redis.set(`r7:${reference}`, other);
    expect(await heartbeat(driven, holding.held[0]?.signal)).toBe('lost');
    answer(undefined);
    const a = await holder;
    expect(a.tokensSpent).toBe(a.composition.tokenCost);
    expect(await redis.get(`r7:${reference}`)).toBe(other);
    expect(events.filter((e) => e.type === 'warning').map((e) => e.type === 'warning' && e.code)).toEqual([
      'lease-lost',
    ]);
    expect(await redis.get(lease as string)).toBe('another worker');
    // A worker whose lease is lost before its POST is sent sends none: it waits for the holder's reference.
    await redis.del(`r7:${reference}`);
    const before = await used();
    const events2: RenderProgressEvent[] = [];
    const drivenB = drivenClock();
    const stalled = store('r7', { clock: drivenB.clock });
    const losing = withLease(stalled, async (key) => {
      const held = await stalled.lease(key);
      if (held.acquired) {
        await redis.set(lease as string, 'a third worker', { PX: 4 * LEASE_MS });
        // its first renewal finds the lease another's
        expect(await heartbeat(drivenB, held.signal)).toBe('lost');
        setTimeout(() => void redis.set(`r7:${reference}`, a.render.reference), 200);
      }
      return held;
    });
    await redis.del(lease as string);
    const b = await render(worker(), job, losing, events2);
    expect(b.tokensSpent).toBe(0);
    expect(b.render.reference).toBe(a.render.reference);
    expect(await used()).toBe(before);
    expect(events2.map((e) => e.type === 'warning' && e.code)).toContain('lease-lost');
    expect(faults).toEqual([]);
  });

  it('keeps its lease while Redis fails a renewal (the failover rules), and renews it once Redis answers', async () => {
    // The default 30 s lease on a clock the test moves (a 3 s one renewed every second was lost when a stall of
    // the process delayed the renewal after the failed one past its end).
    const redis = await direct();
    const client = createRedisClient({ url: server.url });
    client.on('error', () => {});
    connections.push(client);
    await client.connect();
    let down = false;
    const cut = () => Promise.reject(new Error('connection lost'));
    const events: string[] = [];
    const driven = drivenClock();
    const a = new RedisRenderStore({
      client: {
        evalSha: (sha, options) => (down ? cut() : client.evalSha(sha, options)),
        eval: (script, options) => (down ? cut() : client.eval(script, options)),
        scriptLoad: (script) => (down ? cut() : client.scriptLoad(script)),
      },
      prefix: 'r11',
      retryMs: 0,
      clock: driven.clock,
      onEvent: (e) => events.push(e.type),
    });
    const held = await a.lease('k');
    if (!held.acquired) throw new Error('not acquired');
    down = true;
    // A heartbeat's time passes for the key, and its renewal fails.
    await redis.pExpire('r11:k:lease', 2 * HEARTBEAT_MS);
    expect(await heartbeat(driven, held.signal)).toBe('asleep');
    expect(events).toEqual(['redis-unavailable']);
    expect(held.signal?.aborted).toBe(false);
    down = false;
    // Another passes, and the next renews the lease, which had one heartbeat's time left.
    await redis.pExpire('r11:k:lease', HEARTBEAT_MS);
    expect(await heartbeat(driven, held.signal)).toBe('asleep');
    expect(events).toEqual(['redis-unavailable', 'redis-recovered']);
    expect(await redis.pTTL('r11:k:lease')).toBeGreaterThan(2 * HEARTBEAT_MS);
    expect(held.signal?.aborted).toBe(false);
    await held.release();
    expect(await redis.get('r11:k:lease')).toBeNull();
    expect(driven.sleeping()).toBe(0);
  });

  it('keeps rendering in process with one event when Redis is unreachable from the start', async () => {
    const gone = await startRedisServer();
    await gone.stop();
    const { worker, job, used } = await world();
    const redisEvents: string[] = [];
    const cache = store(
      'r4',
      { commandTimeoutMs: 200, retryMs: 60_000, onEvent: (e) => redisEvents.push(e.type) },
      gone.url,
    );
    const client = worker();
    const results = await Promise.all([1, 2, 3].map(() => render(client, job, cache)));
    expect(results.map((r) => r.render.status)).toEqual(['completed', 'completed', 'completed']);
    // One client still deduplicates its own concurrent calls: one POST.
    expect(await used()).toBe(results[0]!.composition.tokenCost);
    expect(redisEvents).toEqual(['redis-unavailable']);
    // A later call finds the reference in the store's memory, without Redis.
    expect((await render(client, job, cache)).tokensSpent).toBe(0);
  });
});
