// pnpm release:dry-run — everything a release does except publishing, in a throwaway copy of the repo:
//   1. `pnpm build` here (unless --no-build), then copy the tracked files and each package's dist/ to a
//      temp dir;
//   2. `changeset version` there (versions, internal ranges, CHANGELOG.md from .changeset/*.md);
//   3. `pnpm pack` every package (publishConfig applied, workspace: ranges replaced);
//   4. check each tarball: README.md, CHANGELOG.md (with the new version), LICENSE, only what `files`
//      allows, `engines`, every exports/main/types/typesVersions/bin target present, no workspace:
//      ranges left;
//   5. npm-install the tarballs into a scratch project and run a script that imports and requires every
//      entry point of every package (ESM and CommonJS builds, the same names), calls the sandbox through the
//      client, and runs both bins.
// Nothing is published and the working tree is not touched. --keep keeps the temp dir.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { installAndTest } from '../consumers/install.ts';
import { type Packed, packAll, publishable } from '../consumers/pack.ts';

const root = new URL('../..', import.meta.url).pathname;
const args = process.argv.slice(2);
const log = (line: string) => console.error(`[release] ${line}`);

interface Manifest {
  name: string;
  version: string;
  files?: string[];
  engines?: { node?: string };
  exports?: unknown;
  types?: string;
  main?: string;
  typesVersions?: Record<string, Record<string, string[]>>;
  bin?: string | Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** Copies the tracked files (working-tree content) and each package's dist/ into `dest`. */
function copyRepo(dest: string): void {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of tracked) {
    const from = join(root, file);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    cpSync(from, join(dest, file));
  }
  for (const p of publishable(root)) {
    const dist = join(p.dir, 'dist');
    if (!existsSync(dist)) throw new Error(`${p.name}: no dist/ (run pnpm build)`);
    cpSync(dist, join(dest, 'packages', basename(p.dir), 'dist'), { recursive: true });
  }
}

/** `pnpm pack` reads sibling manifests through node_modules to replace workspace: ranges; link them. */
function linkSiblings(repo: string): void {
  const packages = publishable(repo);
  for (const p of packages) {
    const scope = join(p.dir, 'node_modules', '@partner-print');
    mkdirSync(scope, { recursive: true });
    for (const q of packages) {
      if (q.dir !== p.dir)
        symlinkSync(join('..', '..', '..', basename(q.dir)), join(scope, q.name.split('/')[1]!));
    }
  }
}

function exportTargets(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) exportTargets(v, out);
  return out;
}

const norm = (p: string) => p.replace(/^\.\//, '');

/** Problems with one tarball, from its file list and packed package.json. */
function checkTarball(
  packed: Packed,
  rootEngines: string,
): { problems: string[]; files: string[]; manifest: Manifest } {
  const files = execFileSync('tar', ['-tzf', packed.tarball], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, ''));
  const manifest = JSON.parse(
    execFileSync('tar', ['-xzOf', packed.tarball, 'package/package.json'], { encoding: 'utf8' }),
  ) as Manifest;
  const changelog = files.includes('CHANGELOG.md')
    ? execFileSync('tar', ['-xzOf', packed.tarball, 'package/CHANGELOG.md'], { encoding: 'utf8' })
    : '';
  const problems: string[] = [];
  for (const required of ['README.md', 'CHANGELOG.md', 'LICENSE', 'package.json']) {
    if (!files.includes(required)) problems.push(`${required} missing`);
  }
  if (changelog && !changelog.includes(`## ${manifest.version}`)) {
    problems.push(`CHANGELOG.md has no "## ${manifest.version}" section`);
  }
  const allowed = (manifest.files ?? []).map(norm);
  if (allowed.length === 0) problems.push('no "files" field');
  const always = new Set(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']);
  const stray = files.filter((f) => !always.has(f) && !allowed.some((a) => f === a || f.startsWith(`${a}/`)));
  if (stray.length > 0) problems.push(`outside "files": ${stray.join(', ')}`);
  const leaked = files.filter((f) =>
    /(^|\/)(src|test|bench)\/|\.test\.|tsconfig|tsdown\.config|vitest\.config/.test(f),
  );
  if (leaked.length > 0) problems.push(`development files packed: ${leaked.join(', ')}`);
  if (manifest.engines?.node !== rootEngines) {
    problems.push(`engines.node is ${JSON.stringify(manifest.engines?.node)}, expected "${rootEngines}"`);
  }
  const bins = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {});
  // node10's (TypeScript's `moduleResolution: node`): the root's `main` and `types`, each subpath's typesVersions.
  const node10 = [
    ...[manifest.main, manifest.types].filter((t) => t !== undefined),
    ...Object.values(manifest.typesVersions ?? {}).flatMap((paths) => Object.values(paths).flat()),
  ];
  const targets = [...exportTargets(manifest.exports), ...bins, ...node10];
  for (const t of targets.map(norm)) {
    if (!files.includes(t)) problems.push(`target ${t} is not in the tarball`);
    if (t.startsWith('src/')) problems.push(`target ${t} points at sources (publishConfig not applied?)`);
  }
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'] as const) {
    for (const [dep, range] of Object.entries(manifest[field] ?? {})) {
      if (range.startsWith('workspace:')) problems.push(`${field}.${dep} is still ${range}`);
    }
  }
  return { problems, files, manifest };
}

