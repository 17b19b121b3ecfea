import { createClient as createRedis } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy } from '../../../test-utils/redis-proxy.ts';
import { type RedisServer, startRedisServer } from '../../../test-utils/redis-server.ts';
import { AbortedError, AmbiguousOutcomeError, createClient, createOrder } from '../src/index.ts';
import { RELEASE, RENEW } from '../src/redis/scripts.ts';
import { type OrderClaimEvent, OrderClaimUnavailableError, RedisOrderClaims } from '../src/redis.ts';
import { type OrderFaultOptions, orderSetup, storedIdentifiers } from './orders-faults.ts';
import { runFleet } from './orders-fleet.ts';
import { pool } from './orders-pool.ts';

// A real redis-server on 127.0.0.1, started here (tools/ci/system-deps.sh installs it); without it these
// tests fail, never skip. A TCP proxy in front of it plays "Redis unreachable" without losing its data.
let server: RedisServer;
let proxy: Awaited<ReturnType<typeof startProxy>>;
const redisClients: Array<ReturnType<typeof createRedis>> = [];

async function redis(url = proxy.url) {
  const c = createRedis({ url, disableOfflineQueue: true, socket: { reconnectStrategy: () => 50 } });
  c.on('error', () => {});
  await c.connect();
  redisClients.push(c);
  return c;
}

beforeAll(async () => {
  server = await startRedisServer();
  proxy = await startProxy(server.port);
}, 20_000);

afterAll(async () => {
  await Promise.all(redisClients.map((c) => c.quit().catch(() => {})));
  await proxy?.close();
  await server?.stop();
});

