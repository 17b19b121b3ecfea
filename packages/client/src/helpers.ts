// The helpers as standalone functions of a client (what the lite entry exports), and as methods of the client
// object (what the main entry puts on it). Each is typed once, where it is written; the methods take their
// types from the functions.
import { download } from './download.ts';
import { createOrder, lookupOrderReference } from './orders/create.ts';
import { collect, paginate } from './paginate.ts';
import type { PartnerPrintBaseClient } from './types.ts';
import { uploadEvidence, uploadImage } from './upload.ts';

export { type DownloadPath, type DownloadResult, download } from './download.ts';
export { collect, type ListInit, paginate } from './paginate.ts';
export type { CallInit, PartnerPrintBaseClient, StrictMethods } from './types.ts';
export { uploadEvidence, uploadImage } from './upload.ts';

/** The helpers as methods of `client`: each is the standalone function with the client bound. */
function methodsOf(client: PartnerPrintBaseClient) {
  const on =
    <A extends unknown[], R>(helper: (client: PartnerPrintBaseClient, ...args: A) => R) =>
    (...args: A): R =>
      helper(client, ...args);
  return {
    /** Every item of a list endpoint, page after page, following `nextCursor` until it is null. */
    paginate: on(paginate),
    /** The items of a list endpoint, at most `max`; stops requesting pages once it has them. */
    collect: on(collect),
    /** Uploads a JPEG or PNG print image (checked before sending) and returns its `Image_…` reference. */
    uploadImage: on(uploadImage),
    /** Uploads a JPEG or PNG evidence photo (checked before sending) and returns its `Evidence_…` reference. */
    uploadEvidence: on(uploadEvidence),
    /** Render media, thumbnail or product media; waits out 202 + Retry-After unless `wait: false`. */
    download: on(download),
    /** POST /orders at most once per customIdentifier; see the README's orders section. */
    createOrder: on(createOrder),
    /** The order reference for a custom identifier, or null when no order has it. */
    lookupOrderReference: on(lookupOrderReference),
  };
}

/** The helpers as methods of the client object (the main entry's API). */
export type PartnerPrintHelpers = ReturnType<typeof methodsOf>;

/** Puts the standalone helpers on `client` as methods. */
export function withHelpers<C extends PartnerPrintBaseClient>(client: C): C & PartnerPrintHelpers {
  return Object.assign(client, methodsOf(client));
}
