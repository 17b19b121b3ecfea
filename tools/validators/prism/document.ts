import { readFileSync } from 'node:fs';

/** The bundled spec the run validates against (its path is flow.ts's argument), typed as the caller needs. */
export function bundled<T>(): T {
  const file = process.argv[2];
  if (!file) throw new Error('no bundled spec given');
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}
