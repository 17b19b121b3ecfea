/**
 * The sandbox's own limits where the reference shows none ("Page sizes, maximum orderlines per order and
 * maximum request body size: not shown"). Each is listed on docs/guides/sandbox-assumptions.md with its code.
 */

/** JSON bodies of the V2 API (orders, claims, renders): 413 `payload_too_large`. */
export const MAX_JSON_BODY_BYTES: number = 1024 * 1024;
/** Raw image and evidence uploads: 413 `payload_too_large`. */
export const MAX_UPLOAD_BYTES: number = 50 * 1024 * 1024;
/** Bodies of the control API under `/_sandbox`: 413 `payload_too_large`. */
export const MAX_CONTROL_BODY_BYTES: number = 64 * 1024;

/** Orderlines per order: 422 `too_many_orderlines`. */
export const MAX_ORDERLINES = 1000;
/** Quantity of one orderline: 422 `invalid_quantity`. */
export const MAX_QUANTITY = 100_000;
/** Characters of one address field: 422 `invalid_address`. */
export const MAX_ADDRESS_FIELD_LENGTH = 255;
/** Characters of a custom identifier: 422 `invalid_custom_identifier`. */
export const MAX_CUSTOM_IDENTIFIER_LENGTH = 255;
/** Claimlines per item-issues claim: 422 `too_many_claimlines`. */
export const MAX_CLAIMLINES = 1000;
