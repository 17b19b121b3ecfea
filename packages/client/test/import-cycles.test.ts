import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// Modules that import each other, even for types only, cannot be read, moved or tree-shaken one at a time:
// shared types live in types.ts, which imports no module that imports it.
const SRC = fileURLToPath(new URL('../src', import.meta.url));

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return modules(path);
    return e.name.endsWith('.ts') && !/\.test(-d)?\.ts$/.test(e.name) ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:import|export)[^'"]*?from '(\.[^']+)'/g)].map((m) =>
    normalize(join(dirname(file), m[1] as string)),
  );
}

it('no module of the client imports itself through others (type-only imports included)', () => {
  const graph = new Map(modules(SRC).map((file) => [file, importsOf(file)]));
  const cycles: string[] = [];
  const done = new Set<string>();
  const visit = (file: string, path: string[]): void => {
    if (path.includes(file)) {
      cycles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(SRC, f)).join(' → '));
      return;
    }
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file, []);
  expect(cycles).toEqual([]);
});
