// Runs every package benchmark (packages/*/bench/index.ts) one after another, each in its own
// process so that their timings and memory readings do not disturb each other.
// `pnpm bench` runs them all; `pnpm bench client ratelimit` runs only those; extra flags after `--` are passed on.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const names = dash === -1 ? argv : argv.slice(0, dash);
const passthrough = dash === -1 ? [] : argv.slice(dash + 1);
const available = readdirSync(join(root, 'packages')).filter((name) =>
  existsSync(join(root, 'packages', name, 'bench', 'index.ts')),
);
const selected = names.length > 0 ? names : available;
const results: Array<{ name: string; status: number | null }> = [];
for (const name of selected) {
  if (!available.includes(name)) {
    console.error(`no benchmark for "${name}" (have: ${available.join(', ')})`);
    process.exit(2);
  }
  console.log(`\n=== bench: ${name} ===`);
  const run = spawnSync('npx', ['tsx', join('bench', 'index.ts'), ...passthrough], {
    cwd: join(root, 'packages', name),
    stdio: 'inherit',
  });
  results.push({ name, status: run.status });
}
console.log('\n=== bench summary ===');
for (const r of results)
  console.log(`${r.name.padEnd(12)} ${r.status === 0 ? 'targets met' : 'TARGETS MISSED'}`);
process.exit(results.every((r) => r.status === 0) ? 0 : 1);
