import { REFERENCE_PREFIXES, REFERENCE_SCHEMA_PATTERNS } from '../generated/reference-prefixes.ts';

/** Prefixes of the typed, opaque references (`<Prefix>_<26 opaque characters>`), from the spec's schemas. */
export { REFERENCE_PREFIXES };

export type ReferencePrefix = (typeof REFERENCE_PREFIXES)[number];

/** A reference string of one resource, e.g. `Reference<'Order'>` is `` `Order_${string}` ``. */
export type Reference<P extends ReferencePrefix = ReferencePrefix> = `${P}_${string}`;

/** The number of opaque characters after `<Prefix>_` (the reference's only statement about them). */
export const REFERENCE_OPAQUE_LENGTH = 26;

/**
 * Which characters the 26 may be. The reference calls them opaque and never names an alphabet:
 * - `spec`: the `pattern` of the spec's reference schema (letters and digits: its assumption), for input a
 *   partner typed;
 * - `unreserved`: any URL-unreserved character (`A-Z a-z 0-9 . _ ~ -`), for values the service itself sent
 *   (a callback's query, a V1 file): never refuse those over an alphabet we assumed.
 */
export type ReferenceAlphabet = 'spec' | 'unreserved';

const patterns = new Map<string, RegExp>();

const cached = (key: string, source: string): RegExp => {
  let pattern = patterns.get(key);
  if (!pattern) {
    pattern = new RegExp(source);
    patterns.set(key, pattern);
  }
  return pattern;
};

/**
 * The pattern of a reference of `prefix` in the `unreserved` alphabet: `referencePattern(prefix, 'unreserved')`
 * (the same object), without the spec's table of patterns, which a bundle of this function alone does not carry.
 */
export function unreservedReferencePattern(prefix: ReferencePrefix): RegExp {
  return cached(`${prefix}:unreserved`, `^${prefix}_[A-Za-z0-9._~-]{${REFERENCE_OPAQUE_LENGTH}}$`);
}

/** The pattern of a reference of `prefix`. References are opaque: validate with it, never take one apart. */
export function referencePattern(prefix: ReferencePrefix, alphabet: ReferenceAlphabet = 'spec'): RegExp {
  if (alphabet !== 'spec') return unreservedReferencePattern(prefix);
  // From untyped code: `new RegExp(undefined)` would match every string. The value is not shown.
  if (!Object.hasOwn(REFERENCE_SCHEMA_PATTERNS, prefix))
    throw new TypeError('Not a reference prefix (REFERENCE_PREFIXES lists them)');
  return cached(`${prefix}:spec`, REFERENCE_SCHEMA_PATTERNS[prefix]);
}

/** Whether `value` is a well-formed reference of `prefix` (narrows a string from outside to its type). */
export function isReference<P extends ReferencePrefix>(
  prefix: P,
  value: unknown,
  alphabet: ReferenceAlphabet = 'spec',
): value is Reference<P> {
  return typeof value === 'string' && referencePattern(prefix, alphabet).test(value);
}

/**
 * `isReference(prefix, value, 'unreserved')`, for values the service sent, without the spec's table of patterns:
 * the packages that only check those (render, the callback parser) do not bundle it.
 */
export function isUnreservedReference<P extends ReferencePrefix>(
  prefix: P,
  value: unknown,
): value is Reference<P> {
  return typeof value === 'string' && unreservedReferencePattern(prefix).test(value);
}

/** The prefix of a value shaped `<Prefix>_…` when it is a known one, else undefined. */
export function referencePrefixOf(value: string): ReferencePrefix | undefined {
  const underscore = value.indexOf('_');
  if (underscore <= 0) return undefined;
  const prefix = value.slice(0, underscore);
  return (REFERENCE_PREFIXES as readonly string[]).includes(prefix) ? (prefix as ReferencePrefix) : undefined;
}
