/** The spec extension on a reference schema naming its prefix (`x-reference-prefix: Order`). */
export const REFERENCE_PREFIX_EXTENSION = 'x-reference-prefix';

export interface ReferenceSchema {
  pattern?: string;
  [REFERENCE_PREFIX_EXTENSION]?: unknown;
}

/** The prefix of a reference schema, checked against its pattern so that the two cannot drift apart. */
export function referencePrefixOf(schema: ReferenceSchema, where: string): string | undefined {
  const prefix = schema[REFERENCE_PREFIX_EXTENSION];
  if (prefix === undefined) return undefined;
  if (typeof prefix !== 'string' || !/^[A-Z][A-Za-z]*$/.test(prefix)) {
    throw new Error(`${where}: ${REFERENCE_PREFIX_EXTENSION} must be a capitalised word`);
  }
  if (!schema.pattern?.startsWith(`^${prefix}_`)) {
    throw new Error(`${where}: pattern must start with ^${prefix}_ to match ${REFERENCE_PREFIX_EXTENSION}`);
  }
  return prefix;
}