describe('RedisOrderClaims', () => {
  it('two clients (two processes) with a lagging lookup: 500 orders, 0 duplicates; without claims, duplicates', {
    timeout: 120_000,
  }, async () => {
    const run = async (shared: boolean) => {
      const setup = orderSetup({ lookupLagMs: 60_000 });
      const other = createClient({
        secretKey: setup.sandbox.keys.primary,
        baseUrl: setup.sandbox.baseUrl,
        clock: setup.sandbox.clock,
        fetch: setup.fetch,
      });
      const prefix = `lag-${shared}-${Date.now()}`;
      const claims = async () =>
        shared ? { claims: new RedisOrderClaims({ client: await redis(), prefix }) } : {};
      const [a, b] = [await claims(), await claims()];
      const results = await Promise.all(
        [setup.client, other].map((c, k) =>
          pool(500, 8, (i) => createOrder(c, setup.order(`o-${k ? 499 - i : i}`), k ? b : a)),
        ),
      );
      return { results: results.flat(), stored: await storedIdentifiers(setup.checker) };
    };
    const without = await run(false);
    expect(without.stored.length).toBeGreaterThan(500); // the reproduction: two processes, one identifier
    const { results, stored } = await run(true);
    expect(results.every((r) => 'value' in r)).toBe(true);
    expect(stored).toHaveLength(500);
    expect(new Set(stored).size).toBe(500);
  });

  it('a holder that dies after posting makes the next one wait out the settle window, not post', {
    timeout: 60_000,
  }, async () => {
    const controller = new AbortController();
    const setup = orderSetup({
      plan: (_, n) => (n === 1 ? 'late-commit-drop' : undefined),
      commitAfterMs: 3_000,
      // The process stops right after its POST went out (503; the commit lands 3 s later).
      onLookup: (n) => n === 2 && controller.abort(new Error('process stopped')),
    });
    const live = await redis();
    const prefix = `dies-${Date.now()}`;
    // The dying process: once its POST is out, its heartbeats and its release never reach Redis, and its
    // claim runs out right after the renewal that announced the POST. Its claim lasts the default 30 s until
    // then, so no stall of a loaded machine loses it before the POST (a 600 ms one was); the next process
    // waits for the claim only as long as it would for a holder that died.
    let posted = false;
    const dying = new RedisOrderClaims({
      prefix,
      client: {
        eval: (script, o) => {
          if (script === RENEW && o.arguments[2] === '1') {
            posted = true;
            const [token, _ttlMs, ...rest] = o.arguments;
            return live.eval(script, { ...o, arguments: [token as string, '1', ...rest] });
          }
          if (posted && (script === RELEASE || script === RENEW))
            return Promise.reject(new Error('process gone'));
          return live.eval(script, o);
        },
      },
    });
    const first = await createOrder(setup.client, setup.order('dies'), {
      claims: dying,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(AmbiguousOutcomeError);
    dying.abandonReleases(); // a process gone retries nothing
    const next = new RedisOrderClaims({ client: await redis(), prefix });
    const result = await createOrder(setup.checker, setup.order('dies'), {
      claims: next,
      settleWindowMs: 10_000,
    });
    expect(result.created).toBe(false);
    expect(setup.stats.posts).toBe(1);
    expect(await storedIdentifiers(setup.checker)).toEqual(['dies']);
  });

  it('Redis unreachable at start: onUnavailable "error" refuses at once with an event, nothing posted', {
    timeout: 30_000,
  }, async () => {
    const setup = orderSetup();
    const c = await redis();
    const events: OrderClaimEvent[] = [];
    const claims = new RedisOrderClaims({
      client: c,
      prefix: 'down',
      onUnavailable: 'error',
      commandTimeoutMs: 300,
      on: (e) => events.push(e),
    });
    proxy.cut();
    try {
      const error = await createOrder(setup.client, setup.order('down-1'), { claims }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(OrderClaimUnavailableError);
      expect(error).not.toBeInstanceOf(AmbiguousOutcomeError);
      expect((error as Error).message).toContain('nothing was posted');
      expect(events.map((e) => e.type)).toEqual(['unavailable']);
      expect(setup.stats.posts).toBe(0);
    } finally {
      proxy.restore();
    }
  });

  it('flush() waits for a release an outage put off, so the claim does not hold the next process for its TTL', {
    timeout: 30_000,
  }, async () => {
    const prefix = `flush-${Date.now()}`;
    const events: OrderClaimEvent['type'][] = [];
    const claims = new RedisOrderClaims({
      client: await redis(),
      prefix,
      commandTimeoutMs: 300,
      on: (e) => events.push(e.type),
    });
    await claims.flush(); // nothing owed: at once
    const claim = await claims.acquire('flushed');
    proxy.cut();
    let flushed = false;
    try {
      await claim.release({ created: undefined, unsettled: false }); // Redis missed it: retried later
      const flushing = claims.flush().then(() => {
        flushed = true;
      });
      const stop = new AbortController();
      stop.abort();
      await claims.flush(stop.signal); // a stopped wait returns while the release is still owed
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(flushed).toBe(false);
      proxy.restore();
      await flushing;
    } finally {
      proxy.restore();
    }
    expect(events).toEqual(['unavailable', 'available']);
    // Released: another process takes the claim at once instead of waiting out the 30 s TTL.
    const other = new RedisOrderClaims({ client: await redis(server.url), prefix });
    const started = Date.now();
    const next = await other.acquire('flushed');
    expect(Date.now() - started).toBeLessThan(5_000);
    await next.release({ created: undefined, unsettled: false });
  });

  it('Redis unreachable mid-run with "wait": claims wait, then the batch completes; 0 duplicates', {
    timeout: 60_000,
  }, async () => {
    const setup = orderSetup({ lookupLagMs: 60_000 });
    const events: string[] = [];
    const claims = new RedisOrderClaims({
      client: await redis(),
      prefix: `mid-${Date.now()}`,
      commandTimeoutMs: 300,
      on: (e) => events.push(e.type),
    });
    let cut = false;
    const results = await pool(400, 16, async (i) => {
      if (i === 100 && !cut) {
        cut = true;
        proxy.cut();
        setTimeout(() => proxy.restore(), 1_500);
      }
      return createOrder(setup.client, setup.order(`m-${i % 200}`), { claims });
    });
    expect(results.every((r) => 'value' in r)).toBe(true);
    const stored = await storedIdentifiers(setup.checker);
    expect(stored).toHaveLength(200);
    expect(events).toContain('unavailable');
    expect(events).toContain('available');
  });

  it("an abort while waiting out an earlier holder's unsettled POST keeps the mark on Redis (review)", async () => {
    const options: OrderFaultOptions = {
      plan: (_, n) => (n === 1 ? 'drop-before' : undefined),
      lookupFailsAfter: 1,
    };
    const { client, order, stats, sandbox } = orderSetup(options, { retry: { attempts: 1 } });
    const claims = new RedisOrderClaims({ client: await redis(), prefix: `abort-settle-${Date.now()}` });
    const first = await createOrder(client, order('u'), { claims, settleWindowMs: 1_000 }).catch(
      (e: unknown) => e,
    );
    expect(first).toBeInstanceOf(AmbiguousOutcomeError);
    const controller = new AbortController();
    options.onLookup = () => controller.abort(new Error('stop waiting'));
    const second = await createOrder(client, order('u'), { claims, signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(second).toBeInstanceOf(AbortedError);
    expect(second).toMatchObject({ attempts: 0 });
    options.onLookup = undefined;
    options.lookupFailsAfter = undefined;
    const start = sandbox.clock.now();
    await expect(
      createOrder(client, order('u'), { claims, lookupFirst: false, settleWindowMs: 5_000 }),
    ).resolves.toMatchObject({ created: true });
    expect(sandbox.clock.now() - start).toBeGreaterThanOrEqual(5_000); // the RELEASE kept `posted`
    expect(stats.posts).toBe(2);
  });

  // The same run as the client bench's fleet (4 processes × 1,000 orders, Redis unreachable 1.5 s), with
  // 250 orders: the rule (one order per identifier, whichever process holds the claim, through an outage)
  // is per identifier, and each of the 250 is still raced by the 4 processes, 8 calls at once each. The
  // workers start their calls together and the outage starts after a quarter of the calls, so it lands
  // mid-run whatever the machine's speed; that it did is asserted (the workers' claims saw Redis go and
  // come back, and the outage was over before any worker had finished its calls). A worker exits only once
  // the releases the outage deferred have gone through, as a process shutting down cleanly would: one that
  // exited first left claims that held the others for their 30 s TTL, and the run took 19 s or 48 s. A
  // claim whose holder lost Redis while about to post is unsettled, and its next holder waits out the settle
  // window before posting: 3 s instead of the default 30 s, still far longer than this sandbox takes to make a
  // commit visible (it commits before answering and its lookup does not lag), which is what the window
  // must outlast for the rule to hold.
  it('4 worker processes submitting the same 250 orders, Redis cut mid-run: 250 orders, 0 duplicates', {
    timeout: 120_000,
  }, async () => {
    const count = 250;
    const { workers, stored, cutMs } = await runFleet({
      workers: 4,
      count,
      redisUrl: proxy.url,
      settleWindowMs: 3_000,
      cut: { afterCalls: count, for: 1_500, proxy },
    });
    expect(workers.flatMap((r) => r.errors)).toEqual([]);
    expect(workers.reduce((n, r) => n + r.created, 0)).toBe(count);
    expect(stored).toHaveLength(count);
    expect(new Set(stored).size).toBe(count);
    expect(cutMs && cutMs.to < Math.min(...workers.map((w) => w.endedMs))).toBe(true);
    const events = workers.flatMap((w) => w.events);
    expect(events).toEqual(expect.arrayContaining(['unavailable', 'available']));
  });
});
