// Fetches per order when a fleet of receivers takes a storm: 4 receiver processes × 1,000 notifications
// for 10 orders per burst, each process coalescing on its own, then sharing rounds through Redis, then
// with Redis killed halfway through a burst. The order API holds its answers until the whole burst has
// arrived (a busy upstream), as in the tests.
import { type RedisServer, startRedisServer } from '../../../test-utils/redis-server.ts';
import { type BurstResult, type Fleet, startReceivers } from '../test/fleet/harness.ts';

const RECEIVERS = 4;
const PER_RECEIVER = 1_000;
const ORDERS = 10;
const BURST = { waves: 10, spreadMs: 500, hold: true };

export interface FleetRow {
  setup: string;
  burst: number;
  maxPerOrder: number;
  total: number;
  ms: number;
  answered: string;
  /** Orders whose last fetch did not start after their last notification (must be 0). */
  lost: number;
  events: string;
  target: number;
}

function row(setup: string, burst: number, r: BurstResult, fleet: Fleet, target: number): FleetRow {
  const counts = [...r.fetchesPerOrder.values()];
  const events = fleet.receivers.flatMap((x) => x.events);
  return {
    setup,
    burst,
    maxPerOrder: Math.max(...counts),
    total: counts.reduce((a, b) => a + b, 0),
    ms: r.ms,
    answered: Object.entries(r.statuses)
      .map(([status, n]) => `${n}×${status}`)
      .join(' '),
    lost: r.lost.length,
    events: events.length ? `${events.length}× ${[...new Set(events)].join(', ')}` : '',
    target,
  };
}

export async function fleetBench(bursts: number): Promise<FleetRow[]> {
  const [redis, pool] = await Promise.all([startRedisServer(), startReceivers(RECEIVERS)]);
  const rows: FleetRow[] = [];
  const run = async (
    setup: string,
    count: number,
    target: number,
    options: { redis?: RedisServer; kill?: boolean },
  ) => {
    const fleet = await pool.fleet({
      windowMs: 1_000,
      // A generous deadline while Redis is up: a stalled process must not count as Redis failing.
      commandTimeoutMs: options.kill ? 5_000 : 30_000,
      ...(options.redis ? { redisUrl: options.redis.url } : {}),
    });
    try {
      for (let burst = 1; burst <= count; burst++) {
        const during = options.kill ? () => options.redis?.stop() : undefined;
        const r = await fleet.burst(PER_RECEIVER, ORDERS, BURST, during);
        rows.push(row(setup, burst, r, fleet, target));
      }
    } finally {
      await fleet.stop();
    }
  };
  try {
    await run('4 processes, in-process coalescing', 1, 2 * RECEIVERS, {});
    await run('4 processes, Redis coalescer', bursts, 2, { redis });
    const doomed = await startRedisServer();
    await run('4 processes, Redis killed mid-burst', 1, 2 + 2 * RECEIVERS, { redis: doomed, kill: true });
    await doomed.stop();
    return rows;
  } finally {
    await pool.close();
    await redis.stop();
  }
}
