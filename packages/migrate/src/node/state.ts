import { rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from './files.ts';

/**
 * Resume state of a `skus` run: the last input line whose result is in the output file, and the output
 * size at that point. Written atomically (temp file + rename) as the run goes; on resume the output is
 * cut back to that size and reading starts after that line.
 */
export interface RunState {
  version: 1;
  command: string;
  input: string;
  inputSize: number;
  inputMtimeMs: number;
  output: string;
  /** Every input line up to and including this one is in the output. */
  line: number;
  outputBytes: number;
  counts: Record<string, number>;
  done: boolean;
}

export async function fingerprint(
  input: string,
): Promise<{ input: string; inputSize: number; inputMtimeMs: number }> {
  const s = await stat(input);
  return { input: resolve(input), inputSize: s.size, inputMtimeMs: Math.trunc(s.mtimeMs) };
}

export async function readState(path: string): Promise<RunState | undefined> {
  try {
    const { readFile } = await import('node:fs/promises');
    return JSON.parse(await readFile(path, 'utf8')) as RunState;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(
      `The state file ${path} is unreadable (${(e as Error).message}); delete it or pass --restart`,
    );
  }
}

export async function writeState(path: string, state: RunState): Promise<void> {
  const tmp = `${path}.tmp`;
  await writeFile(tmp, JSON.stringify(state));
  await rename(tmp, path);
}

export async function removeState(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** Cuts the output back to what the state says was complete (anything after is a partial write). */
export async function rewindOutput(path: string, bytes: number): Promise<void> {
  try {
    const s = await stat(path);
    if (s.size > bytes) await truncate(path, bytes);
    if (s.size < bytes)
      throw new UsageError(`The output ${path} is shorter than its state file says; pass --restart`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      if (bytes > 0)
        throw new UsageError(`The output ${path} of the interrupted run is missing; pass --restart`);
      return;
    }
    throw e;
  }
}

/**
 * Takes `<state>.lock` (holding our pid) so two runs cannot write the same output and state at once.
 * A lock left by a process that no longer exists is taken over. Returns the release function.
 */
export async function acquireLock(statePath: string): Promise<() => Promise<void>> {
  const { open, readFile, rm: remove } = await import('node:fs/promises');
  const lock = `${statePath}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(lock, 'wx');
      await fh.write(String(process.pid));
      await fh.close();
      return () => remove(lock, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
      let alive = false;
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid) {
        try {
          process.kill(pid, 0);
          alive = true;
        } catch (err) {
          alive = (err as NodeJS.ErrnoException).code === 'EPERM';
        }
      }
      if (alive)
        throw new UsageError(`Another run (pid ${pid}) is using ${statePath}; wait for it or stop it first`);
      await remove(lock, { force: true });
    }
  }
  throw new UsageError(`Could not lock ${statePath}`);
}
