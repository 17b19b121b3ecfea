// One order-submitting worker process for the Redis claims test: creates the same COUNT orders as its
// siblings (in its own shuffled order), through RedisOrderClaims, and prints what happened as JSON. It
// starts when the parent says so (test/orders-fleet.ts) and reports each finished call to it over IPC (the
// fleet starts its Redis outage after a number of them).
import { createClient as createRedis } from 'redis';
import { createClient, createOrder, type OrderResult } from '../src/index.ts';
import { type OrderClaimEvent, RedisOrderClaims } from '../src/redis.ts';
import { pool, random, ref } from './orders-pool.ts';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const count = Number(env('COUNT'));
const redis = createRedis({
  url: env('REDIS_URL'),
  disableOfflineQueue: true,
  socket: { reconnectStrategy: () => 100 },
});
redis.on('error', () => {}); // outages are reported through the claims' events
await redis.connect();
const events: OrderClaimEvent['type'][] = [];
// A release an outage made fail is retried in the background; a process that exited before it went
// through would leave its claim to hold the other workers for the claim's 30 s TTL, and the run's duration
// would depend on where the outage fell. The worker ends as a process shutting down cleanly does: it
// flushes the claims before closing Redis (see the end of this file).
const claims = new RedisOrderClaims({ client: redis, on: (e) => events.push(e.type) });
const client = createClient({ secretKey: env('SECRET'), baseUrl: env('SANDBOX_URL'), rateLimit: false });

// Ready: wait for the fleet's 'go', which it sends once every worker is (they start their calls together).
if (process.send) {
  const go = new Promise((resolve) => process.once('message', resolve));
  process.send('ready');
  await go;
}
const next = random(Number(env('WORKER')) + 1);
const order = Array.from({ length: count }, (_, i) => i).sort(() => next() - 0.5);
const results = await pool(count, 8, (i) =>
  createOrder(
    client,
    {
      storeReference: ref('Store', env('STORE')),
      shippingKind: 'combined',
      customIdentifier: `fleet-${order[i]}`,
      orderlines: [{ productReference: ref('Product', env('PRODUCT')), quantity: 1 }],
    },
    {
      claims,
      ...(process.env.SETTLE_WINDOW_MS ? { settleWindowMs: Number(process.env.SETTLE_WINDOW_MS) } : {}),
    },
  ).finally(() => process.send?.('call')),
);
process.send?.('done');
const values = results.flatMap((r) => ('value' in r ? [r.value as OrderResult] : []));
const errors = results.flatMap((r) => ('error' in r ? [String((r.error as Error).message)] : []));
process.stdout.write(
  `${JSON.stringify({ created: values.filter((v) => v.created).length, existing: values.filter((v) => !v.created).length, errors, events })}\n`,
);
// Once the releases the claims still owe have gone through (bounded: the claims give up on one at its TTL).
await claims.flush();
await redis.quit().catch(() => {});
process.exit(0);
