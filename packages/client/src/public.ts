// What both entries export besides their own createClient and options.
export { type Clock, systemClock } from './clock.ts';
export { MIGRATION_GUIDE, USER_AGENT } from './config.ts';
export * from './errors.ts';
export {
  type CallInit,
  collect,
  download,
  type PartnerPrintBaseClient,
  paginate,
  uploadEvidence,
  uploadImage,
} from './helpers.ts';
export type { OperationTable } from './operations.ts';
export {
  type CreateOrderInit,
  createOrder,
  lookupOrderReference,
  type OrderResult,
} from './orders/create.ts';
export {
  AmbiguousOrderError,
  IdentifierConflictError,
  memoryOrderClaims,
  type OrderClaim,
  type OrderClaims,
  type OrderRequest,
  type OrderStep,
  type RecordedOrder,
  sameOrderContent,
} from './orders.ts';
export type { RateLimitParser } from './response.ts';
export type { ClientEvent, Fetch, Hooks, RetryOptions } from './transport.ts';
export type {
  DownloadAs,
  Downloaded,
  DownloadOptions,
  DownloadPending,
  ListItem,
  ListPaths,
  ResponseData,
  ThrowingMethod,
  UploadData,
} from './types.ts';
