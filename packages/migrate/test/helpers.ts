import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, type Sandbox } from '@partner-print/sandbox';
import { onTestFinished } from 'vitest';
import type { CliIO } from '../src/node/io.ts';
import { runCli } from '../src/node/run.ts';

export const PNG_B64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
export const GIF_B64 = btoa('GIF89a\u0001\u0000\u0001\u0000not-accepted');

/**
 * A temporary directory, removed when the test that made it ends. Not by a hook this module registers: the
 * files of a worker share this module in `pnpm test` (vitest.base.ts), so such a hook ran only in the first
 * file that imported it, and every later file's directories stayed in the system's temp dir.
 */
export function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'pp-migrate-'));
  onTestFinished(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  requests: Request[];
}

export async function run(
  argv: string[],
  options: Partial<Pick<CliIO, 'signal' | 'env'>> & {
    sandbox?: Sandbox;
    /** Called for each request; may answer it instead of the sandbox. */
    intercept?: (req: Request) => Response | undefined | Promise<Response | undefined>;
  } = {},
): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const requests: Request[] = [];
  const code = await runCli(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: options.env ?? {},
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    wrapFetch: (inner) => async (input, init) => {
      const req = new Request(input, init);
      requests.push(req.clone());
      return (await options.intercept?.(req.clone())) ?? inner(req);
    },
  });
  return { code, stdout, stderr, requests };
}

export function newSandbox(options: Parameters<typeof createSandbox>[0] = {}): Sandbox {
  return createSandbox({ jitter: 0, ...options });
}

export const lookups = (r: RunResult) =>
  r.requests.filter((q) => new URL(q.url).pathname.endsWith('/utilities/lookup-product-by-legacy-sku'));
