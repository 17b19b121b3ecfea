import { statSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { createPathsMatcher, getTsconfig, type TsConfigResult } from 'get-tsconfig';

/**
 * Whether a non-relative import names a module of the project (a path alias) rather than a package's: by the
 * project's tsconfig.json or jsconfig.json.
 */
export type ProjectImport = (specifier: string) => boolean;

/** What `baseUrl/<specifier>` may resolve to, as TypeScript looks a module up. */
const EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const CANDIDATES = ['', ...EXTENSIONS, ...EXTENSIONS.map((e) => `/index${e}`)];

const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * For each file, the {@link ProjectImport} of the nearest tsconfig.json or jsconfig.json above it (`extends`
 * followed, comments and trailing commas allowed, as `get-tsconfig` reads them; a tsconfig.json before a
 * jsconfig.json of the same folder): an import is the project's when it matches a `paths` pattern, resolves under
 * `baseUrl` to a file of the project (not under node_modules), or is a package.json `imports` name (`#…`).
 * Undefined where no config is found or one cannot be read (an `extends` not found): nothing tells an alias from a
 * package there. The configs are only read.
 */
export function projectImports(): (file: string) => ProjectImport | undefined {
  const cache = new Map();
  const byConfig = new Map<string, ProjectImport>();
  const nearest = (dir: string): TsConfigResult | null => {
    const ts = getTsconfig(dir, 'tsconfig.json', cache);
    const js = getTsconfig(dir, 'jsconfig.json', cache);
    return ts && js ? (dirname(js.path).length > dirname(ts.path).length ? js : ts) : (ts ?? js);
  };
  return (file) => {
    let config: TsConfigResult | null;
    try {
      config = nearest(dirname(file));
    } catch {
      return undefined;
    }
    if (!config) return undefined;
    let own = byConfig.get(config.path);
    if (!own) {
      const { paths } = config.config.compilerOptions ?? {};
      // The `paths` patterns alone (without baseUrl, a matcher answers only a specifier one of them matches).
      const aliased = paths
        ? createPathsMatcher({ path: config.path, config: { compilerOptions: { paths } } })
        : null;
      const resolved = createPathsMatcher(config);
      own = (specifier) =>
        specifier.startsWith('#') ||
        (aliased?.(specifier).length ?? 0) > 0 ||
        (resolved?.(specifier) ?? []).some(
          (p) => !p.split(sep).includes('node_modules') && CANDIDATES.some((c) => isFile(p + c)),
        );
      byConfig.set(config.path, own);
    }
    return own;
  };
}
