// One order-submitting worker process for the Redis claims test: creates the same COUNT orders as its
// siblings (in its own shuffled order), through RedisOrderClaims, and prints what happened as JSON. It
// starts when the parent says so (test/orders-fleet.ts) and reports each finished call to it over IPC (the
// fleet starts its Redis outage after a number of them).
import { createClient as createRedis } from 'redis';
import { createClient, createOrder, type OrderResult } from '../src/index.ts';
import { ACQUIRE, RELEASE } from '../src/redis/scripts.ts';
import { type OrderClaimEvent, type RedisEvalClient, RedisOrderClaims } from '../src/redis.ts';
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
// The claims' Redis calls, watched for one thing: which of this worker's claims are still held. A release
// that an outage made fail is retried in the background (RedisOrderClaims backs off up to 2 s between
// tries); a process that exited before it went through would leave its claim to hold the other workers
// for the claim's 30 s TTL, and the run's duration would depend on where the outage fell. The worker
// ends as a process shutting down cleanly would: once it holds no claim (see the end of this file).
const held = new Set<string>();
const released = new Set<string>(); // a late answer to an acquisition already released holds nothing
const watched: RedisEvalClient = {
  async eval(script, options) {
    const reply = await redis.eval(script, options);
    const [token = ''] = options.arguments;
    if (script === RELEASE) {
      held.delete(token);
      released.add(token);
    } else if (script === ACQUIRE && Array.isArray(reply) && Number(reply[0]) === 1 && !released.has(token))
      held.add(token);
    return reply;
  },
};
const claims = new RedisOrderClaims({ client: watched, on: (e) => events.push(e.type) });
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
const giveUp = Date.now() + 60_000;
while (held.size > 0 && Date.now() < giveUp) await new Promise((resolve) => setTimeout(resolve, 50));
await redis.quit().catch(() => {});
process.exit(0);
