// Instructions per `get()` of bench/instructions.ts's variants under callgrind, as its header describes (two
// runs of N1 and N2 calls, the difference divided by N2 − N1), split into what the code ran (the mutator) and
// what V8's garbage collector and optimizing compiler ran meanwhile.
//
// The split matters: whether a major GC (a mark-compact of the whole heap, 70–100 M instructions here) falls
// between call N1 and call N2 depends on where the old generation's limit happens to be, not on the code
// measured. At 3,000/10,000 calls one lands in the window of `on`, `offTelemetry` and `scheduler` and none in
// that of `bare` and `off` (node --trace-gc), which moves a total by 10,000–14,000 instructions a call (3–5 %),
// as much as a change is judged by. The mutator figure is free of that (not of the rest: when code gets
// optimized, and what V8 inlined, still move it by a few thousand instructions).
//
// Run (from packages/client; a few minutes per variant, valgrind installed):
//   node --import tsx bench/callgrind.ts on,off 3000 10000
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const variants = (process.argv[2] ?? 'bare,off,on').split(',');
const n1 = Number(process.argv[3] ?? 3000);
const n2 = Number(process.argv[4] ?? 10_000);
const dir = mkdtempSync(join(tmpdir(), 'callgrind-'));

// V8's collector (scavenges, marking, sweeping, the write barrier's marking side) and its compilers.
const COLLECTOR_OR_COMPILER =
  /Mark|Sweep|Scaveng|v8::internal::Heap::|Heap_|IterateObjectCache|RecordWrite|WriteBarrier|RememberedSet|MigratedSlot|LiveObject|Pretenuring|Ephemeron|ActiveSystemPages|Evacuat|heap::base|BodyDescriptor|RootVisitor|VisitRootPointer|SizeFromMap|__popcount|PagedSpace|NewSpace|MemoryChunk|Worklist|compiler::|Compile|Maglev|Parser|Scanner|AstValue|Zone::|RegisterAllocator|InstructionSelector/;

/** Total and collector-or-compiler instructions of one run of `calls` calls. */
function count(variant: string, calls: number): { total: number; gc: number } {
  const out = join(dir, `${variant}.${calls}.out`);
  execFileSync(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${out}`,
      'node',
      '--single-threaded',
      '--hash-seed=1',
      '--random-seed=1',
      '--import',
      'tsx',
      'bench/instructions.ts',
    ],
    { env: { ...process.env, BENCH_VARIANT: variant, BENCH_CALLS: String(calls) }, stdio: 'ignore' },
  );
  const annotated = execFileSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', out], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  let total = 0;
  let gc = 0;
  for (const line of annotated.split('\n')) {
    const m = /^\s*([\d,]+) \([ \d.]+%\)\s+(.*)$/.exec(line);
    if (!m?.[1] || !m[2] || m[2].includes('PROGRAM TOTALS')) continue;
    const n = Number(m[1].replaceAll(',', ''));
    total += n;
    if (COLLECTOR_OR_COMPILER.test(m[2])) gc += n;
  }
  return { total, gc };
}

console.log(`instructions per call, calls ${n1 + 1}–${n2} (callgrind)\n`);
console.log(
  `${'variant'.padEnd(14)}${'total'.padStart(10)}${'mutator'.padStart(10)}${'GC+JIT'.padStart(10)}`,
);
for (const variant of variants) {
  const a = count(variant, n1);
  const b = count(variant, n2);
  const per = (x: number, y: number) => Math.round((y - x) / (n2 - n1));
  const total = per(a.total, b.total);
  const gc = per(a.gc, b.gc);
  console.log(
    `${variant.padEnd(14)}${String(total).padStart(10)}${String(total - gc).padStart(10)}${String(gc).padStart(10)}`,
  );
}
// The profiles (tens of MB each) are only read for these sums.
rmSync(dir, { recursive: true, force: true });
