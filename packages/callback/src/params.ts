import { unreservedReferencePattern } from '@partner-print/openapi/wire';

// The wire format of the legacy order-updated callback, read from the API reference ("Legacy
// order-updated callback"). Implemented here independently of the sandbox, which writes it.

/** Query parameter names the service sends. */
export const PARAMETERS = {
  environment: 'environment',
  orderReference: 'order_reference',
  orderReferenceV2: 'order_reference_v2',
  storeCode: 'store_code',
  customReference: 'custom_reference',
  viaStoreCode: 'via_store_code',
} as const;

/** Deprecated aliases the service sends alongside the canonical names. */
export const ALIASES = {
  customReference: 'partner_reference',
  storeCode: 'partner_code',
  viaStoreCode: 'via_partner_code',
} as const;

/** Every name the service owns; anything else on the URL belongs to the partner. */
export const SERVICE_PARAMETER_NAMES: ReadonlySet<string> = new Set<string>([
  ...Object.values(PARAMETERS),
  ...Object.values(ALIASES),
]);

export const ENVIRONMENTS = ['prod', 'test'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/**
 * The V2 reference format from the reference's conventions: `Order_` and 26 opaque characters.
 * The reference does not show their alphabet (the ones seen are letters and digits), so any of
 * the URL-unreserved characters is accepted (the wire rules' `unreserved` alphabet, for values the
 * service sent): each is safe in a path segment without encoding, and refusing a real reference
 * would make the service retry the notification forever.
 */
export const ORDER_REFERENCE_V2_PATTERN: RegExp = unreservedReferencePattern('Order');

/**
 * The reference does not show the store code format. We accept a deliberately conservative
 * shape, so that no value can change the meaning of a URL path it is placed in: an ASCII letter
 * or digit, then up to 63 letters, digits, `_` or `-`. No dots (no `.`/`..` segments), no `/`,
 * `%`, `?`, `#`, whitespace or non-ASCII.
 */
export const STORE_CODE_PATTERN: RegExp = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The number part of the V1 reference `<store_code>-<number>`: ASCII digits, kept as a string. */
export const ORDER_NUMBER_PATTERN: RegExp = /^[0-9]{1,20}$/;

/** Maximum length of the custom reference we accept (the reference shows no limit). */
export const CUSTOM_REFERENCE_MAX_LENGTH = 1000;

/**
 * Inputs longer than this (in UTF-16 code units) are refused before any parsing. Room for the longest callback
 * whose fields pass their checks: `custom_reference` and its alias `partner_reference` at 1000 UTF-16 units of
 * 3-byte UTF-8 each (CJK), percent-encoded (9,000 characters apiece), with the partner's own parameters beside them;
 * at 16 KiB such a callback was refused whole, and the service would have sent it again for ever.
 */
export const MAX_INPUT_LENGTH: number = 64 * 1024;
