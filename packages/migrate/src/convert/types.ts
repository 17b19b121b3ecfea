import type { Address, OrderlineRequest, OrderRequest } from '@partner-print/openapi';

/** The spec's address: which fields are required is not documented, so all are optional. */
export type V2Address = Address;

/** The spec's orderline, without the deprecated `legacySku` that conversion never writes. */
export type V2Orderline = Omit<OrderlineRequest, 'legacySku'>;

/**
 * The order as far as conversion got. When conversion succeeds (`ok: true`) the order is a complete
 * {@link V2OrderRequest} instead; a draft is what a failed conversion could read, fields may be missing.
 */
export interface V2OrderDraft {
  storeReference?: string;
  shippingKind?: 'dropship' | 'combined';
  customIdentifier?: string;
  dropshipAddress?: V2Address;
  dropshipMinimalShippingLevel?: string;
  orderlines: Array<Partial<V2Orderline>>;
}

/** The V2 order request as the spec types it: dropship (with an address) or combined (without). */
export type V2OrderRequest = OrderRequest;

export type ReportAction = 'mapped' | 'renamed' | 'dropped' | 'unknown' | 'converted';

export interface ReportEntry {
  /** Path of the V1 field, e.g. `orderlines[0].sku`. */
  path: string;
  action: ReportAction;
  /** The V1 value (long strings and images are summarised). */
  from: unknown;
  /** Path of the V2 field it went to (`null` when dropped or unknown). */
  to: string | null;
  /** The V2 value, for converted fields. */
  value?: unknown;
  note?: string;
}

export interface ConversionError {
  /** Path of the V1 field; the message does not repeat it. */
  path: string;
  code:
    | 'unknown_sku'
    | 'invalid_image'
    | 'upload_failed'
    | 'lookup_failed'
    | 'invalid_value'
    | 'missing_field'
    | 'missing_image_reference'
    | 'unexpected_image_reference';
  message: string;
}

interface ConversionOutcome {
  report: ReportEntry[];
  errors: ConversionError[];
}

/** The V2 request body is `{ order }`: complete when `ok`, a draft with `errors` otherwise. */
export type ConversionResult =
  | (ConversionOutcome & { ok: true; order: V2OrderRequest })
  | (ConversionOutcome & { ok: false; order: V2OrderDraft });

/**
 * What `resolveSku` may return: a product reference, or a resolution object (see createSkuResolver).
 * `print` (when the catalog says) lets conversion check the orderline image rule.
 */
export type SkuResolutionLike =
  | string
  | { status: 'resolved'; productReference: string; note?: string; print?: boolean }
  | { status: 'unknown' | 'invalid' | 'error'; note?: string; productReference?: undefined };

export interface ConvertOptions {
  /** Legacy SKU → product reference. Throw, or return `{ status: 'unknown' }`, for an unknown SKU. */
  resolveSku?: (sku: string) => Promise<SkuResolutionLike>;
  /** Base64 V1 image → `Image_…` reference (see createImageUploader().uploadBase64). */
  uploadImage?: (base64: string) => Promise<string>;
  /** Store code → store reference, or one store reference for every order lacking `store_reference`. */
  storeReference?: string | ((storeCode: string) => string | undefined | Promise<string | undefined>);
  /**
   * The store reference for an order with neither `store_reference` nor a store code, when
   * `storeReference` is a function (a string `storeReference` is its own default).
   */
  defaultStoreReference?: string;
  /** Used when the V1 order has neither `custom_identifier` nor `partner_reference`. */
  customIdentifier?: string;
  /**
   * Whether a product is a print product (`true`: its orderline needs an image; `false`: it must not
   * have one; `undefined`: unknown, not checked). See `SkuResolver.isPrintProduct`.
   */
  isPrintProduct?: (productReference: string) => boolean | undefined | Promise<boolean | undefined>;
}
