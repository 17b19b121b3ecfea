import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../test-utils/redis-server.ts';
import {
  type RenderWorkers,
  runRenderFleet,
  startRenderWorkers,
  stopRenderWorkers,
} from './fleet/harness.ts';

// A real redis-server on 127.0.0.1 (tools/ci/install-redis.sh) and real worker processes, booted once for
// the file; each test serves its own sandbox with 50 freshly uploaded images.
// Without redis-server these tests fail, never skip.
const WORKERS = 4;
const MOCKUPS = 50;
/**
 * The contrast case, with nothing shared, needs no batch as large: every worker pays for every mockup at any
 * count, and its 200 full renders at 50 (four times the shared runs' work) took 20 of this file's 42 s in CI.
 */
const UNSHARED_MOCKUPS = 12;

let redis: RedisServer;
let workers: RenderWorkers;
beforeAll(async () => {
  [redis, workers] = await Promise.all([startRedisServer(), startRenderWorkers(WORKERS)]);
}, 120_000);
afterAll(async () => {
  if (workers) await stopRenderWorkers(workers);
  await redis?.stop();
});

describe('4 render workers x the same mockups', () => {
  it('each with its own in-process store: every worker pays for every mockup', async () => {
    const run = await runRenderFleet({ workers, mockups: UNSHARED_MOCKUPS });
    for (const worker of run.results) {
      expect(worker.rejected).toEqual([]);
      expect(worker.fulfilled).toBe(UNSHARED_MOCKUPS);
    }
    expect(run.posts).toBe(WORKERS * UNSHARED_MOCKUPS);
  }, 300_000);

  it('send exactly 50 POST /renders through the Redis store, and every worker gets every mockup', async () => {
    const run = await runRenderFleet({ workers, mockups: MOCKUPS, redisUrl: redis.url });
    for (const worker of run.results) {
      expect(worker.rejected).toEqual([]);
      expect(worker.fulfilled).toBe(MOCKUPS);
      expect(worker.events).toEqual([]);
    }
    expect(run.posts).toBe(MOCKUPS);
    expect(run.results.reduce((sum, w) => sum + w.tokensSpent, 0)).toBe(MOCKUPS);
  }, 300_000);

  // Killed as the first render is paid, and 2 s later: once every worker has leased or learned every mockup
  // it started. The second is the CI failure it reproduces: a worker that sends Redis nothing after the kill
  // never meets it (no event), so the harness holds each worker's last mockups back until after the kill.
  it.each([
    ['mid-run, as the first render is paid', 0],
    ['late, after every worker has looked up every mockup it started', 2_000],
  ])(
    'lose nothing when Redis is killed %s: every worker falls back in process, with an event',
    async (_, afterMs) => {
      const own = await startRedisServer();
      const run = await runRenderFleet({
        workers,
        mockups: MOCKUPS,
        redisUrl: own.url,
        // Once Redis is gone each worker waits out this deadline before falling back (5 s by default). A
        // stall past it before the kill would end the same way: one event, no return (retry in 60 s).
        commandTimeoutMs: 1_000,
        during: async () => {
          if (afterMs) await new Promise((r) => setTimeout(r, afterMs));
          await own.stop();
        },
      });
      for (const worker of run.results) {
        expect(worker.rejected).toEqual([]);
        expect(worker.fulfilled).toBe(MOCKUPS);
        expect(worker.events).toEqual(['redis-unavailable']);
      }
      // Renders stored before the kill are shared; after it, each worker may render a mockup once.
      expect(run.posts).toBeGreaterThanOrEqual(MOCKUPS);
      expect(run.posts).toBeLessThanOrEqual(WORKERS * MOCKUPS);
    },
    300_000,
  );
});
