// Bundles the flow with the project's bundler (tsdown, i.e. rolldown) into one self-contained ESM file
// per target. `@partner-print/*` resolves to the packages' built `dist/` (what `publishConfig.exports`
// ships), not to the workspace sources, so the matrix runs the code that would be published.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'tsdown';

const root = new URL('../..', import.meta.url).pathname;
const here = new URL('.', import.meta.url).pathname;

export type Target = 'cli' | 'worker' | 'browser';

/** `@partner-print/<name>[/<sub>]` → the file its publishConfig export points at. */
function resolveBuilt(specifier: string): string | undefined {
  const m = /^@partner-print\/([^/]+)(\/.+)?$/.exec(specifier);
  if (!m) return undefined;
  const dir = join(root, 'packages', m[1]!);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    publishConfig?: { exports?: Record<string, string | { default?: string; import?: string }> };
  };
  const entry = pkg.publishConfig?.exports?.[`.${m[2] ?? ''}`];
  const target = typeof entry === 'string' ? entry : (entry?.import ?? entry?.default);
  if (!target) throw new Error(`${specifier}: no publishConfig export`);
  const file = join(dir, target);
  if (!existsSync(file)) throw new Error(`${specifier}: ${file} is missing (run pnpm build)`);
  return file;
}

export async function bundle(target: Target, outDir: string): Promise<string> {
  await build({
    config: false,
    cwd: root,
    entry: { [`flow-${target}`]: join(here, 'entries', `${target}.ts`) },
    outDir,
    format: ['esm'],
    // 'browser' resolution (module/browser fields) for every target: the library code is web-standard.
    platform: 'browser',
    target: 'es2022',
    dts: false,
    clean: false,
    sourcemap: false,
    minify: false,
    fixedExtension: false,
    hash: false,
    logLevel: 'warn',
    report: false,
    publint: false,
    attw: false,
    unbundle: false,
    deps: { alwaysBundle: [/.*/], onlyBundle: false },
    outputOptions: { codeSplitting: false },
    plugins: [
      {
        name: 'partner-print-built-packages',
        resolveId(source) {
          return resolveBuilt(source);
        },
      },
    ],
  });
  const file = join(outDir, `flow-${target}.js`);
  if (!existsSync(file)) throw new Error(`bundle ${file} was not written`);
  return file;
}

export const sizeOf = (file: string) => statSync(file).size;
