export type { BucketObservation } from './bucket.ts';
export {
  DEFAULT_PARAMETER_NAMES,
  type HeadersInput,
  type ParameterNames,
  type ParsedRateLimitHeaders,
  type ParseOptions,
  parseRateLimitHeaders,
  type RateLimitLimit,
  type RateLimitPolicy,
} from './parse.ts';
export { isRateLimitPaused, type RateLimitPausedError } from './paused.ts';
export { type PolicySpec, type RateLimitDefaults, REFERENCE_DEFAULTS } from './routes.ts';
export {
  createScheduler,
  type FetchLike,
  type RateLimitRequestOptions,
  type RequestInfoLite,
  type Scheduler,
  type SchedulerEvent,
  type SchedulerEvents,
  type SchedulerOptions,
  type SchedulerRequestInit,
  type SchedulerStats,
} from './scheduler.ts';
export {
  type BucketRequest,
  type BucketSnapshot,
  MemoryStore,
  type RateLimitStore,
  type TakeResult,
} from './store.ts';
