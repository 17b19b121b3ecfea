/** The few OpenAPI shapes the docs build reads; everything else passes through untouched. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface CodeSample {
  lang: string;
  label?: string;
  source: string;
}

export interface Operation {
  /** `paths` or `webhooks` */
  section: 'paths' | 'webhooks';
  /** The path template, or the webhook name. */
  path: string;
  method: string;
  operationId: string;
  tag: string;
  node: JsonObject;
  pathItem: JsonObject;
}

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every operation of the document, webhooks included, in document order. */
export function listOperations(doc: JsonObject): Operation[] {
  const out: Operation[] = [];
  for (const section of ['paths', 'webhooks'] as const) {
    const items = doc[section];
    if (!isObject(items)) continue;
    for (const [path, rawItem] of Object.entries(items)) {
      const pathItem = resolveRef(doc, rawItem);
      if (!isObject(pathItem)) continue;
      for (const method of METHODS) {
        const node = pathItem[method];
        if (!isObject(node)) continue;
        const operationId = typeof node.operationId === 'string' ? node.operationId : `${method}${path}`;
        const tags = Array.isArray(node.tags)
          ? node.tags.filter((t): t is string => typeof t === 'string')
          : [];
        out.push({ section, path, method, operationId, tag: tags[0] ?? 'default', node, pathItem });
      }
    }
  }
  return out;
}

/** Follows local `$ref`s (`#/components/...`), the only kind a bundled document holds. */
export function resolveRef(doc: JsonObject, value: Json | undefined, depth = 0): Json | undefined {
  if (!isObject(value) || typeof value.$ref !== 'string' || depth > 20) return value;
  const ref = value.$ref;
  if (!ref.startsWith('#/')) return value;
  let node: Json | undefined = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[key] : undefined;
  }
  return resolveRef(doc, node, depth + 1);
}
