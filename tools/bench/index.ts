// Runs every package benchmark (packages/*/bench/index.ts) one after another, each in its own
// process so that their timings and memory readings do not disturb each other.
// `pnpm bench` runs them all; `pnpm bench client ratelimit` runs only those; extra flags after `--` are passed on.
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
import { withBlock } from './page.ts';

const root = new URL('../..', import.meta.url).pathname;
const page = join(root, 'docs', 'benchmarks.md');
const argv = process.argv.slice(2).filter((a) => a !== '--no-docs');
const writeDocs = !process.argv.includes('--no-docs');
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

const results: Array<{ name: string; status: number | null }> = [];
for (const name of selected) {
  if (!available.includes(name)) {
    console.error(`no benchmark for "${name}" (have: ${available.join(', ')})`);
    process.exit(2);
  }
  console.log(`\n=== bench: ${name} ===`);
  const before = load();
  const started = new Date();
  const { status, output } = await run(name);
  results.push({ name, status });
  if (!writeDocs) continue;
  const flags = passthrough.length ? ` (flags: \`${passthrough.join(' ')}\`)` : '';
  const block = [
    `Written by \`pnpm bench ${name}\`${flags} on ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC: ${machine()}; load average (1 / 5 / 15 min) ${before} before, ${load()} after. Targets ${status === 0 ? 'met' : 'MISSED'}.`,
    '',
    '```text',
    output.trimEnd(),
    '```',
  ].join('\n');
  writeFileSync(page, withBlock(readFileSync(page, 'utf8'), name, block));
}
console.log('\n=== bench summary ===');
for (const r of results)
  console.log(`${r.name.padEnd(12)} ${r.status === 0 ? 'targets met' : 'TARGETS MISSED'}`);
if (writeDocs) console.log(`(runs written to ${page})`);
process.exit(results.every((r) => r.status === 0) ? 0 : 1);
