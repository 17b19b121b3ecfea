/**
 * Display fixes on the docs build's copy of the spec (spec/ is never modified): Redoc CE shows a schema made
 * only of `oneOf`/`anyOf` without a `type` as "any" ("order any, (OrderRequest)"). When every variant is an
 * object, the composed schema is an object too, so the copy says so and Redoc shows "object (OrderRequest)".
 */
import { isObject, type Json, type JsonObject, resolveRef } from './openapi.ts';

/** Whether a schema describes objects: `type: object`, properties, or an allOf/oneOf/anyOf of such schemas. */
function isObjectSchema(doc: JsonObject, node: Json | undefined, depth = 0): boolean {
  const schema = resolveRef(doc, node);
  if (!isObject(schema) || depth > 10) return false;
  if (schema.type !== undefined) return schema.type === 'object';
  if (isObject(schema.properties)) return true;
  const parts = [schema.allOf, schema.oneOf, schema.anyOf].find(Array.isArray);
  return Array.isArray(parts) && parts.length > 0 && parts.every((p) => isObjectSchema(doc, p, depth + 1));
}

/** Adds `type: object` to composed schemas of objects that have no type; returns their names. */
export function typeComposedObjects(doc: JsonObject): string[] {
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  const changed: string[] = [];
  for (const [name, schema] of Object.entries(schemas)) {
    if (!isObject(schema) || schema.type !== undefined) continue;
    const variants = Array.isArray(schema.oneOf)
      ? schema.oneOf
      : Array.isArray(schema.anyOf)
        ? schema.anyOf
        : [];
    if (variants.length === 0 || !variants.every((v) => isObjectSchema(doc, v))) continue;
    schema.type = 'object';
    changed.push(name);
  }
  return changed;
}
