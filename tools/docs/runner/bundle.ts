/**
 * Build time (Node): bundles entry.ts — the sandbox, the SDK packages from their workspace sources, the session
 * and the panel — into one minified IIFE with the project's bundler (tsdown, i.e. rolldown), for the page to
 * load lazily.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'tsdown';
import { PATHS } from '../lib/paths.ts';

export const RUNNER_GLOBAL = 'PartnerPrintRunner';

export async function bundleRunner(): Promise<string> {
  const outDir = mkdtempSync(join(PATHS.root, 'docs/.tmp/runner-'));
  try {
    await build({
      config: false,
      cwd: PATHS.root,
      entry: { runner: join(PATHS.root, 'tools/docs/runner/entry.ts') },
      outDir,
      format: ['iife'],
      globalName: RUNNER_GLOBAL,
      platform: 'browser',
      target: 'es2022',
      dts: false,
      clean: false,
      sourcemap: false,
      minify: true,
      fixedExtension: false,
      hash: false,
      logLevel: 'warn',
      report: false,
      publint: false,
      attw: false,
      unbundle: false,
      deps: { alwaysBundle: [/.*/], onlyBundle: false },
      outputOptions: { codeSplitting: false },
    });
    return readFileSync(join(outDir, 'runner.iife.js'), 'utf8');
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
