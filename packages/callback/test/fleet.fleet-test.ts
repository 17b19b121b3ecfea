import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../test-utils/redis-server.ts';
import { type BurstResult, startFleet } from './fleet/harness.ts';

// A real redis-server on 127.0.0.1 (tools/ci/install-redis.sh) and real receiver processes.
// Without redis-server these tests fail, never skip.
const RECEIVERS = 4;
const PER_RECEIVER = 1_000;
const ORDERS = 10;

let redis: RedisServer;
const stops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  redis = await startRedisServer();
}, 20_000);
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});
afterAll(async () => {
  await redis?.stop();
});

const max = (result: BurstResult) => Math.max(...result.fetchesPerOrder.values());

describe('a fleet of 4 receivers, 1,000 notifications each for 10 orders', () => {
  it('without a shared coalescer: each process fetches every order itself (the reproduction)', async () => {
    const fleet = await startFleet({ receivers: RECEIVERS, windowMs: 1_000 });
    stops.push(fleet.stop);
    const result = await fleet.burst(PER_RECEIVER, ORDERS, { waves: 10, spreadMs: 500, hold: true });
    expect(result.statuses).toEqual({ 204: RECEIVERS * PER_RECEIVER });
    expect(result.lost).toEqual([]);
    // One fetch per order per process: the processes cannot know of each other.
    expect(Math.min(...result.fetchesPerOrder.values())).toBeGreaterThanOrEqual(RECEIVERS);
  }, 900_000);

  it('costs at most 2 fetches per order per burst with the Redis coalescer, burst after burst', async () => {
    // A generous deadline: on a loaded machine a stalled process must not count as Redis failing.
    const fleet = await startFleet({
      receivers: RECEIVERS,
      windowMs: 1_000,
      redisUrl: redis.url,
      commandTimeoutMs: 30_000,
    });
    stops.push(fleet.stop);
    for (let burst = 0; burst < 2; burst++) {
      const result = await fleet.burst(PER_RECEIVER, ORDERS, { waves: 10, spreadMs: 500, hold: true });
      expect(result.statuses).toEqual({ 204: RECEIVERS * PER_RECEIVER });
      expect(fleet.receivers.map((r) => r.events)).toEqual(fleet.receivers.map(() => []));
      expect(result.fetchesPerOrder.size).toBe(ORDERS);
      expect(max(result)).toBeLessThanOrEqual(2);
      expect(result.lost).toEqual([]);
    }
    for (const receiver of fleet.receivers) expect(receiver.events).toEqual([]);
  }, 900_000);

  it('loses nothing when Redis is killed mid-burst: every receiver falls back in process, with an event', async () => {
    const own = await startRedisServer();
    const fleet = await startFleet({ receivers: RECEIVERS, windowMs: 1_000, redisUrl: own.url });
    stops.push(fleet.stop);
    const result = await fleet.burst(PER_RECEIVER, ORDERS, { waves: 10, spreadMs: 500, hold: true }, () =>
      own.stop(),
    );
    expect(result.statuses).toEqual({ 204: RECEIVERS * PER_RECEIVER });
    expect(result.lost).toEqual([]);
    // At most 2 shared rounds before the kill, then at most 2 per process after it.
    expect(max(result)).toBeLessThanOrEqual(2 + 2 * RECEIVERS);
    for (const receiver of fleet.receivers) expect(receiver.events).toContain('redis-unavailable');
  }, 900_000);

  it('loses nothing when Redis is unreachable from the start', async () => {
    const gone = await startRedisServer();
    await gone.stop();
    const fleet = await startFleet({ receivers: RECEIVERS, windowMs: 1_000, redisUrl: gone.url });
    stops.push(fleet.stop);
    const result = await fleet.burst(PER_RECEIVER, ORDERS, { waves: 10, spreadMs: 500, hold: true });
    expect(result.statuses).toEqual({ 204: RECEIVERS * PER_RECEIVER });
    expect(result.lost).toEqual([]);
    expect(max(result)).toBeLessThanOrEqual(2 * RECEIVERS);
    for (const receiver of fleet.receivers) expect(receiver.events).toEqual(['redis-unavailable']);
  }, 900_000);
});
