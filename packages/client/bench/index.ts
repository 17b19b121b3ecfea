// Per-request overhead of @partner-print/client against the in-process sandbox, as ratios to bare
// openapi-fetch and to raw fetch measured in the same run (interleaved rounds, median of round means),
// plus the bundle sizes from size-limit. Exits 1 when a target is missed.
import { spawnSync } from 'node:child_process';
import type { paths } from '@partner-print/openapi';
import { createSandbox } from '@partner-print/sandbox';
import createFetchClient from 'openapi-fetch';
import { createClient } from '../src/index.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 200);
const TARGET_RATIO = 1.1;

// A quota no run can exhaust: the sandbox still sends rate-limit headers (the scheduler learns them)
// but never throttles, so this measures the client's work, not waiting for tokens.
const sandbox = createSandbox({ rateLimits: { default: { q: 1_000_000_000, w: 60 } } });
const key = sandbox.keys.primary;
const { baseUrl } = sandbox;
const transport = (request: Request) => sandbox.fetch(request);
const orderReference = (
  await createClient({ secretKey: key, baseUrl, fetch: transport }).createOrder({
    storeReference: sandbox.seed.stores.combined,
    shippingKind: 'combined',
    orderlines: [{ productReference: sandbox.seed.products.nonPrint, quantity: 1 }],
  })
).order.reference;
const params = { path: { orderReference } };

const bare = createFetchClient<paths>({
  baseUrl,
  fetch: transport,
  headers: { 'X-Service-Secret-Key': key },
});
const off = createClient({ secretKey: key, baseUrl, fetch: transport, rateLimit: false });
const on = createClient({ secretKey: key, baseUrl, fetch: transport });
const url = `${baseUrl}/orders/${orderReference}`;

const variants: Record<string, () => Promise<unknown>> = {
  'raw fetch': async () => {
    const res = await transport(new Request(url, { headers: { 'X-Service-Secret-Key': key } }));
    return res.json();
  },
  'bare openapi-fetch': () => bare.GET('/orders/{orderReference}', { params }),
  'client GET, rate limiting off': () => off.GET('/orders/{orderReference}', { params }),
  'client get(), rate limiting off': () => off.get('/orders/{orderReference}', { params }),
  'client GET, rate limiting on': () => on.GET('/orders/{orderReference}', { params }),
  'client get(), rate limiting on': () => on.get('/orders/{orderReference}', { params }),
};

// Wall time and this process's CPU time: the machine may be busy, and CPU time is less disturbed by that.
const samples: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
const cpuSamples: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (const run of Object.values(variants)) for (let i = 0; i < 300; i++) await run(); // warm up
for (let round = 0; round < ROUNDS; round++) {
  const order = Object.entries(variants);
  if (round % 2) order.reverse();
  for (const [name, run] of order) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    for (let i = 0; i < PER_ROUND; i++) await run();
    const cpu = process.cpuUsage(c0);
    samples[name]!.push(((performance.now() - t0) * 1000) / PER_ROUND);
    cpuSamples[name]!.push((cpu.user + cpu.system) / PER_ROUND);
  }
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const wall = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
const us = Object.fromEntries(Object.entries(cpuSamples).map(([k, v]) => [k, median(v)]));
// Paired ratios: each round's variant against the same round's anchor, then the median over rounds.
const pairedRatio = (name: string, anchor: string, from = cpuSamples) =>
  median(from[name]!.map((v, i) => v / from[anchor]![i]!));
const anchorRaw = 'raw fetch';
const anchorBare = 'bare openapi-fetch';

console.log(
  `\nPer request, GET /orders/{orderReference} on the in-process sandbox (${ROUNDS} rounds × ${PER_ROUND} requests per variant, interleaved)`,
);
console.log(
  "Ratios: CPU time of this process, each round against the same round's anchor, median over rounds.\n",
);
console.log(
  `${'variant'.padEnd(34)}${'wall µs'.padStart(10)}${'CPU µs'.padStart(10)}${'× raw fetch'.padStart(14)}${'× openapi-fetch'.padStart(18)}${'(wall ×)'.padStart(10)}`,
);
for (const name of Object.keys(us))
  console.log(
    `${name.padEnd(34)}${wall[name]!.toFixed(1).padStart(10)}${us[name]!.toFixed(1).padStart(10)}${pairedRatio(name, anchorRaw).toFixed(3).padStart(14)}${pairedRatio(name, anchorBare).toFixed(3).padStart(18)}${pairedRatio(name, anchorBare, samples).toFixed(3).padStart(10)}`,
  );

const targets: Array<[string, number, number]> = [
  [
    'client GET (rate limiting off) ÷ bare openapi-fetch',
    pairedRatio('client GET, rate limiting off', anchorBare),
    TARGET_RATIO,
  ],
  [
    'client get() (rate limiting off) ÷ bare openapi-fetch',
    pairedRatio('client get(), rate limiting off', anchorBare),
    TARGET_RATIO,
  ],
];
const informational: Array<[string, number]> = [
  [
    'client GET (rate limiting on) ÷ bare openapi-fetch',
    pairedRatio('client GET, rate limiting on', anchorBare),
  ],
  [
    'client get() (rate limiting on) ÷ bare openapi-fetch',
    pairedRatio('client get(), rate limiting on', anchorBare),
  ],
];

// Bundle sizes: size-limit with the package's .size-limit.json (min + gzip).
const size = spawnSync('npx', ['size-limit', '--json'], {
  cwd: new URL('..', import.meta.url).pathname,
  encoding: 'utf8',
});
let sizes: Array<{ name: string; size: number; passed?: boolean; sizeLimit?: number }> = [];
try {
  sizes = JSON.parse(size.stdout);
} catch {
  console.log(`\nsize-limit did not run: ${size.stderr || size.stdout}`);
}
console.log('\nBundle size (size-limit, minified + gzip)\n');
for (const s of sizes)
  console.log(
    `${s.name.padEnd(100)}${(s.size / 1000).toFixed(2).padStart(8)} kB${s.sizeLimit ? `  (limit ${(s.sizeLimit / 1000).toFixed(1)} kB${s.passed ? '' : ', EXCEEDED'})` : ''}`,
  );

console.log('\nTargets\n');
let ok = sizes.length > 0 && sizes.every((s) => s.passed !== false);
for (const [name, value, limit] of targets) {
  const met = value <= limit;
  ok &&= met;
  console.log(`${met ? 'met   ' : 'MISSED'} ${name}: ${value.toFixed(3)} (target ≤ ${limit})`);
}
for (const [name, value] of informational) console.log(`info   ${name}: ${value.toFixed(3)}`);
for (const s of sizes)
  if (s.sizeLimit)
    console.log(
      `${s.passed ? 'met   ' : 'MISSED'} size: ${s.name}: ${(s.size / 1000).toFixed(2)} kB ≤ ${(s.sizeLimit / 1000).toFixed(1)} kB`,
    );
// The issue's target, independent of the CI regression budget in .size-limit.json.
const ISSUE_SIZE_TARGET_KB = 6;
const entry = sizes.find((s) => s.name.startsWith('@partner-print/client without the scheduler'));
if (entry) {
  const met = entry.size / 1000 <= ISSUE_SIZE_TARGET_KB;
  ok &&= met;
  console.log(
    `${met ? 'met   ' : 'MISSED'} size target: client entry with openapi-fetch ${(entry.size / 1000).toFixed(2)} kB (target ≤ ${ISSUE_SIZE_TARGET_KB} kB)`,
  );
}
sandbox.close();
process.exit(ok ? 0 : 1);
