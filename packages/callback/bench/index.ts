// Parse throughput of the legacy callback, as a ratio to a bare URLSearchParams read of the same
// URL measured in the same run (the anchor), so the target holds on any machine.
import { buildCallbackUrl, parseOrderUpdatedCallback } from '../src/index.ts';
import { fleetBench } from './fleet.ts';
import { stormFigures } from './storm.ts';

const TARGETS = {
  /** parse ops/s ÷ anchor ops/s, typical notification: at most ~3× the cost of reading the params. */
  typical: 0.3,
  /** Same with 20 partner parameters on the configured URL. */
  withExtra: 0.3,
};

const typical = buildCallbackUrl('https://partner.example/hooks/print?tenant=eu', {
  environment: 'prod',
  orderReference: 'ACME-100234',
  orderReferenceV2: 'Order_01JABCDEFGHJKMNPQRSTVWXYZ0',
  storeCode: 'ACME',
  customReference: 'shop-order-42',
});
const configured = new URL('https://partner.example/hooks/print');
for (let i = 0; i < 20; i++) configured.searchParams.append(`p${i}`, `value ${i}`);
const withExtra = buildCallbackUrl(configured, {
  environment: 'prod',
  orderReference: 'ACME-100234',
  orderReferenceV2: 'Order_01JABCDEFGHJKMNPQRSTVWXYZ0',
  storeCode: 'ACME',
  viaStoreCode: 'INTEG',
});

const NAMES = ['environment', 'order_reference', 'order_reference_v2', 'store_code', 'custom_reference'];
let sink = 0;

/** The anchor: what a hand-written receiver does at minimum. */
function anchor(href: string) {
  const params = new URL(href).searchParams;
  for (const name of NAMES) sink += params.get(name)?.length ?? 0;
}
function parse(href: string) {
  const result = parseOrderUpdatedCallback(href);
  if (!result.ok) throw new Error('benchmark input must parse');
  sink += result.value.orderReferenceV2.length;
}

/** Operations per second of `fn` over a time slice. */
function measure(fn: (href: string) => void, href: string, ms: number): number {
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 500; i++) fn(href);
    ops += 500;
    now = performance.now();
  }
  return (ops * 1000) / (now - start);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const quick = process.argv.includes('--quick');
const rounds = quick ? 3 : 9;
const slice = quick ? 50 : 150;
const rows: Array<{ case: string; anchor: number; parse: number; ratio: number; target: number }> = [];
for (const [name, href] of [
  ['typical', typical],
  ['withExtra', withExtra],
] as const) {
  measure(anchor, href, 100); // warm-up
  measure(parse, href, 100);
  const a: number[] = [];
  const p: number[] = [];
  // Interleaved rounds, so drift in machine speed hits both sides alike.
  for (let r = 0; r < rounds; r++) {
    a.push(measure(anchor, href, slice));
    p.push(measure(parse, href, slice));
  }
  const anchorOps = median(a);
  const parseOps = median(p);
  rows.push({
    case: name,
    anchor: anchorOps,
    parse: parseOps,
    ratio: parseOps / anchorOps,
    target: TARGETS[name],
  });
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
console.log('@partner-print/callback — parse throughput vs a bare URLSearchParams read (same run)');
console.table(
  rows.map((r) => ({
    case: r.case,
    'anchor ops/s': fmt(r.anchor),
    'parse ops/s': fmt(r.parse),
    ratio: r.ratio.toFixed(2),
    target: `≥ ${r.target.toFixed(2)}`,
    met: r.ratio >= r.target ? 'yes' : 'NO',
  })),
);
if (sink === 0) console.log('(sink)');

console.log(
  '\nA fleet: 4 receiver processes × 1,000 notifications for 10 orders per burst (window 1 s, real redis-server)',
);
const fleet = await fleetBench(quick ? 1 : 3);
console.table(
  fleet.map((r) => ({
    setup: r.setup,
    burst: r.burst,
    'max fetches/order': r.maxPerOrder,
    'fetches (10 orders)': r.total,
    answered: r.answered,
    lost: r.lost,
    'Redis events': r.events,
    ms: r.ms,
    target: `≤ ${r.target}`,
    met: r.maxPerOrder <= r.target && r.lost === 0 ? 'yes' : 'NO',
  })),
);
const fleetMet = fleet.every((r) => r.maxPerOrder <= r.target && r.lost === 0);

console.log(
  '\nOne process, default options: 1,000 notifications for 10 orders over 2 s, each fetch 50 ms (manual clock)',
);
const STORM_TARGET = 3;
const storm = [
  { options: 'defaults (windowMs 1000)', ...(await stormFigures()) },
  { options: 'windowMs: 0', ...(await stormFigures(0)) },
];
console.table(
  storm.map((r) => ({
    options: r.options,
    'max fetches/order': r.maxPerOrder,
    'fetches (10 orders)': r.total,
    'longest answer (ms)': r.maxAnswerMs,
    target: r === storm[0] ? `≤ ${STORM_TARGET}` : '(anchor)',
    met: r === storm[0] ? (r.maxPerOrder <= STORM_TARGET ? 'yes' : 'NO') : '',
  })),
);
const stormMet = (storm[0]?.maxPerOrder ?? Number.POSITIVE_INFINITY) <= STORM_TARGET;
process.exit(rows.every((r) => r.ratio >= r.target) && fleetMet && stormMet ? 0 : 1);
