// Runs every package benchmark (packages/*/bench/index.ts) one after another, each in its own
// process so that their timings and memory readings do not disturb each other.
// `pnpm bench` runs them all; `pnpm bench client ratelimit` runs only those; extra flags after `--` are passed on.
// `--runs=N` runs each N times and writes every run (the spread) into the page.
//
// Each run's output is also written into docs/benchmarks.md, in the package's generated block (between
// `<!-- pnpm bench: <name> -->` and `<!-- end pnpm bench: <name> -->`, added at the end of the package's
// section when missing), with the machine, the load average before and after, and whether the targets were
// met: the page always holds the last measured run next to the section's targets table. `--no-docs` leaves
// the page alone.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { type BenchRun, runsBlock, withBlock } from './page.ts';

const root = new URL('../..', import.meta.url).pathname;
const page = join(root, 'docs', 'benchmarks.md');
// This script's own flags, wherever they are (before or after `--`): no package bench has them.
const own = (a: string) => a === '--no-docs' || a.startsWith('--runs=');
const argv = process.argv.slice(2).filter((a) => !own(a));
const writeDocs = !process.argv.includes('--no-docs');
// `--runs=N`: each package's bench N times, one after another; its targets are met only if met in every run.
const runsArg = process.argv.find((a) => a.startsWith('--runs='));
const runs = runsArg ? Number(runsArg.slice('--runs='.length)) : 1;
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs takes a whole number of runs, at least 1 (got "${runsArg}")`);
  process.exit(2);
}
const dash = argv.indexOf('--');
const names = dash === -1 ? argv : argv.slice(0, dash);
const passthrough = dash === -1 ? [] : argv.slice(dash + 1);
const available = readdirSync(join(root, 'packages')).filter((name) =>
  existsSync(join(root, 'packages', name, 'bench', 'index.ts')),
);
const selected = names.length > 0 ? names : available;

/** Runs one package's bench, its output shown as it comes and kept. */
function run(name: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['tsx', join('bench', 'index.ts'), ...passthrough], {
      cwd: join(root, 'packages', name),
      stdio: ['inherit', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    child.on('close', (status) => resolve({ status, output }));
  });
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const machine = () => {
  const cores = cpus();
  return `${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node.js ${process.version}`;
};

const results: Array<{ name: string; met: number }> = [];
for (const name of selected) {
  if (!available.includes(name)) {
    console.error(`no benchmark for "${name}" (have: ${available.join(', ')})`);
    process.exit(2);
  }
  const started = new Date();
  const done: BenchRun[] = [];
  for (let i = 1; i <= runs; i++) {
    console.log(`\n=== bench: ${name}${runs > 1 ? ` (run ${i} of ${runs})` : ''} ===`);
    const loadBefore = load();
    const { status, output } = await run(name);
    done.push({ status, output, loadBefore, loadAfter: load() });
  }
  results.push({ name, met: done.filter((r) => r.status === 0).length });
  if (!writeDocs) continue;
  const flags = [
    ...(runs > 1 ? [`--runs=${runs}`] : []),
    ...(passthrough.length ? ['--', ...passthrough] : []),
  ];
  const command = `pnpm bench ${name}${flags.length ? ` ${flags.join(' ')}` : ''}`;
  writeFileSync(
    page,
    withBlock(readFileSync(page, 'utf8'), name, runsBlock(command, started, machine(), done)),
  );
}
console.log('\n=== bench summary ===');
for (const r of results) {
  const verdict = r.met === runs ? 'targets met' : 'TARGETS MISSED';
  console.log(`${r.name.padEnd(12)} ${verdict}${runs > 1 ? ` (met in ${r.met} of ${runs} runs)` : ''}`);
}
if (writeDocs) console.log(`(runs written to ${page})`);
process.exit(results.every((r) => r.met === runs) ? 0 : 1);
