/** Prefixes of the typed, opaque references (`<Prefix>_<26 opaque characters>`). */
export const REFERENCE_PREFIXES = [
  'Store',
  'Order',
  'Product',
  'Productgroup',
  'Image',
  'Evidence',
  'Claim',
  'Claimcategory',
  'Shipment',
  'Item',
  'Scene',
  'Perspective',
  'Composition',
  'Render',
] as const;

export type ReferencePrefix = (typeof REFERENCE_PREFIXES)[number];

/** A reference string of one resource, e.g. `Reference<'Order'>` is `` `Order_${string}` ``. */
export type Reference<P extends ReferencePrefix = ReferencePrefix> = `${P}_${string}`;

/**
 * The pattern the spec gives every reference of `prefix`. References are opaque: use this to validate input,
 * never to take one apart. The letters-and-digits alphabet of the 26 characters is the spec's assumption
 * (the service reference calls them opaque); do not refuse a reference the service itself sent you over it.
 */
export function referencePattern(prefix: ReferencePrefix): RegExp {
  return new RegExp(`^${prefix}_[0-9A-Za-z]{26}$`);
}

/** Whether `value` is a well-formed reference of `prefix`. */
export function isReference<P extends ReferencePrefix>(prefix: P, value: unknown): value is Reference<P> {
  return typeof value === 'string' && referencePattern(prefix).test(value);
}
