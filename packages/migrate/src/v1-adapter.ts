/**
 * What code rewritten by `partner-print-migrate code` calls at run time where the V1 value is only known
 * then: a V1 order body becomes a V2 order request through `convertV1Order` (the one home of the field
 * mapping), and a V1 order identifier (a `<store_code>-<number>` code, a partner reference or already an
 * `Order_` reference) becomes an `Order_` reference through the custom-identifier lookup.
 */
import { NotFoundError, PartnerPrintError } from '@partner-print/client';
import type { Reference } from '@partner-print/openapi/wire';
import type { MigrateClient } from './client.ts';
import { convertV1Order, type V2OrderRequest } from './convert.ts';
import { createImageUploader } from './image.ts';
import { createOrderReferenceResolver } from './references.ts';
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
  /** The `Order_` reference for a V1 order code, a partner reference, or an `Order_` reference. */
  orderReference(v1Reference: string | number | null | undefined): Promise<Reference<'Order'>>;
}

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
      const r = await references.resolve(String(v1Reference));
      if (r.status === 'resolved' && r.orderReference) return r.orderReference as Reference<'Order'>;
      // A look-up that failed is not a 404: a catch of `status === 404` must not take it for one.
      // The client's own error of the look-up (its status, code and request id), as productReference gives it.
      if (r.status === 'error') throw r.cause ?? new PartnerPrintError(r.note);
      throw new NotFoundError(r.note, { status: 404 });
    },
  };
}
