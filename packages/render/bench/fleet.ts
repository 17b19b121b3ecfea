// POST /renders when a fleet of workers renders the same mockups: 4 worker processes × the same 50
// mockups against the sandbox served on 127.0.0.1, each with its own in-process store, then sharing
// references and leases through RedisRenderStore on a real redis-server.
import { startRedisServer } from '../../../test-utils/redis-server.ts';
import { runRenderFleet } from '../test/fleet/harness.ts';

const WORKERS = 4;
const MOCKUPS = 50;

export interface FleetRow {
  setup: string;
  posts: number;
  fulfilled: number;
  ms: number;
  target: number | undefined;
}

export async function fleetBench(): Promise<FleetRow[]> {
  const redis = await startRedisServer();
  try {
    const rows: FleetRow[] = [];
    for (const [setup, redisUrl, target] of [
      ['4 workers, in-process stores', undefined, undefined],
      ['4 workers, RedisRenderStore', redis.url, MOCKUPS],
    ] as const) {
      const run = await runRenderFleet({
        workers: WORKERS,
        mockups: MOCKUPS,
        ...(redisUrl ? { redisUrl } : {}),
      });
      rows.push({
        setup,
        posts: run.posts,
        fulfilled: run.results.reduce((sum, w) => sum + w.fulfilled, 0),
        ms: run.ms,
        target,
      });
    }
    return rows;
  } finally {
    await redis.stop();
  }
}
