// Bundles the flow with the project's bundling step (tools/lib/bundle.ts: tsdown, i.e. rolldown) into one self-contained ESM file
// per target. `@partner-print/*` resolves to the packages' built `dist/` (what `publishConfig.exports`
// ships), not to the workspace sources, so the matrix runs the code that would be published.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bundleEntry } from '../lib/bundle.ts';

const root = new URL('../..', import.meta.url).pathname;
const here = new URL('.', import.meta.url).pathname;

export type Target = 'cli' | 'worker' | 'browser';

/** An export's target: a file, or conditions (`import`, `require`, `types`, `default`) over targets. */
type ExportTarget = string | { [condition: string]: ExportTarget | undefined };

/** The ES module file of an export: its `import` condition, else `default`, nested conditions followed. */
const esmFile = (t: ExportTarget | undefined): string | undefined =>
  typeof t === 'string' || t === undefined ? t : esmFile(t.import ?? t.default);

/** `@partner-print/<name>[/<sub>]` → the ES module file its publishConfig export points at. */
function resolveBuilt(specifier: string): string | undefined {
  const m = /^@partner-print\/([^/]+)(\/.+)?$/.exec(specifier);
  if (!m) return undefined;
  const dir = join(root, 'packages', m[1]!);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    publishConfig?: { exports?: Record<string, ExportTarget> };
  };
  const target = esmFile(pkg.publishConfig?.exports?.[`.${m[2] ?? ''}`]);
  if (!target) throw new Error(`${specifier}: no publishConfig export`);
  const file = join(dir, target);
  if (!existsSync(file)) throw new Error(`${specifier}: ${file} is missing (run pnpm build)`);
  return file;
}

export function bundle(target: Target, outDir: string): Promise<string> {
  return bundleEntry({
    cwd: root,
    name: `flow-${target}`,
    entry: join(here, 'entries', `${target}.ts`),
    outDir,
    // ESM for every target, with the 'browser' resolution (module/browser fields): the library code is
    // web-standard.
    format: 'esm',
    plugins: [
      {
        name: 'partner-print-built-packages',
        resolveId(source) {
          return resolveBuilt(source);
        },
      },
    ],
  });
}

export const sizeOf = (file: string) => statSync(file).size;
