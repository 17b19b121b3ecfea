// Benchmarks of @partner-print/migrate. Prints a table and exits 0 when every target is met.
//
//   1. Streaming: `orders` (dry run) over a generated JSONL file (1 GB by default; MIGRATE_BENCH_MB to
//      change) — memory must stay flat (RSS growth between the first quarter and the end).
//   2. Memoisation: 100,000 orders over 2,000 distinct SKUs → exactly 2,000 lookups (counting fetch).
//   3. Throughput: `skus` against a real-clock sandbox with a small quota — the achieved rate must be
//      the quota's, and the same run without a limit (the anchor) shows the CLI is far faster.
//   4. `code` over a generated tree of 1,000 files: files per second against Babel parsing the same files
//      (the anchor), peak RSS and the heap the run keeps. It runs first, so the peak is its own.

import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createSandbox } from '@partner-print/sandbox';
import type { CliIO } from '../src/node/io.ts';
import { runCli } from '../src/node/run.ts';
import { benchCode } from './code.ts';

const MB = 1024 * 1024;
// A full GC before each memory sample, so the samples show live memory, not garbage awaiting collection.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const sizeMb = Number(process.env.MIGRATE_BENCH_MB ?? 1024);
const dir = mkdtempSync(join(tmpdir(), 'pp-migrate-bench-'));
const rows: Array<{ name: string; value: string; target: string; ok: boolean }> = [];
const row = (name: string, value: string, target: string, ok: boolean) =>
  rows.push({ name, value, target, ok });
const silent = { write: () => true };

function lookupAnswer(req: Request): Response | undefined {
  const sku = new URL(req.url).searchParams.get('legacyItemSku');
  return sku
    ? Response.json({ productReference: `Product_${sku.replace(/\W/g, '').padEnd(26, '0')}` })
    : undefined;
}

function io(
  extra: Partial<CliIO> & { intercept?: (r: Request) => Response | undefined; count?: { n: number } },
): CliIO {
  const { intercept, count, ...rest } = extra;
  return {
    stdout: silent,
    stderr: silent,
    env: {},
    wrapFetch: (inner) => async (input, init) => {
      const req = new Request(input, init);
      if (count && new URL(req.url).pathname.endsWith('/lookup-product-by-legacy-sku')) count.n++;
      return intercept?.(req) ?? inner(req);
    },
    ...rest,
  };
}

async function writeLines(
  path: string,
  limit: { bytes?: number; count?: number },
  line: (i: number) => string,
): Promise<number> {
  const ws = createWriteStream(path, { highWaterMark: 4 * MB });
  let bytes = 0;
  let i = 0;
  while (bytes < (limit.bytes ?? Number.POSITIVE_INFINITY) && i < (limit.count ?? Number.POSITIVE_INFINITY)) {
    const l = line(i++);
    bytes += Buffer.byteLength(l);
    if (!ws.write(l)) await once(ws, 'drain');
  }
  ws.end();
  await once(ws, 'finish');
  return i;
}

// A PNG-signed payload of ~12 KB (as base64): a few distinct images, as a real export would have.
function image(seed: number): string {
  const bytes = new Uint8Array(9000);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  for (let i = 8; i < bytes.length; i++) bytes[i] = (i * 31 + seed * 7) & 0xff;
  return Buffer.from(bytes).toString('base64');
}

async function streaming() {
  const images = Array.from({ length: 16 }, (_, i) => image(i));
  const sb = createSandbox({ rateLimits: false });
  const file = join(dir, 'orders.jsonl');
  const t0 = performance.now();
  const lines = await writeLines(
    file,
    { bytes: sizeMb * MB },
    (i) =>
      `${JSON.stringify({
        store_reference: sb.seed.stores.combined,
        shipping_kind: 'combined',
        partner_reference: `BENCH-${i}`,
        orderlines: [
          { sku: `SKU-${i % 500}`, image: images[i % images.length], quantity: 1 },
          { sku: `SKU-${(i * 7) % 500}`, quantity: 2 },
        ],
      })}\n`,
  );
  const genS = (performance.now() - t0) / 1000;
  const size = statSync(file).size;
  const samples: Array<{ t: number; rss: number; heap: number }> = [];
  const start = performance.now();
  const timer = setInterval(() => {
    gc();
    const m = process.memoryUsage();
    samples.push({
      t: performance.now() - start,
      rss: m.rss,
      heap: m.heapUsed + m.external + m.arrayBuffers,
    });
  }, 1000);
  const code = await runCli(
    [
      'orders',
      file,
      '--sandbox',
      '--concurrency',
      '16',
      '-o',
      join(dir, 'out.jsonl'),
      '--report',
      '/dev/null',
    ],
    io({ sandbox: sb, intercept: lookupAnswer }),
  );
  clearInterval(timer);
  const secs = (performance.now() - start) / 1000;
  const first = samples.filter((s) => s.t >= secs * 250);
  const base = first[0] ?? samples[0]!;
  const later = samples.filter((s) => s.t >= base.t);
  const peakRss = Math.max(...samples.map((s) => s.rss));
  const heapGrowth = Math.max(...later.map((s) => s.heap)) - base.heap;
  const rssGrowth = Math.max(...later.map((s) => s.rss)) - base.rss;
  row('streaming: input', `${(size / MB).toFixed(0)} MB, ${lines.toLocaleString('en')} orders`, '', true);
  row(
    'streaming: generate / convert',
    `${genS.toFixed(1)} s / ${secs.toFixed(1)} s (${(size / MB / secs).toFixed(0)} MB/s)`,
    'exit 0',
    code === 0,
  );
  row('streaming: peak RSS', `${(peakRss / MB).toFixed(0)} MB`, '< 400 MB', peakRss < 400 * MB);
  row(
    'streaming: live memory growth after 1st quarter',
    `${(heapGrowth / MB).toFixed(1)} MB (after GC; RSS ${(rssGrowth / MB).toFixed(1)} MB)`,
    '< 16 MB (flat)',
    heapGrowth < 16 * MB,
  );
  rmSync(file, { force: true });
  rmSync(join(dir, 'out.jsonl'), { force: true });
}