/** The scratch project: imports every entry point of every package, a sandbox call, the bins. */
function scratchProject(dir: string, manifests: Manifest[]): void {
  mkdirSync(dir, { recursive: true });
  const entries = manifests.flatMap((m) =>
    Object.keys((m.exports ?? {}) as Record<string, unknown>)
      .filter((k) => k !== './package.json')
      .map((k) => (k === '.' ? m.name : `${m.name}/${k.slice(2)}`)),
  );
  const bins = manifests.flatMap((m) => (typeof m.bin === 'object' ? Object.keys(m.bin) : []));
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify(
      {
        name: 'release-scratch',
        private: true,
        type: 'module',
        scripts: { test: ['node index.js', ...bins.map((b) => `${b} --help > /dev/null`)].join(' && ') },
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(
    join(dir, 'index.js'),
    `import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const entries = ${JSON.stringify(entries)};
for (const entry of entries) {
  const mod = await import(entry);
  assert.ok(Object.keys(mod).length > 0, entry + ' has no exports');
  // The CommonJS build (the require condition): its own file, with the ESM build's names.
  assert.match(require.resolve(entry), /\\.cjs$/, entry + ' has no CommonJS build');
  assert.deepEqual(Object.keys(require(entry)).sort(), Object.keys(mod).sort(), entry + ': CommonJS names differ');
}
const { createSandbox } = await import('@partner-print/sandbox');
const { createClient } = await import('@partner-print/client');
const sandbox = createSandbox();
const client = createClient({
  secretKey: sandbox.keys.primary,
  baseUrl: sandbox.baseUrl,
  fetch: (request) => sandbox.fetch(request),
  clock: sandbox.clock,
});
const { products } = await client.get('/products');
assert.ok(products.length > 0);
console.log('imported ' + entries.length + ' entry points; ' + products.length + ' products from the sandbox');
`,
  );
}

async function main(): Promise<void> {
  const started = Date.now();
  if (!args.includes('--no-build')) {
    log('pnpm build');
    execFileSync('pnpm', ['build', '--output-logs=errors-only'], { cwd: root, stdio: 'inherit' });
  }
  const tmp = mkdtempSync(join(tmpdir(), 'pp-release-'));
  const repo = join(tmp, 'repo');
  log(`copying the repository to ${repo}`);
  copyRepo(repo);

  log('changeset version');
  const changeset = join(root, 'node_modules', '@changesets', 'cli', 'bin.js');
  execFileSync(process.execPath, [changeset, 'version'], {
    cwd: repo,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const rootEngines =
    (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as Manifest).engines?.node ?? '';

  linkSiblings(repo);
  log('pnpm pack');
  const tarballs = await packAll(repo, join(tmp, 'tarballs'));

  const failures: string[] = [];
  const manifests: Manifest[] = [];
  console.log('\n| Package | Version | Files | README | CHANGELOG | LICENSE | engines | Problems |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const packed of tarballs) {
    const { problems, files, manifest } = checkTarball(packed, rootEngines);
    manifests.push(manifest);
    const has = (f: string) => (files.includes(f) ? '✅' : '❌');
    console.log(
      `| ${packed.name} | ${manifest.version} | ${files.length} | ${has('README.md')} | ${has('CHANGELOG.md')} | ${has('LICENSE')} | ${manifest.engines?.node ?? '–'} | ${problems.length === 0 ? 'none' : problems.join('; ')} |`,
    );
    for (const p of problems) failures.push(`${packed.name}: ${p}`);
  }

  log('installing the tarballs into a scratch project');
  const scratch = join(tmp, 'scratch');
  scratchProject(scratch, manifests);
  const outcome = await installAndTest('scratch', scratch, tarballs);
  console.log(`\nscratch project: ${outcome.ok ? 'ok' : 'FAIL'} (${Math.round(outcome.ms / 1000)} s)`);
  console.log(outcome.output.trim().split('\n').slice(-20).join('\n'));
  if (!outcome.ok) failures.push('the scratch project failed');

  if (args.includes('--keep')) log(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
  if (failures.length > 0) {
    console.log(`\nrelease dry run: ${failures.length} problem(s)\n- ${failures.join('\n- ')}`);
    process.exit(1);
  }
  console.log(`\nrelease dry run: ready to publish (${Math.round((Date.now() - started) / 1000)} s)`);
}

await main();
