import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The run-time imports of `specifier` in the library sources under `dir` (tests and `skip`ped paths left out),
 * as `file: names`: an import or re-export of a value, not one of types only. Under Node, and in a CommonJS
 * bundle (which takes a required module whole), an import loads its module whatever it names.
 */
export function valueImportsOf(dir: string, specifier: string, skip?: RegExp): string[] {
  const files = (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && !/\.test(-d)?\.ts$/.test(f) && !skip?.test(f))
    .sort();
  const quoted = specifier.replace(/[/\\^$*+?.()|[\]{}]/g, '\\$&');
  const statement = new RegExp(
    `^\\s*(import|export)\\b(\\s+type\\b)?\\s*([^;]*?)\\s*from\\s*['"]${quoted}['"]`,
    'gm',
  );
  const found: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const [, , typeOnly, clause = ''] of text.matchAll(statement)) {
      if (typeOnly) continue;
      const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
      const names = braces
        ? braces[1]!
            .split(',')
            .map((n) => n.trim())
            .filter((n) => n && !n.startsWith('type '))
        : [clause.trim()];
      if (names.length) found.push(`${relative(dir, join(dir, file))}: ${names.join(', ')}`);
    }
    // A bare side-effect import, or a dynamic one, loads it too.
    if (new RegExp(`import\\s*\\(?\\s*['"]${quoted}['"]`).test(text)) found.push(`${file}: (loaded)`);
  }
  return found;
}
