import { moduleOf } from './importers.ts';

/**
 * The module of the run that names a type of this file by its name (`import('./handlers').Query`), shown as the
 * report shows paths; undefined where none of the run does.
 */
export type NamedElsewhere = (type: string) => string | undefined;

/** `import('./handlers').Query`, in a JSDoc type or a TypeScript one. */
const IMPORT_TYPE = /\bimport\s*\(\s*(['"])(\.\.?\/[^'"]*)\1\s*\)\s*\.\s*([A-Za-z_$][\w$]*)/g;
/**
 * `import { Query } from './handlers'`, `import type { A, B as C }`, JSDoc's `@import { Query } from './handlers'`,
 * a re-export (`export type { Query } from './handlers'`); a namespace (`* as H`, `export *`) names every type of
 * the module.
 */
const IMPORT_NAMES =
  /(?:\bimport|\bexport|@import)\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?(\{[^}]*\}|\*(?:\s*as\s+[\w$]+)?)\s*from\s*(['"])(\.\.?\/[^'"]*)\2/g;

/**
 * The types each file of the run names from another file of the run by a relative specifier, read from every
 * file's text before any is rewritten (comments and code alike: a JSDoc `@typedef` is visible to every module that
 * imports its file). Another module's value typed so would need what a widened type adds; a module outside the run
 * is not seen.
 */
export function typeImports(files: string[], show: (real: string) => string) {
  const inRun = new Set(files);
  // Module → type name (`*`: every one) → the first module of the run naming it.
  const named = new Map<string, Map<string, string>>();
  const add = (from: string, spec: string, names: string[]) => {
    const target = moduleOf(from, spec, inRun);
    if (!target || target === from) return;
    const of = named.get(target) ?? new Map<string, string>();
    named.set(target, of);
    for (const name of names) if (!of.has(name)) of.set(name, show(from));
  };
  return {
    /** Reads one file's text for the types it names of other files of the run. */
    scan(real: string, text: string): void {
      if (!/import|export/.test(text)) return;
      for (const m of text.matchAll(IMPORT_TYPE)) add(real, m[2]!, [m[3]!]);
      for (const m of text.matchAll(IMPORT_NAMES))
        add(
          real,
          m[3]!,
          m[1]!.startsWith('*')
            ? ['*']
            : m[1]!
                .slice(1, -1)
                .split(',')
                .map(
                  (s) =>
                    s
                      .trim()
                      .replace(/^type\s+/, '')
                      .split(/\s+as\s+/)[0]!,
                )
                .filter(Boolean),
        );
    },
    /** What {@link NamedElsewhere} says of the file `real`. */
    of(real: string): NamedElsewhere | undefined {
      const of = named.get(real);
      return of && ((type) => of.get(type) ?? of.get('*'));
    },
  };
}
