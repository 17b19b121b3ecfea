import { startRedisServer } from '../../../ratelimit/bench/redis-server.ts';
import { startFleet } from './harness.ts';

const redis = await startRedisServer();
let t = Date.now();
const fleet = await startFleet({ receivers: 4, windowMs: 1000, redisUrl: redis.url });
console.log('start', Date.now() - t);
for (let i = 0; i < 2; i++) {
  t = Date.now();
  const r = await fleet.burst(1000, 10, { waves: 10, spreadMs: 500, hold: true });
  console.log(
    'burst',
    Date.now() - t,
    r.statuses,
    [...r.fetchesPerOrder.values()],
    r.lost,
    fleet.receivers.map((x) => x.events),
  );
}
await fleet.stop();
await redis.stop();
