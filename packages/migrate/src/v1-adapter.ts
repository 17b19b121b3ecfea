/**
 * What code rewritten by `partner-print-migrate code` calls at run time where the V1 value is only known
 * then: a V1 order body becomes a V2 order request through `convertV1Order` (the one home of the field
 * mapping); an `Order_` reference passes as it is, and a partner reference becomes one through the
 * custom-identifier look-up. A V1 order code `<store_code>-<number>` does not: the reference gives V2 no look-up
 * by it, and the custom-identifier look-up would answer whichever order has that string as its custom identifier.
 */
import { NotFoundError, PartnerPrintError } from '@partner-print/client/errors';
import type { Reference } from '@partner-print/openapi/wire';
import type { MigrateClient } from './client.ts';
import { convertV1Order, type V2OrderRequest } from './convert.ts';
import { createImageUploader } from './image.ts';
import { createOrderReferenceResolver, V2_ORDER_REFERENCE } from './references.ts';
import { createSkuResolver, UnknownSkuError } from './resolver.ts';

export interface V1AdapterOptions {
  /** V1 store code → `Store_…` reference (the `--store CODE=Store_…` pairs of the CLI). */
  stores?: Readonly<Record<string, string>>;
  /**
   * For V1 orders whose store code is not in `stores`: one `Store_…` reference, or a resolver from store code
   * to reference (V2 has no look-up by store code: the mapping is yours).
   */
  storeReference?: string | ((storeCode: string) => string | undefined | Promise<string | undefined>);
}

export interface V1Adapter {
  /** The V2 order request for a V1 order body; throws a `PartnerPrintError` listing what did not convert. */
  toV2Order(v1Order: unknown): Promise<V2OrderRequest>;
  /** The product of a legacy SKU (the legacy-SKU look-up); throws `UnknownSkuError` when none carries it. */
  productReference(sku: string): Promise<Reference<'Product'>>;
  /**
   * The `Image_` reference of a V1 base64 image (plain base64, base64url or a `data:` URL), decoded and checked
   * as `convertV1Order` does (`InvalidImageError` for anything but a JPEG or PNG, before any request); the same
   * bytes are uploaded once per adapter, however often and however concurrently they come.
   */
  uploadImage(base64: string): Promise<Reference<'Image'>>;
  /**
   * An `Order_` reference, as it is. Anything else (a V1 order code `<store_code>-<number>`, which V2 cannot
   * look up) is refused with a `PartnerPrintError` of code `unresolvable_order_reference`, never looked up
   * as a custom identifier; nothing given is a `NotFoundError`, as V1 answered `/orders/null`.
   */
  orderReference(v1Reference: string | number | null | undefined): Promise<Reference<'Order'>>;
  /**
   * The `Order_` reference of the order whose custom identifier is this V1 partner reference (the reference's
   * map of V1's look-up by partner reference); a `NotFoundError` when no order has it.
   */
  orderReferenceByPartnerReference(
    partnerReference: string | number | null | undefined,
  ): Promise<Reference<'Order'>>;
}

const UNRESOLVABLE =
  "Not an Order_ reference, and V2 has no look-up by V1 order code: pass the Order_ reference of V2's POST /orders answer or the callback's order_reference_v2; a partner reference goes through orderReferenceByPartnerReference.";

type AdapterClient = MigrateClient & Required<Pick<MigrateClient, 'uploadImage'>>;

export function createV1Adapter(client: AdapterClient, options: V1AdapterOptions = {}): V1Adapter {
  const skus = createSkuResolver(client);
  const images = createImageUploader((bytes) => client.uploadImage(bytes));
  const references = createOrderReferenceResolver(client);
  const stores = new Map(Object.entries(options.stores ?? {}));
  return {
    async toV2Order(v1Order) {
      const result = await convertV1Order(v1Order, {
        resolveSku: (sku) => skus.resolve(sku),
        uploadImage: (b64) => images.uploadBase64(b64),
        storeReference: async (code) => {
          const fallback = options.storeReference;
          return stores.get(code) ?? (typeof fallback === 'function' ? await fallback(code) : fallback);
        },
        ...(typeof options.storeReference === 'string'
          ? { defaultStoreReference: options.storeReference }
          : {}),
      });
      if (result.ok) return result.order;
      const what = result.errors.map((e) => `${e.path || 'order'}: ${e.message}`).join('; ');
      throw new PartnerPrintError(`The V1 order does not convert to a V2 order: ${what}`, {
        code: 'invalid_v1_order',
      });
    },
    async productReference(sku) {
      const r = await skus.resolve(sku);
      if (r.status === 'resolved') return r.productReference as Reference<'Product'>;
      if (r.status === 'error') throw r.cause ?? new PartnerPrintError(r.note);
      throw new UnknownSkuError(sku, r.note);
    },
    async uploadImage(base64) {
      return images.uploadBase64(base64);
    },
    async orderReference(v1Reference) {
      // V1 code put whatever it had into the path (a missing value became `/orders/null`, a 404).
      if (v1Reference === null || v1Reference === undefined || v1Reference === '')
        throw new NotFoundError(`No order reference given (${String(v1Reference)}).`, { status: 404 });
      const input = String(v1Reference);
      if (V2_ORDER_REFERENCE.test(input)) return input as Reference<'Order'>;
      // Not a 404: the order may well exist. Named by its kind, not quoted (a value may be anything).
      throw new PartnerPrintError(UNRESOLVABLE, { code: 'unresolvable_order_reference' });
    },
    async orderReferenceByPartnerReference(partnerReference) {
      if (partnerReference === null || partnerReference === undefined || partnerReference === '')
        throw new NotFoundError(`No partner reference given (${String(partnerReference)}).`, { status: 404 });
      // The resolver's look-up: one per partner reference for the adapter's life, at most its concurrency at once.
      const r = await references.resolvePartnerReference(String(partnerReference));
      if (r.status === 'resolved' && r.orderReference) return r.orderReference as Reference<'Order'>;
      // A look-up that failed is not a 404: a catch of `status === 404` must not take it for one. The client's
      // own error of the look-up (its status, code and request id) passes through, as productReference gives it.
      if (r.status === 'error') throw r.cause ?? new PartnerPrintError(r.note);
      throw new NotFoundError(r.note, { status: 404 });
    },
  };
}
