// What both entries export besides their own createClient and options.
export { type Clock, systemClock } from '@partner-print/openapi/wire';
export { MIGRATION_GUIDE, USER_AGENT } from './config.ts';
export type { RequestOptions } from './core.ts';
export { DOCS_URL } from './docs.ts';
export * from './errors.ts';
export type { Logger, LogLevel } from './events.ts';
export {
  type CallInit,
  collect,
  type DownloadPath,
  type DownloadResult,
  download,
  type ListInit,
  type PartnerPrintBaseClient,
  paginate,
  uploadEvidence,
  uploadImage,
} from './helpers.ts';
export type { OperationTable } from './operations.ts';
export {
  AmbiguousOrderError,
  type CombinedOrderRequest,
  type CreateOrderInit,
  createOrder,
  type DropshipOrderRequest,
  IdentifierConflictError,
  lookupOrderReference,
  memoryOrderClaims,
  type OrderClaim,
  type OrderClaims,
  type OrderlineRequest,
  type OrderlineRequests,
  type OrderRequest,
  type OrderRequestOf,
  type OrderResult,
  type OrderStep,
  type RecordedOrder,
  type ShippingKind,
  sameOrderContent,
} from './orders.ts';
export { REDACTED, redactSecret } from './redact.ts';
export { MAX_REDIRECTS } from './redirect.ts';
export type { RateLimitParser } from './response.ts';
export type * from './schemas.ts';
export type { ClientEvent, Fetch, Hooks, RetryOptions } from './transport.ts';
export type {
  CallOptions,
  ClientInit,
  DownloadAs,
  Downloaded,
  DownloadOptions,
  DownloadPending,
  ListItem,
  ListPaths,
  ResponseData,
  StrictMethod,
  ThrowingMethod,
  UploadData,
} from './types.ts';
