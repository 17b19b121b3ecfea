import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { redisForFile } from '../../../test-utils/redis-file.ts';
import { busy, STALL_PLACES, stallFreeStopwatch } from '../../../test-utils/stall.ts';
import { FailoverStore } from '../src/failover.ts';
import { RedisStore } from '../src/redis.ts';

// A busy process is not a store outage. Reproduces what the shared store's deadline did before: with Redis
// healthy, a synchronous task of 400 ms right after a store call made a 200 ms `storeTimeoutMs` fire before
// the reply was read — `store-down`, and the process spent the quota alone for `storeRetryMs` — in each place
// of the event loop the stall can start from. A real redis-server on 127.0.0.1.
const redisFile = redisForFile(createClient);

const T0 = 1_800_000_000_000;
const DEFAULT = { name: 'default', quota: 10, windowSeconds: 10 };

function failover(prefix: string, downs: string[]) {
  return new FailoverStore(new RedisStore({ client: redisFile.client, prefix }), {
    timeoutMs: 200,
    retryMs: 5_000,
    onDown: (error) => downs.push(error),
    onUp: () => {},
  });
}

describe('the shared store deadline (storeTimeoutMs) and a busy process', () => {
  for (const [place, run] of Object.entries(STALL_PLACES)) {
    it(`a 400 ms stall ${place} is not store-down`, async () => {
      const downs: string[] = [];
      const store = failover(`stall-${place}`, downs);
      expect((await store.take('org', [DEFAULT], T0)).ok).toBe(true);
      let snapshots: unknown[] = [];
      await run(async () => {
        const calls = [store.snapshot('org', T0 + 1), store.snapshot('org', T0 + 2)];
        busy(400);
        snapshots = await Promise.all(calls);
      });
      expect(snapshots).toHaveLength(2);
      expect(downs).toEqual([]);
    });
  }

  it('a store that really stops answering is still judged: within 2 × the deadline after the stall', async () => {
    const downs: string[] = [];
    const store = failover('stall-gone', downs);
    expect((await store.take('org', [DEFAULT], T0)).ok).toBe(true);
    // Redis answers nothing until the take is judged: a pause of 2 s on this process's timer ended, for a
    // process stopped for 1.5 s every 4 s, before the deadline's second window did, and Redis's reply won.
    const resume = redisFile.server.hold();
    try {
      const started = performance.now();
      // The upper bound without the process's stalls (test-utils/stall.ts): the test's own busy 400 ms is
      // CPU and counts, a machine that does not run the process for a second does not.
      const watch = stallFreeStopwatch();
      const taking = store.take('org', [DEFAULT], T0 + 1); // falls back to the local store
      busy(400);
      try {
        await taking;
      } finally {
        watch.stop();
      }
      expect(downs).toEqual(['the store did not answer within 200 ms']);
      expect(performance.now() - started).toBeGreaterThanOrEqual(400 + 200);
      expect(watch.elapsed()).toBeLessThan(400 + 2 * 200 + 300);
    } finally {
      resume();
    }
  });
});
