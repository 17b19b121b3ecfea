import { execFile } from 'node:child_process';
import path from 'node:path';

export const TOOLS = path.resolve(import.meta.dirname, '..');
export const ROOT = path.resolve(TOOLS, '..');

export function bin(dir: string, name: string): string {
  return path.join(dir, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
}

export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion; a non-zero exit is a result, not an exception. */
export function exec(file: string, args: string[], options: { cwd?: string } = {}): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd ?? ROOT,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}

export interface ValidatorReport {
  name: string;
  /** Findings: each one fails the run. */
  findings: string[];
  /** What was checked, for the log. */
  notes: string[];
  ms: number;
}
