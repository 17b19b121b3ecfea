// Fetches per order when a fleet of receivers takes a storm: 4 receiver processes × 1,000 notifications
// for 10 orders per burst, each process coalescing on its own, then sharing rounds through Redis.
// The order API holds its answers until the whole burst has arrived (a busy upstream), as in the tests.
import { type RedisServer, startRedisServer } from '../../../test-utils/redis-server.ts';
import { type BurstResult, startFleet } from '../test/fleet/harness.ts';

const RECEIVERS = 4;
const PER_RECEIVER = 1_000;
const ORDERS = 10;

export interface FleetRow {
  setup: string;
  burst: number;
  maxPerOrder: number;
  total: number;
  ms: number;
  answered: string;
  target: number;
}

async function measure(setup: string, bursts: number, redis: RedisServer | undefined, target: number) {
  const rows: FleetRow[] = [];
  const fleet = await startFleet({
    receivers: RECEIVERS,
    windowMs: 1_000,
    commandTimeoutMs: 30_000,
    ...(redis ? { redisUrl: redis.url } : {}),
  });
  try {
    for (let burst = 1; burst <= bursts; burst++) {
      const r: BurstResult = await fleet.burst(PER_RECEIVER, ORDERS, {
        waves: 10,
        spreadMs: 500,
        hold: true,
      });
      const counts = [...r.fetchesPerOrder.values()];
      rows.push({
        setup,
        burst,
        maxPerOrder: Math.max(...counts),
        total: counts.reduce((a, b) => a + b, 0),
        ms: r.ms,
        answered: Object.entries(r.statuses)
          .map(([status, n]) => `${n}×${status}`)
          .join(' '),
        target,
      });
    }
  } finally {
    await fleet.stop();
  }
  return rows;
}

export async function fleetBench(bursts: number): Promise<FleetRow[]> {
  const redis = await startRedisServer();
  try {
    return [
      ...(await measure('4 processes, in-process coalescing', 1, undefined, 2 * RECEIVERS)),
      ...(await measure('4 processes, Redis coalescer', bursts, redis, 2)),
    ];
  } finally {
    await redis.stop();
  }
}
