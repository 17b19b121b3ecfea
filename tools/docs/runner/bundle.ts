/**
 * Build time (Node): bundles entry.ts — the sandbox, the SDK packages from their workspace sources, the session
 * and the panel — into one minified IIFE with the project's bundling step (tools/lib/bundle.ts), for the page to
 * load lazily.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { bundleToString } from '../../lib/bundle.ts';
import { PATHS } from '../lib/paths.ts';

export const RUNNER_GLOBAL = 'PartnerPrintRunner';

export async function bundleRunner(): Promise<string> {
  const outDir = mkdtempSync(join(PATHS.root, 'docs/.tmp/runner-'));
  try {
    return await bundleToString({
      cwd: PATHS.root,
      name: 'runner',
      entry: join(PATHS.root, 'tools/docs/runner/entry.ts'),
      outDir,
      format: 'iife',
      globalName: RUNNER_GLOBAL,
      minify: true,
    });
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
