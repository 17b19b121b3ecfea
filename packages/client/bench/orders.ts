// createOrder's cost, against the in-process sandbox on its virtual clock: the extra requests per created order
// of idempotent mode (look up first) when nothing fails, and the latency the settle window adds under faults,
// in sandbox milliseconds (the time a real service would make the caller wait), each over several seeds.
// Imported by bench/per-request.ts after its timed rows; a missed target makes the process exit 1.
import { type CreateOrderInit, createOrder } from '../src/index.ts';
import { orderSetup, type PostFault } from '../test/orders-faults.ts';
import { pool } from '../test/orders-pool.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1000);
/** Calls per latency run (one at a time). */
const CALLS = Number(process.env.BENCH_ORDER_CALLS ?? 300);
const SEEDS = [1, 2, 3];
const LOOKUP_TARGET = 1;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const spread = (values: number[]) =>
  values.length > 1
    ? `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`
    : values[0]!.toFixed(2);

/** 1,000 orders, 16 at once, no faults: requests and lookups per created order. */
async function requestsPerOrder(init: CreateOrderInit) {
  const setup = orderSetup();
  await pool(ORDERS, 16, (i) => createOrder(setup.client, setup.order(`b-${i}`), init));
  const { posts, lookups, reads } = setup.stats;
  return { perOrder: (posts + lookups + reads) / ORDERS, lookups: lookups / ORDERS };
}

/** One call at a time, so each call's sandbox time is its own: latency per call and what the service holds. */
async function latencyUnderFaults(fault: PostFault | undefined, seed: number, init: CreateOrderInit) {
  const setup = orderSetup(
    { ...(fault ? { fault, rate: 0.1 } : {}), seed, commitAfterMs: 5_000 },
    { retry: { attempts: 6 }, timeoutMs: 20 },
  );
  const latencies: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const start = setup.sandbox.clock.now();
    await createOrder(setup.client, setup.order(`l-${i}`), init).catch(() => undefined);
    latencies.push(setup.sandbox.clock.now() - start);
  }
  await setup.advance(60_000); // late commits land
  const stored = (await setup.checker.collect('/orders')).length;
  return {
    mean: latencies.reduce((a, b) => a + b, 0) / CALLS,
    p99: quantile(latencies, 0.99),
    max: Math.max(...latencies),
    duplicates: stored - CALLS,
    requests: (setup.stats.posts + setup.stats.lookups + setup.stats.reads) / CALLS,
  };
}

// The in-process sandbox holds no socket: a hanging request alone would let the process exit mid-run.
const keepAlive = setInterval(() => {}, 1_000);
console.log(`\ncreateOrder, in-process sandbox (virtual clock)\n`);
const idempotent = await Promise.all(SEEDS.map(() => requestsPerOrder({})));
const blind = await Promise.all(SEEDS.map(() => requestsPerOrder({ lookupFirst: false })));
const lookupsPerOrder = Math.max(...idempotent.map((r) => r.lookups));
console.log(
  `${`${ORDERS} orders, 16 at once, nothing failing`.padEnd(44)}${'requests/order'.padStart(16)}${'lookups/order'.padStart(16)}`,
);
for (const [name, runs] of [
  ['idempotent (look up first, default)', idempotent],
  ['lookupFirst: false', blind],
] as const)
  console.log(
    `${name.padEnd(44)}${spread(runs.map((r) => r.perOrder)).padStart(16)}${spread(runs.map((r) => r.lookups)).padStart(16)}`,
  );

