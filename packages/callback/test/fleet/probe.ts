// Runs one fleet scenario with timings (FLEET_DEBUG=1 for progress): `tsx test/fleet/probe.ts [shared|kill|local|gone] [bursts]`.
import { startRedisServer } from '../../../../test-utils/redis-server.ts';
import { startFleet } from './harness.ts';

const mode = process.argv[2] ?? 'shared';
const bursts = Number(process.argv[3] ?? 2);
const redis = await startRedisServer();
if (mode === 'gone') await redis.stop();
let t = Date.now();
const fleet = await startFleet({
  receivers: 4,
  windowMs: 1000,
  ...(mode === 'local' ? {} : { redisUrl: redis.url }),
  commandTimeoutMs: mode === 'shared' ? 30_000 : 5_000,
});
console.log('start', Date.now() - t);
for (let i = 0; i < bursts; i++) {
  t = Date.now();
  const r = await fleet.burst(1000, 10, { waves: 10, spreadMs: 500, hold: true }, () =>
    mode === 'kill' && i === 0 ? redis.stop() : undefined,
  );
  console.log(
    'burst',
    Date.now() - t,
    r.statuses,
    [...r.fetchesPerOrder.values()].join(' '),
    r.lost,
    fleet.receivers.map((x) => x.events.join(',')),
  );
}
t = Date.now();
await fleet.stop();
console.log('stop', Date.now() - t);
await redis.stop();
