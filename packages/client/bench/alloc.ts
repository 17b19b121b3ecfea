// Where the bytes a `get()` allocates come from: V8's sampling heap profiler (objects collected since
// included) over N sequential calls of one variant on a prepared response, each allocating function's bytes
// per call, largest first. Sampled, so each figure is known to a few per cent; the total agrees with
// bench/cost.ts.
//
// Run: node --import tsx bench/alloc.ts [variant] [N]   (variants: bare, scheduler, off, offTelemetry, on)
// tsx puts a file on one line: for the line of each site, run an esbuild bundle of this file instead
//   (pnpm exec esbuild bench/alloc.ts --bundle --platform=node --format=esm --outfile=/tmp/alloc.mjs).
import { Session } from 'node:inspector/promises';
import { getVariants, preparedGet } from './fixture.ts';

const name = process.argv[2] ?? 'off';
const N = Number(process.argv[3] ?? 20_000);
const prepared = await preparedGet();

const makers = getVariants(prepared, prepared.transport);
const make = makers[name];
if (!make) throw new Error(`variant: one of ${Object.keys(makers).join(', ')}`);
const run = make();
for (let i = 0; i < 3000; i++) await run(); // warm up: optimized code allocates less

const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 64,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
for (let i = 0; i < N; i++) await run();
const { profile } = await session.post('HeapProfiler.stopSampling');

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: Node[];
}
const bySite = new Map<string, number>();
let total = 0;
const walk = (node: Node) => {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const file = url.replace(/^.*\/(node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?)?/, '');
  const site = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}:${columnNumber + 1}`;
  if (node.selfSize) bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
  total += node.selfSize;
  for (const child of node.children) walk(child);
};
walk(profile.head as unknown as Node);
console.log(`${name}: ${(total / N).toFixed(0)} bytes per call (${N} calls)`);
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]))
  if (bytes / N >= 8) console.log(`${(bytes / N).toFixed(0).padStart(7)}  ${site}`);
