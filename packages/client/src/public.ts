// What both entries export besides their own createClient and options.
export { type Clock, systemClock } from './clock.ts';
export { MIGRATION_GUIDE, USER_AGENT } from './config.ts';
export * from './errors.ts';
export {
  type CallInit,
  collect,
  createOrder,
  download,
  lookupOrderReference,
  type PartnerPrintBaseClient,
  paginate,
  uploadEvidence,
  uploadImage,
} from './helpers.ts';
export type { OperationTable } from './operations.ts';
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
