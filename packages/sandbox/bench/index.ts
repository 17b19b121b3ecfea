/**
 * Load test of the sandbox's Node server (run by `pnpm bench sandbox` or
 * `tsx packages/sandbox/bench/index.ts [--duration 60]`):
 *  1. GET /orders/{orderReference} with rate limits off: at least 5,000 req/s,
 *     memory flat over the run (RSS and heap after GC, start vs end).
 *  2. 200 concurrent clients creating orders: none lost, none duplicated.
 * Prints a table and exits 0 when every target is met, 1 otherwise.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    connections: { type: 'string', default: '16' },
    orders: { type: 'string', default: '4000' },
    pipelining: { type: 'string', default: '1' },
    workers: { type: 'string', default: '0' },
  },
});
const duration = Number(values.duration);
const TARGET_RPS = 5000;
const MAX_RSS_GROWTH = 64 * 1024 * 1024;
const MAX_HEAP_GROWTH = 16 * 1024 * 1024;

type Memory = { rss: number; heapUsed: number; cpuMicros: number };
type Ready = {
  url: string;
  key: string;
  seed: { stores: { combined: string }; products: { nonPrint: string } };
};

const child: ChildProcess = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), [], {
  execArgv: [
    '--import',
    'tsx',
    '--expose-gc',
    ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
  ],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const next = <T>(type: string) =>
  new Promise<T>((resolve) => {
    const on = (m: { type: string }) => {
      if (m.type === type) {
        child.off('message', on);
        resolve(m as T);
      }
    };
    child.on('message', on);
  });
const memory = () => {
  const p = next<Memory>('memory');
  child.send({ type: 'memory' });
  return p;
};

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const rows: Array<[string, string, string, boolean]> = [];

try {
  const ready = await next<Ready>('ready');
  const headers = { 'X-Service-Secret-Key': ready.key, 'Content-Type': 'application/json' };
  const orderBody = (id: string) =>
    JSON.stringify({
      order: {
        storeReference: ready.seed.stores.combined,
        shippingKind: 'combined',
        customIdentifier: id,
        orderlines: [{ productReference: ready.seed.products.nonPrint, quantity: 1 }],
      },
    });
  const created = await fetch(`${ready.url}/orders`, {
    method: 'POST',
    headers,
    body: orderBody('bench-probe'),
  });
  const orderReference = ((await created.json()) as { order: { reference: string } }).order.reference;
  const target = `${ready.url}/orders/${orderReference}`;

  // Warm up the JIT, then measure memory from a settled state.
  await autocannon({
    url: target,
    headers,
    connections: 16,
    duration: Math.min(5, Math.max(1, duration / 10)),
  });
  const before = await memory();
  const get = await autocannon({
    url: target,
    headers,
    connections: Number(values.connections),
    pipelining: Number(values.pipelining),
    ...(Number(values.workers) > 0 ? { workers: Number(values.workers) } : {}),
    duration,
  });
  const after = await memory();
  const ok = get.errors === 0 && get.non2xx === 0;
  rows.push([
    'GET /orders/{ref} req/s (avg)',
    `${Math.round(get.requests.average)}`,
    `≥ ${TARGET_RPS}`,
    get.requests.average >= TARGET_RPS,
  ]);
  const cpuPerRequest = (after.cpuMicros - before.cpuMicros) / Math.max(1, get.requests.total);
  rows.push([
    'server CPU per GET (capacity/core)',
    `${cpuPerRequest.toFixed(0)} µs (≈ ${Math.round(1e6 / cpuPerRequest)} req/s)`,
    '',
    true,
  ]);
  rows.push(['GET latency p50 / p99', `${get.latency.p50} / ${get.latency.p99} ms`, '', true]);
  rows.push(['GET errors / non-2xx', `${get.errors} / ${get.non2xx}`, '0 / 0', ok]);
  rows.push([
    'RSS start → end',
    `${mb(before.rss)} → ${mb(after.rss)}`,
    `growth ≤ ${mb(MAX_RSS_GROWTH)}`,
    after.rss - before.rss <= MAX_RSS_GROWTH,
  ]);
  rows.push([
    'heap (after GC) start → end',
    `${mb(before.heapUsed)} → ${mb(after.heapUsed)}`,
    `growth ≤ ${mb(MAX_HEAP_GROWTH)}`,
    after.heapUsed - before.heapUsed <= MAX_HEAP_GROWTH,
  ]);

  // 200 concurrent clients creating orders, each with a unique custom identifier.
  const amount = Number(values.orders);
  let sent = 0;
  const post = await autocannon({
    url: `${ready.url}/orders`,
    method: 'POST',
    headers,
    // One unique custom identifier per request (idReplacement miscounts Content-Length).
    requests: [
      { setupRequest: (req: Record<string, unknown>) => ({ ...req, body: orderBody(`bench-${++sent}`) }) },
    ],
    connections: 200,
    amount,
  });
  const ids = new Map<string, number>();
  let cursor: string | null = null;
  do {
    const res = await fetch(`${ready.url}/orders${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, {
      headers,
    });
    const page = (await res.json()) as {
      orders: Array<{ customIdentifier: string | null }>;
      nextCursor: string | null;
    };
    for (const o of page.orders) {
      if (o.customIdentifier?.startsWith('bench-') && o.customIdentifier !== 'bench-probe') {
        ids.set(o.customIdentifier, (ids.get(o.customIdentifier) ?? 0) + 1);
      }
    }
    cursor = page.nextCursor;
  } while (cursor);
  const stored = [...ids.values()].reduce((n, c) => n + c, 0);
  const duplicates = [...ids.values()].filter((c) => c > 1).length;
  const lost = post['2xx'] - stored;
  rows.push([
    'orders sent / 2xx (200 clients)',
    `${post.requests.sent} / ${post['2xx']}`,
    `${amount} / ${amount}`,
    post['2xx'] === amount,
  ]);
  rows.push([
    'orders lost / duplicated',
    `${lost} / ${duplicates}`,
    '0 / 0',
    lost === 0 && duplicates === 0 && ids.size === stored,
  ]);
  rows.push(['POST /orders req/s (avg)', `${Math.round(post.requests.average)}`, '', true]);
} finally {
  child.send({ type: 'close' });
}

const width = [34, 30, 20];
console.log(`\n@partner-print/sandbox bench (${duration}s GET run, Node ${process.version})`);
console.log(`${'measure'.padEnd(width[0]!)} ${'value'.padEnd(width[1]!)} ${'target'.padEnd(width[2]!)} ok`);
for (const [name, value, target, pass] of rows) {
  console.log(
    `${name.padEnd(width[0]!)} ${value.padEnd(width[1]!)} ${target.padEnd(width[2]!)} ${pass ? 'yes' : 'NO'}`,
  );
}
const passed = rows.every((r) => r[3]);
console.log(passed ? '\nAll targets met.' : '\nSome targets were missed.');
process.exit(passed ? 0 : 1);