async function memoisation() {
  const sb = createSandbox({ rateLimits: false });
  const file = join(dir, 'orders-100k.jsonl');
  const n = 100_000;
  await writeLines(
    file,
    { count: n },
    (i) =>
      `${JSON.stringify({
        store_reference: sb.seed.stores.combined,
        shipping_kind: 'combined',
        orderlines: [{ sku: `SKU-${i % 2000}`, quantity: 1 }],
        note: i,
      })}\n`,
  );
  const count = { n: 0 };
  const t = performance.now();
  const code = await runCli(
    ['orders', file, '--sandbox', '--concurrency', '32', '-o', '/dev/null', '--report', '/dev/null'],
    io({ sandbox: sb, intercept: lookupAnswer, count }),
  );
  const secs = (performance.now() - t) / 1000;
  row(
    'memo: 100,000 orders / 2,000 SKUs',
    `${count.n.toLocaleString('en')} lookups in ${secs.toFixed(1)} s`,
    '= 2,000',
    code === 0 && count.n === 2000,
  );
  rmSync(file, { force: true });
}

async function throughput() {
  const n = 120;
  const file = join(dir, 'skus.csv');
  await writeLines(file, { count: n + 1 }, (i) => (i === 0 ? 'sku\n' : `RATE-${i}\n`));
  const run = async (rateLimits: false | { default: { q: number; w: number } }) => {
    const sb = createSandbox({ clock: 'real', rateLimits, jitter: 0 });
    let throttled = 0;
    const t = performance.now();
    await runCli(
      [
        'skus',
        file,
        '--sandbox',
        '--no-sharing',
        '--restart',
        '--concurrency',
        '16',
        '-o',
        join(dir, 'skus.out.jsonl'),
      ],
      {
        ...io({ sandbox: sb }),
        wrapFetch: (inner) => async (input, init) => {
          const res = await inner(input, init);
          if (res.status === 429) throttled++;
          return res;
        },
      },
    );
    sb.close();
    return { secs: (performance.now() - t) / 1000, throttled };
  };
  const anchor = await run(false);
  const q = 20;
  const w = 2;
  const limited = await run({ default: { q, w } });
  // A full bucket of q goes at once; the rest at q/w per second.
  const expected = (n - q) / (q / w);
  const achieved = (n - q) / limited.secs;
  const ratio = achieved / (q / w);
  row(
    'throughput: anchor (no limit)',
    `${(n / anchor.secs).toFixed(0)} lookups/s`,
    `> ${(10 * q) / w}/s`,
    n / anchor.secs > (10 * q) / w,
  );
  row(
    'throughput: quota 20 per 2 s',
    `${achieved.toFixed(2)} lookups/s after the burst (${limited.secs.toFixed(1)} s, expected ${expected.toFixed(1)} s)`,
    `${q / w}/s ± 15%`,
    ratio > 0.85 && ratio < 1.15,
  );
  row('throughput: 429 responses', String(limited.throttled), '≤ 2', limited.throttled <= 2);
}

async function code() {
  const root = join(dir, 'tree');
  const r = await benchCode(root, gc);
  const ratio = r.filesPerSecond / r.anchorFilesPerSecond;
  row(
    'code: files (700 with V1 calls)',
    `${r.files} (${r.rewritten} rewritable, ${r.todo} marked)`,
    '1000',
    r.files === 1000,
  );
  row('code: dry run', `${r.filesPerSecond.toFixed(0)} files/s`, '', true);
  row('code: Babel parse only (anchor)', `${r.anchorFilesPerSecond.toFixed(0)} files/s`, '', true);
  row('code: dry run ÷ parse only', ratio.toFixed(2), '≥ 0.10', ratio >= 0.1);
  row('code: peak RSS', `${r.peakRssMb.toFixed(0)} MB`, '< 400 MB', r.peakRssMb < 400);
  row(
    'code: heap kept after the run (after GC)',
    `${r.heapGrowthMb.toFixed(1)} MB`,
    '< 64 MB',
    r.heapGrowthMb < 64,
  );
  rmSync(root, { recursive: true, force: true });
}

try {
  await code();
  if (process.env.MIGRATE_BENCH_ONLY === 'code') throw Object.assign(new Error('only code'), { only: true });
  await memoisation();
  await throughput();
  await streaming();
} catch (e) {
  if (!(e as { only?: boolean }).only) throw e;
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const w1 = Math.max(...rows.map((r) => r.name.length));
const w2 = Math.max(...rows.map((r) => r.value.length));
console.log(`${'measure'.padEnd(w1)}  ${'value'.padEnd(w2)}  target`);
for (const r of rows)
  console.log(
    `${r.name.padEnd(w1)}  ${r.value.padEnd(w2)}  ${r.target}${r.target ? (r.ok ? '  ✓' : '  ✗') : ''}`,
  );
process.exit(rows.every((r) => r.ok) ? 0 : 1);
