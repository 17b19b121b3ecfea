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

/** One step (install, test): whether it passed, and what it printed. */
export interface Step {
  ok: boolean;
  output: string;
}

/** A step's failure as text: what the command printed, then why it failed. */
function failure(error: unknown): string {
  const e = error as Error & { stdout?: string; stderr?: string };
  return `${e.stdout ?? ''}${e.stderr ?? ''}\n${e.message}`;
}

/** npm install of the tarballs into `dir` (third-party dependencies from the registry), lockfile checked. */
export async function install(dir: string, tarballs: Packed[]): Promise<Step> {
  try {
    const { stdout, stderr } = await run(
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
    const lockProblem = checkLock(dir);
    return { ok: !lockProblem, output: `${stdout}${stderr}${lockProblem ?? ''}` };
  } catch (error) {
    return { ok: false, output: failure(error) };
  }
}

/** The project's `npm test`, once its dependencies are installed. */
async function runTest(dir: string): Promise<Step> {
  try {
    const { stdout, stderr } = await run('npm', ['test', '--silent'], {
      cwd: dir,
      maxBuffer: 32 * 1024 * 1024,
      timeout: 120_000,
    });
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    return { ok: false, output: failure(error) };
  }
}

/**
 * Installs the tarballs into `dir` (or, given a function, installs as it does: the consumer projects share
 * installs) and runs the project's test once the install succeeded.
 */
export async function installAndTest(
  project: string,
  dir: string,
  tarballs: Packed[] | ((dir: string) => Promise<Step>),
): Promise<Outcome> {
  const t = Date.now();
  const installed = await (typeof tarballs === 'function' ? tarballs(dir) : install(dir, tarballs));
  const tested = installed.ok ? await runTest(dir) : { ok: false, output: '' };
  return { name: project, ok: tested.ok, ms: Date.now() - t, output: installed.output + tested.output };
}
