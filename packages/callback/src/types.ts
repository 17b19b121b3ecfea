import type { Environment } from './params.ts';

export type { Environment } from './params.ts';

/** A V2 order reference, `Order_` followed by 26 letters or digits. */
export type OrderReferenceV2 = `Order_${string}`;

/** The validated content of one order-updated notification. It says *that* an order changed, not what. */
export interface OrderUpdatedNotification {
  environment: Environment;
  /** V1-style reference `<store_code>-<number>`. */
  orderReference: string;
  /** `orderReference` split on its last `-`. `number` stays a string (leading zeros, no precision loss). */
  orderReferenceParts: { storeCode: string; number: string };
  /** V2 reference, the one to fetch the order with (GET /orders/{orderReference}). */
  orderReferenceV2: OrderReferenceV2;
  storeCode: string;
  customReference?: string;
  viaStoreCode?: string;
  /**
   * The partner's own query parameters (those of the configured callback URL), in order,
   * duplicates kept. `new URLSearchParams(extra)` turns them back into a parameter list.
   */
  extra: Array<[name: string, value: string]>;
}

export type CallbackErrorCode =
  | 'invalid_input'
  | 'input_too_long'
  | 'missing_parameter'
  | 'invalid_parameter'
  | 'duplicate_parameter'
  | 'store_code_mismatch';

export type CallbackWarningCode = 'alias_only' | 'alias_conflict' | 'duplicate_parameter';

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
