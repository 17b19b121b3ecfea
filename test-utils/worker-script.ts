// The script a test's worker process runs: its TypeScript entry and everything it imports (the workspace's
// sources and third-party packages) bundled by esbuild into one ES module, so that the process is started
// with plain `node <script>` instead of `node --import tsx <entry>`.
//
// Why: tsx resolves and transforms every module of the worker through its loader hooks on each boot, about
// 1.6 s of CPU per process on this machine; the bundled script loads in about 0.2 s, and is built once per
// test process (~0.35 s). The fleet tests boot a dozen of these in `pnpm test`'s timed step, which is on its
// critical path, and the whole command is CPU-bound on two cores.
//
// What differs from tsx: the worker's modules are one file, so `import.meta.url` in a bundled module names
// the script, not the module's source (none of the workers' import graphs reads files beside itself); the
// CommonJS `require` of bundled packages is Node's, made for the script (the banner); an import esbuild
// cannot follow (a computed name) is left to Node, which resolves it from the entry's package (see bundle).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package that holds `entry` (the nearest directory above it with a package.json). */
function packageOf(entry: string): string {
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir))
    if (existsSync(join(dir, 'package.json'))) return dir;
  throw new Error(`no package.json above ${entry}`);
}

/**
 * esbuild's executable, run once per entry: its JavaScript API keeps a service process (or, synchronous,
 * a worker thread) alive for the rest of the test process, which the leak check in test-utils/async-leaks.ts
 * reports.
 */
const ESBUILD = join(
  dirname(createRequire(import.meta.url).resolve('esbuild/package.json')),
  'bin',
  'esbuild',
);

const scripts = new Map<string, string>();

/**
 * The path of `entry`'s bundled script (built on the first call in this process; later calls share it).
 * Start it with `spawn(process.execPath, [script, ...args])`.
 */
export function workerScript(entry: string | URL): string {
  const path = typeof entry === 'string' ? entry : fileURLToPath(entry);
  let script = scripts.get(path);
  if (!script) {
    script = bundle(path);
    scripts.set(path, script);
  }
  return script;
}

function bundle(entry: string): string {
  // In the entry's package, under its node_modules (ignored by git): what the script still imports at run
  // time (a dynamic import of a name esbuild cannot follow, such as an optional `redis`) resolves as it would
  // from the entry. One file per entry, replaced on each build.
  const pkg = packageOf(entry);
  const out = join(pkg, 'node_modules', '.cache', 'pp-worker-scripts');
  const name = relative(pkg, entry)
    .replace(/\.[cm]?ts$/, '')
    .replaceAll(/[/\\]/g, '-');
  mkdirSync(out, { recursive: true });
  const script = join(out, `${name}.mjs`);
  // Named for the entry: two test processes that bundle the same entry write the same file, each through a
  // rename, so that neither's worker reads a half-written script.
  const partial = `${script}.${process.pid}.tmp.mjs`;
  execFileSync(
    ESBUILD,
    [
      entry,
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--target=node20',
      '--log-level=error',
      `--outfile=${partial}`,
      // A bundled CommonJS package that requires a Node built-in (node-redis does) needs a `require`.
      `--banner:js=import { createRequire as __ppRequire } from 'node:module'; const require = __ppRequire(import.meta.url);`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  renameSync(partial, script);
  return script;
}
