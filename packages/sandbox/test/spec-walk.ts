/** Reading the bundled spec: `$ref`s inside the document, and the response headers an operation documents. */
import { spec } from '@partner-print/openapi';

export type Json = Record<string, unknown>;

/** Follows `$ref`s inside the document; returns the target and its JSON pointer. */
export function resolve(value: Json, pointer: string): [Json, string] {
  let v = value;
  let p = pointer;
  while (typeof v.$ref === 'string') {
    p = v.$ref;
    v = v.$ref
      .slice(2)
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<Json>((node, key) => node[key] as Json, spec as unknown as Json);
  }
  return [v, p];
}

/** Every response header an operation documents, over all its responses, in document order. */
export function documentedHeaders(op: Json): string[] {
  const names = new Set<string>();
  for (const response of Object.values((op.responses as Json | undefined) ?? {})) {
    const [res] = resolve(response as Json, '');
    for (const name of Object.keys((res.headers as Json | undefined) ?? {})) names.add(name);
  }
  return [...names];
}
