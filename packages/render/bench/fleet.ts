// POST /renders when a fleet of workers renders the same mockups: 4 worker processes × the same 50
// mockups against the sandbox served on 127.0.0.1, each with its own in-process store, then sharing
// references and leases through RedisRenderStore on a real redis-server, then with that Redis killed
// once the first render is paid (each worker falls back to its own store and leases, losing nothing).
import { startRedisServer } from '../../../test-utils/redis-server.ts';
import { runRenderFleet, startRenderWorkers, stopRenderWorkers } from '../test/fleet/harness.ts';

const WORKERS = 4;
const MOCKUPS = 50;

export interface FleetRow {
  setup: string;
  posts: number;
  fulfilled: number;
  events: string;
  ms: number;
  /** POST /renders: exactly `exact`, or at most `atMost`. */
  target: { exact?: number; atMost?: number };
}

export const met = (r: FleetRow): boolean =>
  r.fulfilled === WORKERS * MOCKUPS &&
  (r.target.exact === undefined || r.posts === r.target.exact) &&
  (r.target.atMost === undefined || r.posts <= r.target.atMost);

export async function fleetBench(): Promise<FleetRow[]> {
  const [redis, doomed, workers] = await Promise.all([
    startRedisServer(),
    startRedisServer(),
    startRenderWorkers(WORKERS),
  ]);
  try {
    const setups = [
      ['4 workers, in-process stores', undefined, false, { exact: WORKERS * MOCKUPS }],
      ['4 workers, RedisRenderStore', redis.url, false, { exact: MOCKUPS }],
      ['4 workers, Redis killed at the first paid render', doomed.url, true, { atMost: WORKERS * MOCKUPS }],
    ] as const;
    const rows: FleetRow[] = [];
    for (const [setup, redisUrl, kill, target] of setups) {
      const run = await runRenderFleet({
        workers,
        mockups: MOCKUPS,
        ...(redisUrl ? { redisUrl } : {}),
        ...(kill ? { during: () => doomed.stop() } : {}),
      });
      const events = run.results.flatMap((w) => w.events);
      rows.push({
        setup,
        posts: run.posts,
        fulfilled: run.results.reduce((sum, w) => sum + w.fulfilled, 0),
        events: events.length ? `${events.length}× ${[...new Set(events)].join(', ')}` : '',
        ms: run.ms,
        target,
      });
    }
    return rows;
  } finally {
    await stopRenderWorkers(workers);
    await redis.stop();
    await doomed.stop();
  }
}
