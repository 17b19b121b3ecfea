import type { Environment } from './params.ts';

export type { Environment } from './params.ts';

/** A V2 order reference, `Order_` followed by 26 opaque characters. */
export type OrderReferenceV2 = `Order_${string}`;

/**
 * The validated content of one order-updated notification. It says *that* an order changed, not what.
 *
 * Only `environment` and `orderReferenceV2` are needed to act on it (fetch the current order), so
 * only they are required. The reference says `store_code` and `order_reference` are always sent,
 * but it does not show their format: a value that is missing or fails this package's conservative
 * checks is left out, with a warning, rather than failing the notification (a refusal would make
 * the service retry it forever). Every field that is present has passed its check.
 */
export interface OrderUpdatedNotification {
  environment: Environment;
  /** V2 reference, the one to fetch the order with (GET /orders/{orderReference}). */
  orderReferenceV2: OrderReferenceV2;
  /** V1-style reference `<store_code>-<number>`. */
  orderReference?: string;
  /** `orderReference` split on its last `-`. `number` stays a string (leading zeros, no precision loss). */
  orderReferenceParts?: { storeCode: string; number: string };
  /** A letter or digit, then up to 63 letters, digits, `_` or `-` (safe in a URL path). */
  storeCode?: string;
  /** The order's custom identifier: 1 to 1000 characters, no control characters. */
  customReference?: string;
  /** Same shape as `storeCode`. */
  viaStoreCode?: string;
  /**
   * The partner's own query parameters (those of the configured callback URL), in order,
   * duplicates kept. `new URLSearchParams(extra)` turns them back into a parameter list.
   */
  extra: Array<[name: string, value: string]>;
}

/** Why a notification cannot be acted on: the input, `environment` or `order_reference_v2`. */
export type CallbackErrorCode =
  | 'invalid_input'
  | 'input_too_long'
  | 'missing_parameter'
  | 'invalid_parameter'
  | 'duplicate_parameter';

/**
 * Something odd about a notification that can still be acted on. For `missing_parameter`,
 * `invalid_parameter`, `duplicate_parameter` (different values) and `store_code_mismatch` the
 * field concerned is left out of the notification.
 */
export type CallbackWarningCode =
  | 'alias_only'
  | 'alias_conflict'
  | 'duplicate_parameter'
  | 'missing_parameter'
  | 'invalid_parameter'
  | 'store_code_mismatch';

export interface CallbackIssue<Code extends string> {
  code: Code;
  /** The query parameter concerned, when there is one. */
  parameter?: string;
  /** Human-readable. Never repeats the received value, so it is safe to log and to answer with. */
  message: string;
}

export type CallbackError = CallbackIssue<CallbackErrorCode>;
export type CallbackWarning = CallbackIssue<CallbackWarningCode>;

export type ParseResult =
  | { ok: true; value: OrderUpdatedNotification; warnings: CallbackWarning[] }
  | { ok: false; errors: CallbackError[] };

/** What `parseOrderUpdatedCallback` accepts. Anything else yields `invalid_input`. */
export type CallbackInput = string | URL | URLSearchParams | Request;
