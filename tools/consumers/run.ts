// pnpm test:consumers — real consumer setups (in the spirit of stripe-node's testProjects) against the
// packed tarballs: builds, packs every package, copies each project in tools/consumers/<name> into a
// temp dir, installs the tarballs there with npm (third-party dependencies come from the registry) and
// runs the project's `test` script (tsc, node, a bundler). Projects that declare the same third-party
// dependencies get the same tree from npm: one install serves them all (its node_modules linked into each).
//
//   pnpm test:consumers                 every project
//   pnpm test:consumers ts-node16       only these
//   pnpm test:consumers --no-build      skip `pnpm build` (dist/ must be current)
//   pnpm test:consumers --keep          keep the temp dir (printed)
//   pnpm test:consumers --tarballs DIR  use the tarballs `check:packages --keep-tarballs DIR` packed
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pool } from '../lib/pool.ts';
import { install, installAndTest, type Outcome, type Step } from './install.ts';
import { type Packed, packAll, packedIn } from './pack.ts';

const root = new URL('../..', import.meta.url).pathname;
const here = new URL('.', import.meta.url).pathname;
const args = process.argv.slice(2);
const tarballsAt = args.indexOf('--tarballs');
const only = args.filter((a, i) => !a.startsWith('--') && (tarballsAt < 0 || i !== tarballsAt + 1));
const log = (line: string) => console.error(`[consumers] ${line}`);

/** What npm installs into a project besides the tarballs: its declared third-party dependencies. */
function dependenciesOf(name: string): string {
  const pkg = JSON.parse(readFileSync(join(here, name, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  return JSON.stringify([pkg.dependencies ?? {}, pkg.devDependencies ?? {}]);
}

/**
 * Installs into each project, once per set of third-party dependencies: the first project of a set gets
 * the install, the others a link to its node_modules (the same tree npm would have made for them).
 */
function installer(tarballs: Packed[]): (name: string, dir: string) => Promise<Step> {
  const installs = new Map<string, { dir: string; done: Promise<Step> }>();
  return async (name, dir) => {
    const key = dependenciesOf(name);
    const first = installs.get(key);
    if (!first) {
      const done = install(dir, tarballs);
      installs.set(key, { dir, done });
      return done;
    }
    const { ok, output } = await first.done;
    if (ok) symlinkSync(join(first.dir, 'node_modules'), join(dir, 'node_modules'), 'dir');
    return { ok, output: ok ? '' : output };
  };
}

/** Copies the project into `dir`, installs (or links) its dependencies and runs its test. */
async function consume(
  name: string,
  dir: string,
  installInto: ReturnType<typeof installer>,
): Promise<Outcome> {
  cpSync(join(here, name), dir, {
    recursive: true,
    filter: (src) => !/(^|\/)(node_modules|dist)(\/|$)/.test(src.slice(here.length)),
  });
  if (name.startsWith('ts-')) cpSync(join(here, 'shared', 'web-api.ts'), join(dir, 'src', 'web-api.ts'));
  return installAndTest(name, dir, (into) => installInto(name, into));
}

async function main(): Promise<void> {
  const started = Date.now();
  if (!args.includes('--no-build')) {
    log('pnpm build');
    execFileSync('pnpm', ['build', '--output-logs=errors-only'], { cwd: root, stdio: 'inherit' });
  }
  const projects = readdirSync(here)
    .filter((name) => statSync(join(here, name)).isDirectory() && !['node_modules', 'shared'].includes(name))
    .filter((name) => only.length === 0 || only.includes(name));
  const tmp = mkdtempSync(join(tmpdir(), 'pp-consumers-'));
  const packed = tarballsAt >= 0 ? args[tarballsAt + 1] : undefined;
  log(packed ? `the tarballs in ${packed}` : `packing into ${tmp}`);
  const tarballs = packed ? packedIn(root, packed) : await packAll(root, join(tmp, 'tarballs'));
  log(`packed ${tarballs.map((p) => p.tarball.split('/').at(-1)).join(', ')}`);

  // The type-checking projects take longest: start them first.
  const queue = [...projects].sort((a, b) => Number(b.startsWith('ts-')) - Number(a.startsWith('ts-')));
  const installInto = installer(tarballs);
  const outcomes = await pool(queue, 3, async (name) => {
    const outcome = await consume(name, join(tmp, name), installInto);
    log(`${name}: ${outcome.ok ? 'ok' : 'FAIL'} (${Math.round(outcome.ms / 1000)} s)`);
    return outcome;
  });
  outcomes.sort((a, b) => projects.indexOf(a.name) - projects.indexOf(b.name));

  console.log('\n| Consumer project | Result | Time |\n|---|---|---|');
  for (const o of outcomes)
    console.log(`| ${o.name} | ${o.ok ? '✅ ok' : '❌ FAIL'} | ${Math.round(o.ms / 1000)} s |`);
  for (const o of outcomes.filter((x) => !x.ok))
    console.log(`\n--- ${o.name}\n${o.output.trim().slice(-6000)}`);
  if (args.includes('--keep')) log(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
  const ok = outcomes.every((o) => o.ok);
  console.log(
    `\nconsumers: ${ok ? 'all passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  process.exit(ok ? 0 : 1);
}

await main();
