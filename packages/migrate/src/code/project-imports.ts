import { statSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { createPathsMatcher, getTsconfig, type TsConfigResult } from 'get-tsconfig';
import { jsoncErrorAt, parseJsonc } from './jsonc.ts';
import type { NamedElsewhere } from './type-imports.ts';

/**
 * Whether a non-relative import names a module of the project (a path alias) rather than a package's: by the
 * project's tsconfig.json or jsconfig.json.
 */
export type ProjectImport = (specifier: string) => boolean;

/** What the run knows of the project around one file's types. */
export interface FileProject {
  /** Whether a non-relative import is the project's; undefined where no config is read. */
  imports?: ProjectImport | undefined;
  /** Which module of the run names a type of this file (a JSDoc typedef is visible to every module). */
  typesNamed?: NamedElsewhere | undefined;
}

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

/** A config the run could not read fully, told once: where, and why (never what it holds). */
export interface UnreadConfig {
  /** The file (the nearest config above a file of the run, or one it extends). */
  config: string;
  /** The nearest config that extends it, where that is another. */
  extendedBy?: string;
  /** Where TypeScript would stop at a syntax error (1-based); absent where an `extends` is not found. */
  at?: { line: number; column: number };
  /** The config whose own `paths` and `baseUrl` are used all the same (see {@link ownSettings}). */
  ownSettings?: string;
  /**
   * Its `paths` has a pattern TypeScript refuses (more than one `*`: TS5061), so it is read as no config: `only`
   * where that is all that failed, `too` beside a failure above (its own settings could not stand in).
   */
  refusedPaths?: 'only' | 'too';
}

/** get-tsconfig's cache holds each file it read under `readFileSync:<path>:utf8`, its text as the value. */
const READ = /^readFileSync:(.*):utf8$/s;

/** A cache that records what a look-up read through it. */
class Reads extends Map<string, unknown> {
  readonly touched = new Set<string>();
  override get(key: string) {
    this.touched.add(key);
    return super.get(key);
  }
}

/** The first config `reads` read (the nearest, then those it extends) whose text TypeScript would not read. */
function syntaxError(reads: Reads, keys: string[]): UnreadConfig | undefined {
  for (const key of keys) {
    const text = reads.get(key);
    const config = READ.exec(key)?.[1];
    if (typeof text !== 'string' || !config || !/\.json$/i.test(config)) continue;
    const at = jsoncErrorAt(text);
    if (at < 0) continue;
    const before = text.slice(0, at).split(/\r\n|\r|\n/);
    return { config, at: { line: before.length, column: before.at(-1)!.length + 1 } };
  }
  return undefined;
}

/**
 * For each file, the {@link ProjectImport} of the nearest tsconfig.json or jsconfig.json above it (`extends`
 * followed, comments and trailing commas allowed, as TypeScript reads them; a tsconfig.json before a
 * jsconfig.json of the same folder): an import is the project's when it matches a `paths` pattern, resolves under
 * `baseUrl` to a file of the project (not under node_modules), or is a package.json `imports` name (`#…`).
 * Undefined where no config is found or one cannot be read fully (an `extends` not found, a syntax error in it or
 * in a config it extends, which get-tsconfig would read as far as it parses): nothing tells an alias from a
 * package there; unless the problem is in what the config extends and it writes `paths` and `baseUrl` itself
 * ({@link ownSettings}), as TypeScript reads it. Each config that cannot be read is given to `unread` once. The
 * configs are only read.
 */
export function projectImports(
  unread: (problem: UnreadConfig) => void = () => {},
): (file: string) => ProjectImport | undefined {
  const cache = new Reads();
  const byConfig = new Map<string, ProjectImport | null>();
  /** The nearest config of that name above `dir` (undefined where it cannot be read), and the files read for it. */
  const lookUp = (dir: string, name: string) => {
    cache.touched.clear();
    let found: TsConfigResult | null | undefined;
    try {
      found = getTsconfig(dir, name, cache);
    } catch {
      found = undefined;
    }
    return { found, keys: [...cache.touched].filter((k) => READ.test(k)) };
  };
  /**
   * The config's {@link ProjectImport}, or its problem told once (then, where the problem is in what it extends,
   * its own `paths` and `baseUrl`, else none: null).
   */
  const settle = (path: string, problemOf: () => UnreadConfig | undefined, own?: () => ProjectImport) => {
    if (!byConfig.has(path)) {
      const problem = problemOf();
      const read = problem ? ownSettings(path, cache.get(`readFileSync:${path}:utf8`)) : own;
      let imports: ProjectImport | null = null;
      let refused = false;
      try {
        imports = read?.() ?? null;
      } catch {
        // A `paths` pattern get-tsconfig refuses (as tsc does, TS5061): as no config, named.
        refused = true;
      }
      if (problem || refused)
        unread({
          ...(problem ?? { config: path }),
          ...(problem && problem.config !== path ? { extendedBy: path } : {}),
          ...(refused ? { refusedPaths: problem ? 'too' : 'only' } : imports ? { ownSettings: path } : {}),
        });
      byConfig.set(path, imports);
    }
    return byConfig.get(path) ?? undefined;
  };
  return (file) => {
    const ts = lookUp(dirname(file), 'tsconfig.json');
    const js = lookUp(dirname(file), 'jsconfig.json');
    // An `extends` not found (of the config or of one it extends): the config read first (the nearest of that
    // name) names it.
    for (const { found, keys } of [ts, js])
      if (found === undefined) {
        const path = READ.exec(keys[0] ?? '')?.[1];
        return path ? settle(path, () => ({ config: path })) : undefined;
      }
    // The nearer of the two; a tsconfig.json before a jsconfig.json of the same folder.
    const config =
      ts.found && js.found
        ? dirname(js.found.path).length > dirname(ts.found.path).length
          ? js
          : ts
        : ts.found
          ? ts
          : js;
    const found = config.found;
    return found
      ? settle(
          found.path,
          () => syntaxError(cache, config.keys),
          () => matcher(found),
        )
      : undefined;
  };
}

/**
 * Where what a config extends is not found or has a syntax error, TypeScript reports it and reads the config
 * without it (what a broken base holds as far as it parses): the config's own options stand. Its aliases are known
 * where it writes both `paths` and `baseUrl` itself (no base changes them: `paths` is replaced whole, and resolves
 * under the `baseUrl`), and its own text has no error: the {@link ProjectImport} of those, else undefined.
 */
function ownSettings(path: string, text: unknown): (() => ProjectImport) | undefined {
  const json = typeof text === 'string' ? parseJsonc(text) : undefined;
  const options = (json as { compilerOptions?: { baseUrl?: unknown; paths?: unknown } } | undefined)
    ?.compilerOptions;
  const { baseUrl, paths } = options ?? {};
  if (typeof baseUrl !== 'string' || baseUrl.includes('${') || !paths || typeof paths !== 'object')
    return undefined;
  // It throws on a `paths` pattern get-tsconfig refuses (see `settle`).
  return () =>
    matcher({ path, config: { compilerOptions: { baseUrl, paths: paths as Record<string, string[]> } } });
}

/** The {@link ProjectImport} of a config read without an error. */
function matcher(config: TsConfigResult): ProjectImport {
  const { paths } = config.config.compilerOptions ?? {};
  // The `paths` patterns alone (without baseUrl, a matcher answers only a specifier one of them matches).
  const aliased = paths
    ? createPathsMatcher({ path: config.path, config: { compilerOptions: { paths } } })
    : null;
  const resolved = createPathsMatcher(config);
  return (specifier) =>
    specifier.startsWith('#') ||
    (aliased?.(specifier).length ?? 0) > 0 ||
    (resolved?.(specifier) ?? []).some(
      (p) => !p.split(sep).includes('node_modules') && CANDIDATES.some((c) => isFile(p + c)),
    );
}
