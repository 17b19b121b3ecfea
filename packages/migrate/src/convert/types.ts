import type { Address } from '@partner-print/openapi';
import type { Reference } from '@partner-print/openapi/wire';

/** The spec's address: which fields are required is not documented, so all are optional. */
export type V2Address = Address;

/**
 * A V2 orderline as conversion writes it (the spec's, without the deprecated `legacySku`). `I` is what
 * `uploadImage` returns: an `Image_` reference, or a placeholder of your own in a dry run.
 */
export interface V2Orderline<I extends string = Reference<'Image'>> {
  productReference: Reference<'Product'>;
  imageReference?: Reference<'Image'> | I;
  quantity: number;
}

/**
 * The order as far as conversion got. When conversion succeeds (`ok: true`) the order is a complete
 * {@link V2OrderRequest} instead; a draft is what a failed conversion could read, fields may be missing.
 */
export interface V2OrderDraft<I extends string = Reference<'Image'>> {
  storeReference?: Reference<'Store'>;
  shippingKind?: 'dropship' | 'combined';
  customIdentifier?: string;
  dropshipAddress?: V2Address;
  dropshipMinimalShippingLevel?: string;
  orderlines: Array<Partial<V2Orderline<I>>>;
}

/** At least one orderline, as the spec requires (`minItems: 1`): an empty array does not compile. */
export type V2Orderlines<I extends string = Reference<'Image'>> = [V2Orderline<I>, ...V2Orderline<I>[]];

interface V2OrderBase<I extends string> {
  storeReference: Reference<'Store'>;
  customIdentifier?: string;
  orderlines: V2Orderlines<I>;
}

/**
 * The V2 order request: dropship (with an address) or combined (without). With `Image_` references (the
 * default) it is the spec's `OrderRequest`, ready for `client.createOrder`.
 */
export type V2OrderRequest<I extends string = Reference<'Image'>> =
  | (V2OrderBase<I> & {
      shippingKind: 'dropship';
      dropshipAddress: V2Address;
      dropshipMinimalShippingLevel?: string;
    })
  | (V2OrderBase<I> & { shippingKind: 'combined' });

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
    | 'unexpected_image_reference'
    | 'invalid_reference';
  message: string;
}

interface ConversionOutcome {
  report: ReportEntry[];
  errors: ConversionError[];
}

/** The V2 request body is `{ order }`: complete when `ok`, a draft with `errors` otherwise. */
export type ConversionResult<I extends string = Reference<'Image'>> =
  | (ConversionOutcome & { ok: true; order: V2OrderRequest<I> })
  | (ConversionOutcome & { ok: false; order: V2OrderDraft<I> });

/**
 * What `resolveSku` may return: a product reference, or a resolution object (see createSkuResolver).
 * `print` (when the catalog says) lets conversion check the orderline image rule.
 */
export type SkuResolutionLike =
  | string
  | { status: 'resolved'; productReference: string; note?: string; print?: boolean }
  | { status: 'unknown' | 'invalid' | 'error'; note?: string; productReference?: undefined };

export interface ConvertOptions<I extends string = Reference<'Image'>> {
  /** Legacy SKU → product reference. Throw, or return `{ status: 'unknown' }`, for an unknown SKU. */
  resolveSku?: (sku: string) => Promise<SkuResolutionLike>;
  /**
   * Base64 V1 image → `Image_…` reference (see createImageUploader().uploadBase64). A dry run may return a
   * placeholder of its own instead (the result's `I`), e.g. `dry-run:sha256:<hex>`.
   */
  uploadImage?: (base64: string) => Promise<I>;
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