console.log(
  `\n${CALLS} calls, 10% of POSTs faulty, one call at a time; latency in sandbox ms (mean, p99, max) and orders stored twice; spread over seeds ${SEEDS.join(', ')}\n`,
);
console.log(
  `${'fault'.padEnd(40)}${'mean ms'.padStart(16)}${'p99 ms'.padStart(18)}${'max ms'.padStart(18)}${'requests/order'.padStart(16)}${'duplicates'.padStart(12)}`,
);
let duplicates = 0;
const rows: Array<[string, PostFault | undefined, CreateOrderInit]> = [
  ['none', undefined, {}],
  ['drop-after (stored, answer lost)', 'drop-after', {}],
  ['drop-before (not stored)', 'drop-before', {}],
  ['status-503 (not stored)', 'status-503', {}],
  ['late-commit-drop 5 s', 'late-commit-drop', {}],
  ['late-commit-hang 5 s (client timeout)', 'late-commit-hang', {}],
  ['late-commit-drop 5 s, settleWindowMs: 0', 'late-commit-drop', { settleWindowMs: 0 }],
];
for (const [name, fault, init] of rows) {
  const runs = [];
  for (const seed of SEEDS) runs.push(await latencyUnderFaults(fault, seed, init));
  if (init.settleWindowMs === undefined) duplicates += runs.reduce((n, r) => n + r.duplicates, 0);
  console.log(
    `${name.padEnd(40)}${spread(runs.map((r) => r.mean)).padStart(16)}${spread(runs.map((r) => r.p99)).padStart(18)}${spread(runs.map((r) => r.max)).padStart(18)}${spread(runs.map((r) => r.requests)).padStart(16)}${runs
      .map((r) => r.duplicates)
      .join('/')
      .padStart(12)}`,
  );
}

const lookupsMet = lookupsPerOrder <= LOOKUP_TARGET;
console.log(
  `\n${lookupsMet ? 'met   ' : 'MISSED'} lookups per created order when nothing fails: ${lookupsPerOrder.toFixed(3)} (target ≤ ${LOOKUP_TARGET})`,
);
console.log(
  `${duplicates === 0 ? 'met   ' : 'MISSED'} duplicates under faults with the default settle window: ${duplicates} (target 0)`,
);
const ordersMet = lookupsMet && duplicates === 0;
clearInterval(keepAlive);
// bench/per-request.ts ends with process.exit(ok ? 0 : 1); a miss here still makes the exit code 1.
process.on('exit', () => {
  if (!ordersMet) process.exitCode = 1;
});

// A fleet (issue "a fleet of workers behaves like one"): 4 worker processes submit the same orders through
// RedisOrderClaims, with Redis unreachable for 1.5 s mid-run. BENCH_FLEET=0 skips it (it needs redis-server).
if (process.env.BENCH_FLEET !== '0') {
  const { startRedisServer } = await import('../../../test-utils/redis-server.ts');
  const { runFleet } = await import('../test/orders-fleet.ts');
  const { startProxy } = await import('../../../test-utils/redis-proxy.ts');
  const count = Number(process.env.BENCH_FLEET_ORDERS ?? 1000);
  const redis = await startRedisServer();
  const proxy = await startProxy(redis.port);
  try {
    const fleet = await runFleet({
      workers: 4,
      count,
      redisUrl: proxy.url,
      cut: { afterCalls: count, for: 1_500, proxy },
    });
    const created = fleet.workers.reduce((n, w) => n + w.created, 0);
    const errors = fleet.workers.reduce((n, w) => n + w.errors.length, 0);
    const duplicates = fleet.stored.length - new Set(fleet.stored).size;
    const met = duplicates === 0 && created === count && errors === 0 && fleet.stored.length === count;
    console.log(
      `\n4 worker processes × the same ${count} orders, Redis unreachable 1.5 s mid-run: ${fleet.stored.length} orders, ${duplicates} duplicates, ${errors} errors, ${(fleet.wallMs / 1000).toFixed(1)} s wall; per worker created/existing ${fleet.workers.map((w) => `${w.created}/${w.existing}`).join(', ')}`,
    );
    console.log(`${met ? 'met   ' : 'MISSED'} fleet: ${count} orders, 0 duplicates`);
    if (!met)
      process.on('exit', () => {
        process.exitCode = 1;
      });
  } finally {
    await proxy.close();
    await redis.stop();
  }
}
