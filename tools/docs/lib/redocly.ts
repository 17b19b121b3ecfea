import { execFileSync } from 'node:child_process';
import { PATHS } from './paths.ts';

/** Runs the workspace's pinned @redocly/cli with telemetry and update checks off. */
export function redocly(args: string[]): string {
  try {
    return execFileSync(PATHS.redocly, args, {
      cwd: PATHS.root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        NO_UPDATE_NOTIFIER: '1',
        NODE_NO_WARNINGS: '1',
      },
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`redocly ${args[0]} failed:\n${e.stderr ?? ''}${e.stdout ?? ''}${e.message}`);
  }
}
