// The client's errors this package throws, re-exported for `instanceof` without a second import.
export {
  GoneError,
  NotFoundError,
  PartnerPrintError,
  RendertokenLimitError,
  TimeoutError,
} from '@partner-print/client/errors';
export type { Clock } from '@partner-print/openapi/wire';
export type { RenderClient } from './api.ts';
export { MemoryRenderStore, type RenderLease, type RenderStore, renderCacheKey } from './cache.ts';
export { findIncompatibility, isProductPerspective } from './compatibility.ts';
export {
  CompositionNotFoundError,
  type CompositionQuery,
  CompositionUnavailableError,
  type Incompatibility,
  type IncompatibilityReason,
  IncompatibleCompositionError,
  InsufficientRendertokensError,
  RenderFailedError,
  RenderTimeoutError,
} from './errors.ts';
export type { ProgressListener, RenderProgressEvent, WarningCode } from './events.ts';
export {
  type BatchProgressEvent,
  type PlannedJob,
  type PlanOptions,
  plan,
  type RejectedJob,
  type RenderJob,
  type RenderManyOptions,
  type RenderManyOutcome,
  type RenderManyResult,
  type RenderPlan,
  renderMany,
} from './many.ts';
export { thumbhashToDataUrl } from './placeholder.ts';
export {
  DEFAULT_POLL_INTERVAL_MS,
  type RenderMockupOptions,
  type RenderMockupResult,
  type RenderOptions,
  renderMockup,
} from './render.ts';
export { nextRendertokenReset, RENDERTOKEN_TIME_ZONE } from './reset.ts';
export type {
  Composition,
  ImageInput,
  Perspective,
  Render,
  RenderFile,
  RenderFileInfo,
  Rendertokens,
  Scene,
} from './types.ts';
