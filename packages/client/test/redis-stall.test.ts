import { systemClock } from '@partner-print/openapi/wire';
import { createClient as createRedis } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../test-utils/redis-server.ts';
import {
  type OrderClaimEvent,
  type RedisAvailabilityEvent,
  RedisOrderClaims,
  ScriptRunner,
} from '../src/redis.ts';

// A busy process is not a Redis outage. Reproduces what every Redis deadline of the SDK did before: with
// Redis healthy, a synchronous task of 400 ms right after a command was sent made a 200 ms deadline fire
// before the reply was read — redis-unavailable, in-process leases (a render paid per worker), a claim
// refused — in each place of the event loop the stall can start from. A real redis-server on 127.0.0.1.
let server: RedisServer;
let redis: ReturnType<typeof createRedis>;

beforeAll(async () => {
  server = await startRedisServer();
  redis = createRedis({ url: server.url });
  redis.on('error', () => {});
  await redis.connect();
}, 20_000);

afterAll(async () => {
  await redis?.quit().catch(() => {});
  await server?.stop();
});

/** A synchronous task: the event loop does nothing else for `ms`. */
const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
};

/** Runs `go` from each phase a stall can start in: a caller's own code, a timer, an I/O callback's successor. */
const PLACES: Record<string, (go: () => Promise<void>) => Promise<void>> = {
  'in the caller': (go) => go(),
  'in a timer': (go) => new Promise((resolve, reject) => setTimeout(() => go().then(resolve, reject), 5)),
  'after I/O': (go) => new Promise((resolve, reject) => setImmediate(() => go().then(resolve, reject))),
};

const runner = (events: RedisAvailabilityEvent[]) =>
  new ScriptRunner(redis, {
    clock: systemClock,
    commandTimeoutMs: 200,
    retryMs: 5_000,
    onEvent: (event) => events.push(event),
  });

describe('Redis deadlines and a busy process', () => {
  for (const [place, run] of Object.entries(PLACES)) {
    it(`ScriptRunner (render store, callback coalescer): a 400 ms stall ${place} is not an outage`, async () => {
      const events: RedisAvailabilityEvent[] = [];
      const r = runner(events);
      expect(await r.run('return 1', ['k'], [])).toBe(1);
      let replies: unknown[] = [];
      await run(async () => {
        const sent = [r.run('return 2', ['k'], []), r.run('return 3', ['k'], [])];
        busy(400);
        replies = await Promise.all(sent);
      });
      expect(replies).toEqual([2, 3]);
      expect(events).toEqual([]);
      expect(r.available).toBe(true);
    });

    it(`RedisOrderClaims: a 400 ms stall ${place} refuses no claim`, async () => {
      const events: OrderClaimEvent[] = [];
      const claims = new RedisOrderClaims({
        client: redis,
        prefix: `stall-${place}-${Date.now()}`,
        commandTimeoutMs: 200,
        onUnavailable: 'error',
        on: (event) => events.push(event),
      });
      let taken: boolean[] = [];
      await run(async () => {
        const acquiring = [claims.acquire('shop-1'), claims.acquire('shop-2')];
        busy(400);
        taken = (await Promise.all(acquiring)).map((claim) => claim.recorded === undefined);
        for (const claim of await Promise.all(acquiring))
          await claim.release({ created: undefined, unsettled: false });
      });
      expect(taken).toEqual([true, true]);
      expect(events).toEqual([]);
    });
  }

  it('a Redis that really stops answering is still judged, stall or not: within 2 × the deadline after it', async () => {
    const events: RedisAvailabilityEvent[] = [];
    const r = runner(events);
    expect(await r.run('return 1', ['k'], [])).toBe(1);
    const paused = server.pause(2_000);
    const started = performance.now();
    const sent = r.run('return 2', ['k'], []);
    busy(400);
    await expect(sent).rejects.toThrow('Redis did not answer within 200 ms');
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(400 + 200);
    expect(took).toBeLessThan(400 + 2 * 200 + 300);
    expect(events.map((e) => e.type)).toEqual(['redis-unavailable']);
    // Without a stall the deadline is as before: one window.
    const claims = new RedisOrderClaims({ client: redis, commandTimeoutMs: 200, onUnavailable: 'error' });
    const at = performance.now();
    await expect(claims.acquire('shop-3')).rejects.toThrow('Redis is unavailable');
    expect(performance.now() - at).toBeLessThan(200 + 150);
    await paused;
  });
});
