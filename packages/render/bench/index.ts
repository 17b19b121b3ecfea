// Requests per render against the in-process sandbox (virtual clock), counted at the fetch beneath the
// client. Targets: one lookup, one tokens check, one POST, ceil(render time / interval) + 1 status
// polls and two downloads per render; ten concurrent calls for one composition + image spend tokens once.
// Scene, perspective and product reads (the compatibility checks) are reported as they are.
import { createClient } from '@partner-print/client';
import { createSandbox } from '@partner-print/sandbox';
import { rgbaToDataURL } from 'thumbhash';
import { renderMockup } from '../src/index.ts';
import { fleetBench, met } from './fleet.ts';

const INTERVAL = 60_000;

function png(variant: number): Uint8Array {
  const w = 8;
  const h = 8;
  const rgba = new Uint8Array(w * h * 4).map((_, i) => (i * 31 + variant * 17) & 255);
  for (let i = 3; i < rgba.length; i += 4) rgba[i] = 255;
  const url = rgbaToDataURL(w, h, rgba);
  return Uint8Array.from(atob(url.slice(url.indexOf(',') + 1)), (c) => c.charCodeAt(0));
}

const CATEGORIES: [string, RegExp][] = [
  ['upload', /^POST \/images$/],
  ['lookup', /^GET \/lookup-composition$/],
  ['scene', /^GET \/scenes\//],
  ['persp', /^GET \/perspectives\//],
  ['products', /^GET \/products$/],
  ['tokens', /^GET \/rendertokens$/],
  ['POST', /^POST \/renders$/],
  ['polls', /^GET \/renders\/[^/]+$/],
  ['downloads', /^GET \/renders\/[^/]+\/(media|thumbnail)$/],
];

function world(renderProcessingMs: number) {
  const sandbox = createSandbox({ rateLimits: false, jitter: 0, renderProcessingMs, rendertokenLimit: 1000 });
  const log: string[] = [];
  const client = createClient({
    secretKey: sandbox.keys.primary,
    baseUrl: sandbox.baseUrl,
    clock: sandbox.clock,
    fetch: (request: Request) => {
      log.push(`${request.method} ${new URL(request.url).pathname.replace(/^\/v2/, '')}`);
      return sandbox.fetch(request);
    },
  });
  const { seed, clock } = sandbox;
  const job = {
    sceneReference: seed.scenes.studio,
    productReference: seed.products.print,
    perspectiveReference: seed.perspectives.studioFront,
    clock,
  };
  const used = async () => (await client.get('/rendertokens')).rendertokens.used;
  return { sandbox, client, log, job, used };
}

interface Row {
  scenario: string;
  counts: Record<string, number>;
  total: number;
  spent: number;
  expect: Record<string, number>;
  ms: number;
}

const rows: Row[] = [];

function count(log: string[]): { counts: Record<string, number>; total: number } {
  const counts: Record<string, number> = {};
  for (const [name, re] of CATEGORIES) counts[name] = log.filter((r) => re.test(r)).length;
  return { counts, total: log.length };
}

async function measure(
  scenario: string,
  renderProcessingMs: number,
  expect: Record<string, number>,
  run: (w: ReturnType<typeof world>) => Promise<void>,
  prepare?: (w: ReturnType<typeof world>) => Promise<void>,
) {
  const w = world(renderProcessingMs);
  await prepare?.(w);
  const usedBefore = await w.used();
  w.log.length = 0;
  const started = performance.now();
  await run(w);
  const ms = performance.now() - started;
  const { counts, total } = count(w.log);
  const spent = (await w.used()) - usedBefore;
  rows.push({ scenario, counts, total, spent, expect, ms });
}

const polls = (renderMs: number) => Math.ceil(renderMs / INTERVAL) + 1;
const cold = (renderMs: number) => ({
  lookup: 1,
  tokens: 1,
  POST: 1,
  polls: polls(renderMs),
  downloads: 2,
  spent: 1,
});

for (const renderMs of [1_000, 60_000, 90_000, 300_000]) {
  await measure(`cold, render ${renderMs / 1000} s`, renderMs, cold(renderMs), async (w) => {
    await renderMockup(w.client, { ...w.job, image: await w.client.uploadImage(png(1)) });
  });
}

await measure(
  'warm client (2nd image), 90 s',
  90_000,
  {
    lookup: 0,
    scene: 0,
    persp: 0,
    products: 0,
    tokens: 1,
    POST: 1,
    polls: polls(90_000),
    downloads: 2,
    spent: 1,
  },
  async (w) => {
    await renderMockup(w.client, { ...w.job, image: await w.client.uploadImage(png(2)) });
  },
  async (w) => {
    await renderMockup(w.client, { ...w.job, image: await w.client.uploadImage(png(1)) });
  },
);

await measure(
  'same pair again (cache hit)',
  90_000,
  { lookup: 0, tokens: 0, POST: 0, polls: 1, downloads: 2, spent: 0 },
  async (w) => {
    await renderMockup(w.client, { ...w.job, image: await w.client.uploadImage(png(1)) });
  },
  async (w) => {
    await renderMockup(w.client, { ...w.job, image: await w.client.uploadImage(png(1)) });
  },
);

await measure(
  '10 concurrent, same pair, 90 s',
  90_000,
  { lookup: 1, tokens: 1, POST: 1, polls: polls(90_000), downloads: 2, spent: 1 },
  async (w) => {
    const image = await w.client.uploadImage(png(1));
    await Promise.all(Array.from({ length: 10 }, () => renderMockup(w.client, { ...w.job, image })));
  },
);

const headers = ['scenario', ...CATEGORIES.map(([n]) => n), 'total', 'spent', 'ms', 'result'];
const table: string[][] = [];
let failed = 0;
for (const row of rows) {
  const misses: string[] = [];
  const cell = (name: string, value: number) => {
    const target = row.expect[name];
    if (target === undefined) return String(value);
    if (value > target) misses.push(`${name} ${value} > ${target}`);
    return value === target ? String(value) : `${value} (≤${target})`;
  };
  const cells = [
    row.scenario,
    ...CATEGORIES.map(([n]) => cell(n, row.counts[n] ?? 0)),
    String(row.total),
    cell('spent', row.spent),
    row.ms.toFixed(0),
    misses.length ? `MISSED: ${misses.join(', ')}` : 'ok',
  ];
  if (misses.length) failed++;
  table.push(cells);
}
const widths = headers.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
const line = (cells: string[]) =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log('Requests per renderMockup against the in-process sandbox (poll interval 60 s, virtual clock).');
console.log(
  'Targets: lookup 1, tokens 1, POST 1, polls ceil(render/interval)+1, downloads 2; scene/persp/products',
);
console.log(
  'are the compatibility-check reads (cached per client for 5 min); upload is the image bytes sent',
);
console.log('first. "spent" = rendertokens used; ms = wall time (mostly the sandbox drawing the PNGs).\n');
console.log(line(headers));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of table) console.log(line(r));
console.log(`\n${failed === 0 ? 'All targets met.' : `${failed} scenario(s) missed their targets.`}`);

console.log('\nA fleet: 4 worker processes × the same 50 mockups (sandbox on 127.0.0.1, real redis-server).');
const fleet = await fleetBench();
console.table(
  fleet.map((r) => ({
    setup: r.setup,
    'POST /renders': r.posts,
    'mockups delivered': `${r.fulfilled}/200`,
    'Redis events': r.events,
    ms: r.ms,
    target: r.target.exact === undefined ? `≤ ${r.target.atMost}` : `= ${r.target.exact}`,
    met: met(r) ? 'yes' : 'NO',
  })),
);
process.exit(failed === 0 && fleet.every(met) ? 0 : 1);
