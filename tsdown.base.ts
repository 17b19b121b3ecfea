// The one build configuration of every package: ESM and CommonJS, declarations (Oxc, see below), neutral platform
// (web-standard code), `.js`/`.d.ts` names for ESM and `.cjs`/`.d.cts` for CommonJS (the packages are
// `"type": "module"`). A package's tsdown.config.ts states only its entries and what differs.
import { defineConfig, type Rolldown, type UserConfig } from 'tsdown';

type Entry = UserConfig['entry'];

/**
 * The CommonJS build reads a required dependency's default export as Babel and TypeScript do (`exports.default`
 * of a module marked `__esModule`, else `module.exports`), where rolldown, in a `"type": "module"` package,
 * takes `module.exports` always (`__toESM(mod, 1)`, Node's rule for ES code importing CommonJS; rolldown#10800).
 * That made openapi-fetch's default export (its CommonJS build has `exports.default`) an object in the client's
 * CommonJS build: "openapi_fetch.default is not a function". Read either way, a dependency's default is then
 * what the ESM build gets from Node: openapi-fetch's ES default, and a plain CommonJS module (cli-progress) whole.
 */
const cjsDefaultInterop: Rolldown.Plugin = {
  name: 'partner-print:cjs-default-interop',
  renderChunk(code, _chunk, options) {
    if (options.format !== 'cjs') return null;
    return code.replace(/__toESM\(([\w$]+|require\("[^"]+"\)), 1\)/g, '__toESM($1)');
  },
};

export const libraryBuild = (entry: Entry, overrides: PackageConfig = {}): PackageConfig => ({
  entry,
  // CommonJS beside ESM: Node's require(esm) serves CommonJS callers in Node itself, but not module loaders
  // of their own (Jest's, the test runner of most partners' Node code), which need a CommonJS file.
  format: ['esm', 'cjs'],
  // Declarations file by file with Oxc, without a type checker: the published sources hold an explicit type
  // on every exported declaration (TypeScript's isolatedDeclarations rules, which Oxc enforces: a missing
  // one fails the build). The checker's emit built a program per package over its workspace dependencies'
  // sources too, ~85 % of the build's CPU.
  dts: { oxc: true },
  platform: 'neutral',
  fixedExtension: false,
  // In the CommonJS build an external `import()` (migrate's optional redis and sandbox, node:fs/promises)
  // becomes `require()`: Jest runs CommonJS without a dynamic-import callback (`import()` there throws
  // ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG), and Node requires those modules (ES ones through require(esm)).
  // rolldown's runtime helpers get a chunk of their own in the CommonJS build. rolldown put them in a chunk of
  // the library's (the client's `upload-*.cjs`) that the other chunks then required for them alone, a cycle
  // where none is in the sources: `require('@partner-print/client/telemetry')` (or callback's, which requires
  // it before the client root) as a program's first require loaded the response chunk, which required upload,
  // which read the still empty response chunk's `sharedMap`: "require_response.sharedMap is not a function".
  // An ES module's hoisted functions hide such a cycle; `exports` assigned at a chunk's end do not.
  outputOptions: (options, format) =>
    format === 'cjs'
      ? {
          ...options,
          dynamicImportInCjs: false,
          codeSplitting: { groups: [{ name: 'rolldown-runtime', test: /rolldown[\\/]runtime/ }] },
        }
      : options,
  plugins: [cjsDefaultInterop],
  ...overrides,
});

/** Node-only entries (CLIs, servers, files) next to the library's: built second, without cleaning dist. */
export const nodeBuild = (entry: Entry, overrides: PackageConfig = {}): PackageConfig =>
  libraryBuild(entry, { platform: 'node', clean: false, ...overrides });

/**
 * Node-only entries and a bin: the bin's module is ES only (its top-level await has no CommonJS form, and a bin is
 * never required); built with the entries, it shares their chunk. The CommonJS build has the entries alone.
 */
export const nodeBuildWithBin = (
  entry: Record<string, string>,
  bin: Record<string, string>,
  overrides: PackageConfig = {},
): PackageConfig[] => [
  nodeBuild({ ...entry, ...bin }, { ...overrides, format: ['esm'] }),
  nodeBuild(entry, { ...overrides, format: ['cjs'] }),
];

export interface PackageConfig extends UserConfig {
  /**
   * ESM-only dependencies the CommonJS build carries inside (the ESM build imports them): Node requires them
   * through require(esm), Jest's module loader cannot ("Must use import to load ES Module").
   */
  bundleInCjs?: string[];
}

/**
 * A config with `bundleInCjs` becomes two, ESM and CommonJS (tsdown cleans dist once for all of them). tsdown
 * resolves a CommonJS build as for Node; a web-standard one stays neutral, so that what it carries is what a
 * browser gets too (fflate, under fast-png, has a Node variant that requires `module`).
 */
function byFormat({ bundleInCjs, ...config }: PackageConfig): UserConfig[] {
  const { format } = config;
  const formats = typeof format === 'string' ? [format] : Array.isArray(format) ? format : [];
  if (!bundleInCjs?.length || !formats.includes('cjs')) return [config];
  const neutral =
    config.platform === 'neutral'
      ? { platform: 'neutral' as const, resolve: { mainFields: ['module', 'main'] } }
      : {};
  const others = formats.filter((f) => f !== 'cjs');
  return [
    ...(others.length > 0 ? [{ ...config, format: others }] : []),
    {
      ...config,
      format: ['cjs'],
      clean: false,
      deps: { ...config.deps, alwaysBundle: bundleInCjs },
      inputOptions: { ...config.inputOptions, ...neutral },
    },
  ];
}

export const packageBuild = (...configs: PackageConfig[]) => {
  const all = configs.flatMap(byFormat);
  return defineConfig(all.length === 1 ? all[0]! : all);
};
