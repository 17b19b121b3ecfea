// The helpers as standalone functions of a client (what the lite entry exports), and as methods of the client
// object (what the main entry puts on it). Each is typed once, where it is written; the methods take their
// types from the functions.
import type { paths, Reference } from '@partner-print/openapi';
import type { RequestOptions } from './core.ts';
import { type DownloadPath, type DownloadResult, download } from './download.ts';
import {
  type CreateOrderInit,
  createOrder,
  lookupOrderReference,
  type OrderResult,
} from './orders/create.ts';
import type { OrderRequestOf, ShippingKind } from './orders.ts';
import { collect, type ListInit, paginate } from './paginate.ts';
import type {
  CallInit,
  ClientInit,
  DownloadAs,
  DownloadOptions,
  InitParam,
  ListItem,
  ListPaths,
  PartnerPrintBaseClient,
  UploadData,
} from './types.ts';
import { uploadEvidence, uploadImage } from './upload.ts';

export { type DownloadPath, type DownloadResult, download } from './download.ts';
export { collect, type ListInit, paginate } from './paginate.ts';
export type { CallInit, PartnerPrintBaseClient, StrictMethods } from './types.ts';
export { uploadEvidence, uploadImage } from './upload.ts';

/**
 * The helpers as methods of the client object (the main entry's API): each is the standalone function with
 * the client bound. Written out (a bound generic function has no type of its own to name) and checked
 * against the functions where `methodsOf` binds them.
 */
export type PartnerPrintHelpers = {
  /** Every item of a list endpoint, page after page, following `nextCursor` until it is null. */
  paginate: <P extends ListPaths<paths>>(
    path: P,
    ...init: InitParam<ListInit<P>>
  ) => AsyncGenerator<ListItem<paths, P>, void, undefined>;
  /** The items of a list endpoint, at most `max`; stops requesting pages once it has them. */
  collect: <P extends ListPaths<paths>>(
    path: P,
    init?: ListInit<P>,
    options?: { max?: number },
  ) => Promise<ListItem<paths, P>[]>;
  /** Uploads a JPEG or PNG print image (checked before sending) and returns its `Image_…` reference. */
  uploadImage: (data: UploadData, init?: RequestOptions) => Promise<Reference<'Image'>>;
  /** Uploads a JPEG or PNG evidence photo (checked before sending) and returns its `Evidence_…` reference. */
  uploadEvidence: (data: UploadData, init?: RequestOptions) => Promise<Reference<'Evidence'>>;
  /** Render media, thumbnail or product media; waits out 202 + Retry-After unless `wait: false`. */
  download: <P extends DownloadPath, As extends DownloadAs = 'bytes', Wait extends boolean = true>(
    path: P,
    init: ClientInit<paths[P], 'get'>,
    options?: DownloadOptions<As> & { wait?: Wait },
  ) => Promise<DownloadResult<As, Wait>>;
  /** POST /orders at most once per customIdentifier; see the README's orders section. */
  createOrder: <K extends ShippingKind>(
    order: OrderRequestOf<K> & { shippingKind: K },
    init?: CreateOrderInit,
  ) => Promise<OrderResult>;
  /** The order reference for a custom identifier, or null when no order has it. */
  lookupOrderReference: (customIdentifier: string, init?: CallInit) => Promise<Reference<'Order'> | null>;
};

/** The helpers as methods of `client`: each is the standalone function with the client bound. */
function methodsOf(client: PartnerPrintBaseClient): PartnerPrintHelpers {
  const on =
    <A extends unknown[], R>(helper: (client: PartnerPrintBaseClient, ...args: A) => R) =>
    (...args: A): R =>
      helper(client, ...args);
  // TypeScript cannot relate these two generic signatures to the ones written above (conditional types over
  // the type parameter: `InitParam<…>`, `Extract<…, { shippingKind: K }>`), not even to the same signature
  // written twice; the assertions still check that the two are comparable.
  return {
    paginate: on(paginate) as PartnerPrintHelpers['paginate'],
    collect: on(collect),
    uploadImage: on(uploadImage),
    uploadEvidence: on(uploadEvidence),
    download: on(download),
    createOrder: on(createOrder) as PartnerPrintHelpers['createOrder'],
    lookupOrderReference: on(lookupOrderReference),
  };
}

/** Puts the standalone helpers on `client` as methods. */
export function withHelpers<C extends PartnerPrintBaseClient>(client: C): C & PartnerPrintHelpers {
  return Object.assign(client, methodsOf(client));
}
