// `pnpm pack` for every publishable package (publishConfig applied, workspace: ranges replaced),
// shared by the consumer projects and the release dry run.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pool } from '../lib/pool.ts';

const run = promisify(execFile);

export interface Packed {
  name: string;
  dir: string;
  version: string;
  tarball: string;
}

export function publishable(root: string): Array<{ name: string; dir: string; version: string }> {
  return readdirSync(join(root, 'packages'))
    .map((entry) => join(root, 'packages', entry))
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter(({ pkg }) => !pkg.private)
    .map(({ dir, pkg }) => ({ name: pkg.name as string, dir, version: pkg.version as string }));
}

const destOf = (outDir: string, name: string) => join(outDir, name.replace('@', '').replace('/', '-'));

/** The tarballs an earlier `packAll(root, outDir)` left in `outDir` (pnpm test packs once for two checks). */
export function packedIn(root: string, outDir: string): Packed[] {
  return publishable(root).map((p) => {
    const file = readdirSync(destOf(outDir, p.name)).find((f) => f.endsWith('.tgz'));
    if (!file) throw new Error(`${p.name}: no tarball in ${outDir}`);
    return { ...p, tarball: join(destOf(outDir, p.name), file) };
  });
}

/** Packs every publishable package of `root` into `outDir`, two at a time. */
export async function packAll(root: string, outDir: string): Promise<Packed[]> {
  mkdirSync(outDir, { recursive: true });
  const packed = await pool(publishable(root), 2, async (p) => {
    const dest = destOf(outDir, p.name);
    mkdirSync(dest, { recursive: true });
    await run('pnpm', ['pack', '--pack-destination', dest], { cwd: p.dir, maxBuffer: 16 * 1024 * 1024 });
    const file = readdirSync(dest).find((f) => f.endsWith('.tgz'));
    if (!file) throw new Error(`${p.name}: pnpm pack wrote no tarball`);
    return { ...p, tarball: join(dest, file) };
  });
  return packed.sort((a, b) => a.name.localeCompare(b.name));
}
