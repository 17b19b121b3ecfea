// The helpers as standalone functions of a client: what the main entry puts on the client object, and
// what the lite entry exports alone, so a bundle holds only the helpers it calls.
import type { paths } from '@partner-print/openapi';
import type { Scheduler } from '@partner-print/ratelimit';
import type { Client, MaybeOptionalInit } from 'openapi-fetch';
import * as download_ from './download.ts';
import * as orders from './orders.ts';
import * as pages from './paginate.ts';
import type {
  DownloadAs,
  Downloaded,
  DownloadOptions,
  DownloadPending,
  InitParam,
  ListItem,
  ListPaths,
  Media,
  PathsWith,
  ResponseData,
  ThrowingMethod,
  UploadData,
} from './types.ts';
import * as uploads from './upload.ts';

/** The typed client of both entries: openapi-fetch's methods plus the throwing `get` and `post`. */
export interface PartnerPrintBaseClient extends Client<paths, Media> {
  /** The rate-limit scheduler beneath the retry layer (`stats()`, `on(event)`), unless there is none. */
  readonly scheduler: Scheduler | undefined;
  /** `GET` that resolves to `data` or throws a `PartnerPrintError`. */
  get: ThrowingMethod<paths, 'get'>;
  /** `POST` that resolves to `data` or throws a `PartnerPrintError` (AmbiguousOutcomeError when a non-repeatable POST may have taken effect). */
  post: ThrowingMethod<paths, 'post'>;
}

export type DownloadPath = Extract<
  PathsWith<paths, 'get'>,
  | '/renders/{renderReference}/media'
  | '/renders/{renderReference}/thumbnail'
  | `/products/${string}/media/${string}`
>;
export type OrderInput = paths extends {
  '/orders': { post: { requestBody: { content: { 'application/json': { order: infer O } } } } };
}
  ? O
  : never;
export type CreatedOrder = NonNullable<ResponseData<paths, '/orders', 'post'>>;
/** Per-call options of the helpers that build their own request. */
export interface CallInit {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

type Base = PartnerPrintBaseClient;

/** Every item of a list endpoint, page after page, following `nextCursor` until it is null. */
export const paginate = pages.paginate as <P extends ListPaths<paths>>(
  client: Base,
  path: P,
  ...init: InitParam<MaybeOptionalInit<paths[P], 'get'>>
) => AsyncGenerator<ListItem<paths, P>, void, undefined>;

/** The items of a list endpoint, at most `max`; stops requesting pages once it has them. */
export const collect = pages.collect as <P extends ListPaths<paths>>(
  client: Base,
  path: P,
  init?: MaybeOptionalInit<paths[P], 'get'>,
  options?: { max?: number },
) => Promise<ListItem<paths, P>[]>;

type Upload = (client: Base, data: UploadData, init?: CallInit) => Promise<string>;

/** Uploads a JPEG or PNG print image (checked before sending) and returns its `Image_…` reference. */
export const uploadImage = uploads.uploadImage as Upload;

/** Uploads a JPEG or PNG evidence photo (checked before sending) and returns its `Evidence_…` reference. */
export const uploadEvidence = uploads.uploadEvidence as Upload;

interface DownloadFunction {
  <P extends DownloadPath, As extends DownloadAs = 'bytes'>(
    client: Base,
    path: P,
    init: MaybeOptionalInit<paths[P], 'get'>,
    options?: DownloadOptions<As> & { wait?: true },
  ): Promise<Downloaded<As>>;
  <P extends DownloadPath, As extends DownloadAs = 'bytes'>(
    client: Base,
    path: P,
    init: MaybeOptionalInit<paths[P], 'get'>,
    options: DownloadOptions<As> & { wait: false },
  ): Promise<Downloaded<As> | DownloadPending>;
}
/** Render media, thumbnail or product media; waits out 202 + Retry-After unless `wait: false`. */
export const download = download_.download as DownloadFunction;

/**
 * POST /orders, never blindly repeated: after a network error, timeout or 5xx it looks the order up
 * by `customIdentifier` and returns the one that exists, or creates it if absent. Without a
 * customIdentifier such a failure throws AmbiguousOutcomeError.
 */
export const createOrder = orders.createOrder as (
  client: Base,
  order: OrderInput,
  init?: CallInit,
) => Promise<CreatedOrder>;

/** The order reference for a custom identifier, or null when no order has it. */
export const lookupOrderReference = orders.lookupOrderReference as (
  client: Base,
  customIdentifier: string,
  init?: CallInit,
) => Promise<string | null>;

/** The helpers as methods of the client object (the main entry's API). */
export interface PartnerPrintHelpers {
  /** Every item of a list endpoint, page after page, following `nextCursor` until it is null. */
  paginate<P extends ListPaths<paths>>(
    path: P,
    ...init: InitParam<MaybeOptionalInit<paths[P], 'get'>>
  ): AsyncGenerator<ListItem<paths, P>, void, undefined>;
  /** The items of a list endpoint, at most `max`; stops requesting pages once it has them. */
  collect<P extends ListPaths<paths>>(
    path: P,
    init?: MaybeOptionalInit<paths[P], 'get'>,
    options?: { max?: number },
  ): Promise<ListItem<paths, P>[]>;
  /** Uploads a JPEG or PNG print image (checked before sending) and returns its `Image_…` reference. */
  uploadImage(data: UploadData, init?: CallInit): Promise<string>;
  /** Uploads a JPEG or PNG evidence photo and returns its `Evidence_…` reference. */
  uploadEvidence(data: UploadData, init?: CallInit): Promise<string>;
  /** Render media, thumbnail or product media; waits out 202 + Retry-After unless `wait: false`. */
  download<P extends DownloadPath, As extends DownloadAs = 'bytes'>(
    path: P,
    init: MaybeOptionalInit<paths[P], 'get'>,
    options?: DownloadOptions<As> & { wait?: true },
  ): Promise<Downloaded<As>>;
  download<P extends DownloadPath, As extends DownloadAs = 'bytes'>(
    path: P,
    init: MaybeOptionalInit<paths[P], 'get'>,
    options: DownloadOptions<As> & { wait: false },
  ): Promise<Downloaded<As> | DownloadPending>;
  /**
   * POST /orders, never blindly repeated: after a network error, timeout or 5xx it looks the order up
   * by `customIdentifier` and returns the one that exists, or creates it if absent. Without a
   * customIdentifier such a failure throws AmbiguousOutcomeError.
   */
  createOrder(order: OrderInput, init?: CallInit): Promise<CreatedOrder>;
  /** The order reference for a custom identifier, or null when no order has it. */
  lookupOrderReference(customIdentifier: string, init?: CallInit): Promise<string | null>;
}

// biome-ignore lint/suspicious/noExplicitAny: the standalone functions check their own arguments
type Args = any[];

/** Puts the standalone helpers on `client` as methods. */
export function withHelpers<C extends object>(client: C): C & PartnerPrintHelpers {
  const on =
    (helper: (client: C, ...args: Args) => unknown) =>
    (...args: Args) =>
      helper(client, ...args);
  return Object.assign(client, {
    paginate: on(pages.paginate),
    collect: on(pages.collect),
    uploadImage: on(uploads.uploadImage),
    uploadEvidence: on(uploads.uploadEvidence),
    download: on(download_.download),
    createOrder: on(orders.createOrder),
    lookupOrderReference: on(orders.lookupOrderReference),
  }) as C & PartnerPrintHelpers;
}
