/**
 * The project's one bundling step (tsdown, i.e. rolldown): one entry into one self-contained file, every
 * dependency bundled, no code splitting, no declarations, no package checks. Used by the docs page's runner
 * (tools/docs/runner/bundle.ts) and the runtime matrix (tools/runtimes/bundle.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type InlineConfig } from 'tsdown';

export interface BundleOptions {
  /** The repository root: the bundler's working directory. */
  cwd: string;
  /** Output name (without extension) → entry file. */
  name: string;
  entry: string;
  outDir: string;
  format: 'esm' | 'iife';
  /** The global an IIFE assigns its exports to. */
  globalName?: string;
  minify?: boolean;
  /** Resolver plugins (e.g. the runtime matrix sends `@partner-print/*` to the built `dist/`). */
  plugins?: InlineConfig['plugins'];
}

/** The file tsdown writes for `name` in `format` (without hashes or fixed extensions). */
export function bundleFile(options: Pick<BundleOptions, 'name' | 'outDir' | 'format'>): string {
  return join(options.outDir, options.format === 'iife' ? `${options.name}.iife.js` : `${options.name}.js`);
}

/** Bundles the entry for the browser resolution (module/browser fields; the library code is web-standard). */
export async function bundleEntry(options: BundleOptions): Promise<string> {
  await build({
    config: false,
    cwd: options.cwd,
    entry: { [options.name]: options.entry },
    outDir: options.outDir,
    format: [options.format],
    ...(options.globalName ? { globalName: options.globalName } : {}),
    platform: 'browser',
    target: 'es2022',
    dts: false,
    clean: false,
    sourcemap: false,
    minify: options.minify ?? false,
    fixedExtension: false,
    hash: false,
    logLevel: 'warn',
    report: false,
    publint: false,
    attw: false,
    unbundle: false,
    deps: { alwaysBundle: [/.*/], onlyBundle: false },
    outputOptions: { codeSplitting: false },
    ...(options.plugins ? { plugins: options.plugins } : {}),
  });
  const file = bundleFile(options);
  if (!existsSync(file)) throw new Error(`bundle ${file} was not written`);
  return file;
}

/** Bundles the entry and returns the code. */
export async function bundleToString(options: BundleOptions): Promise<string> {
  return readFileSync(await bundleEntry(options), 'utf8');
}
