export { type BuildCallbackUrlOptions, buildCallbackUrl, type CallbackUrlParams } from './build-url.ts';
export {
  type AfterHandlingOptions,
  type Clock,
  createOrderUpdatedHandler,
  type HandlerStage,
  type ImmediateOptions,
  type OnOrderUpdated,
  type OrderFetcher,
  type OrderUpdatedHandler,
  type OrderUpdatedHandlerOptions,
} from './handler.ts';
export type { Order } from './order.ts';
export {
  ALIASES,
  ENVIRONMENTS,
  ORDER_REFERENCE_V2_PATTERN,
  PARAMETERS,
  STORE_CODE_PATTERN,
} from './params.ts';
export { parseOrderUpdatedCallback } from './parse.ts';
export type { SharedCoalescer, SharedOutcome } from './shared.ts';
export type {
  CallbackError,
  CallbackErrorCode,
  CallbackInput,
  CallbackIssue,
  CallbackWarning,
  CallbackWarningCode,
  Environment,
  OrderReferenceV2,
  OrderUpdatedNotification,
  ParseResult,
} from './types.ts';
