// Runtimes installed from npm into .tmp/runtimes/<name> (gitignored) the first time they are needed.
// Versions are pinned so that the matrix is reproducible; bump them here.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const cacheDir = join(new URL('../..', import.meta.url).pathname, '.tmp', 'runtimes');

export interface Installable {
  /** Cache folder name under .tmp/runtimes. */
  dir: string;
  pkg: string;
  version: string;
  /** The file that must exist after the install, relative to the cache folder. */
  bin: string;
}

export const RUNTIMES = {
  node22: { dir: 'node22', pkg: 'node', version: '22.23.3', bin: 'node_modules/node/bin/node' },
  node24: { dir: 'node24', pkg: 'node', version: '24.21.0', bin: 'node_modules/node/bin/node' },
  bun: { dir: 'bun', pkg: 'bun', version: '1.4.5', bin: 'node_modules/bun/bin/bun.exe' },
  deno: { dir: 'deno', pkg: 'deno', version: '2.9.6', bin: 'node_modules/deno/deno' },
  // The last miniflare whose engines allow Node 20 (later ones need Node >= 22); it brings workerd.
  miniflare: {
    dir: 'miniflare',
    pkg: 'miniflare',
    version: '4.20260426.0',
    bin: 'node_modules/miniflare/dist/src/index.js',
  },
} satisfies Record<string, Installable>;

function installedVersion(r: Installable): string | undefined {
  const manifest = join(cacheDir, r.dir, 'node_modules', r.pkg, 'package.json');
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** Installs the runtime unless the pinned version is already cached; returns the binary's path. */
export async function ensure(r: Installable, log: (line: string) => void): Promise<string> {
  const dir = join(cacheDir, r.dir);
  const bin = join(dir, r.bin);
  if (installedVersion(r) === r.version && existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  log(`installing ${r.pkg}@${r.version} into ${dir}`);
  await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--save-exact',
      '--loglevel=error',
      '--prefix',
      dir,
      `${r.pkg}@${r.version}`,
    ],
    { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
  );
  if (!existsSync(bin)) throw new Error(`${r.pkg}@${r.version} installed, but ${bin} is missing`);
  return bin;
}
