// Installs the packed tarballs into a scratch consumer project with npm and runs its `test` script.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Packed } from './pack.ts';

const run = promisify(execFile);

export interface Outcome {
  name: string;
  ok: boolean;
  ms: number;
  output: string;
}

/** npm must have taken every @partner-print/* package from the tarballs, never from the registry. */
function checkLock(dir: string): string | undefined {
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { resolved?: string; version?: string }>;
  };
  const bad = Object.entries(lock.packages).filter(
    ([path, entry]) => /node_modules\/@partner-print\//.test(path) && !entry.resolved?.startsWith('file:'),
  );
  return bad.length > 0 ? `not from the tarballs: ${bad.map(([p]) => p).join(', ')}` : undefined;
}

export async function installAndTest(project: string, dir: string, tarballs: Packed[]): Promise<Outcome> {
  const t = Date.now();
  let output = '';
  try {
    const install = await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--loglevel=error',
        ...tarballs.map((p) => p.tarball),
      ],
      { cwd: dir, maxBuffer: 32 * 1024 * 1024 },
    );
    output += install.stdout + install.stderr;
    const lockProblem = checkLock(dir);
    if (lockProblem) throw Object.assign(new Error(lockProblem), { stdout: '', stderr: '' });
    const test = await run('npm', ['test', '--silent'], {
      cwd: dir,
      maxBuffer: 32 * 1024 * 1024,
      timeout: 120_000,
    });
    output += test.stdout + test.stderr;
    return { name: project, ok: true, ms: Date.now() - t, output };
  } catch (error) {
    const e = error as Error & { stdout?: string; stderr?: string };
    output += `${e.stdout ?? ''}${e.stderr ?? ''}\n${e.message}`;
    return { name: project, ok: false, ms: Date.now() - t, output };
  }
}
