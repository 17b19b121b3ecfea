import type { TelemetryOption } from '@partner-print/client/telemetry';
import { type Clock, type Reference, refuseUnknownOptions, systemClock } from '@partner-print/openapi/wire';
import type { RenderStore } from './cache.ts';
import { RenderTimeoutError } from './errors.ts';
import { emitter, type ProgressListener } from './events.ts';

/** The polling interval the reference asks for. */
export const DEFAULT_POLL_INTERVAL_MS = 60_000;
/** How long catalog reads (lookups, scenes, perspectives, productgroups) are reused. */
export const DEFAULT_CATALOG_TTL_MS: number = 5 * 60_000;

export interface RenderOptions {
  /** Cancels this call's waiting (polls, token waits, downloads); the render goes on in the service. */
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** Between status polls; default 60 000 (the reference's interval). A longer `Retry-After` wins. */
  pollIntervalMs?: number;
  /** Bound on the whole call, token waits included; `RenderTimeoutError` when it passes. */
  timeoutMs?: number;
  /** When rendertokens run short, wait for the weekly reset instead of throwing `RendertokenLimitError`. */
  waitForTokens?: boolean;
  /** Known renders by (composition, image): default an in-process Map per client; `false` for none. */
  cache?: RenderStore | false;
  /** Time source for polls, waits and deadlines (e.g. a sandbox's virtual clock); default real time. */
  clock?: Clock;
  /** Check scene/perspective/productgroup compatibility before spending tokens; default true. */
  checkCompatibility?: boolean;
  /** How long catalog reads are reused; default 5 minutes. */
  catalogTtlMs?: number;
  /**
   * OpenTelemetry: a span per mockup with its progress as events (and a `renderMany` span over a batch's),
   * and `partner_print.rendertokens.remaining`, through the global providers, through `{ tracerProvider,
   * meterProvider }`, or none (`false`). Default: the option the client was made with, else the global providers.
   */
  telemetry?: TelemetryOption;
}

/**
 * Everything one call carries through the steps. Its clock, signal, deadline and listener are what a shared
 * task asks of a caller joining it: the context itself is passed.
 */
export interface CallContext {
  clock: Clock;
  signal: AbortSignal | undefined;
  deadline: number;
  timeoutMs: number | undefined;
  emit: ProgressListener;
  listener: ProgressListener | undefined;
  pollIntervalMs: number;
  waitForTokens: boolean;
  store: RenderStore | undefined;
  checkCompatibility: boolean;
  catalogTtlMs: number;
  /** False in renderMany, whose plan already read the rendertokens. */
  preflight: boolean;
  /** The answer of the POST /renders this call paid for, once sent (a batch job rejected after it names the render). */
  post?: Promise<Reference<'Render'>>;
}

/** What renderMockup, plan and renderMany take: RenderOptions, a mockup's job fields and a batch's concurrency. */
const OPTION_NAMES = [
  'signal',
  'onProgress',
  'pollIntervalMs',
  'timeoutMs',
  'waitForTokens',
  'cache',
  'clock',
  'checkCompatibility',
  'catalogTtlMs',
  'telemetry',
  'sceneReference',
  'productReference',
  'perspectiveReference',
  'image',
  'concurrency',
];

export function callContext(defaultStore: RenderStore, options: RenderOptions): CallContext {
  // A misspelt option was ignored: `timeout` left the call unbounded, `waitForToken` threw instead of waiting.
  // Only its name is shown.
  refuseUnknownOptions(options, OPTION_NAMES, TypeError);
  const clock = options.clock ?? systemClock;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  // Finite: an infinite interval would sleep for the longest timer there is (about 25 days) between polls.
  if (!(Number.isFinite(pollIntervalMs) && pollIntervalMs > 0))
    throw new RangeError('pollIntervalMs must be a positive, finite number of milliseconds');
  if (options.timeoutMs !== undefined && !(options.timeoutMs >= 0))
    throw new RangeError('timeoutMs must be a non-negative number of milliseconds');
  if (options.catalogTtlMs !== undefined && !(options.catalogTtlMs >= 0))
    throw new RangeError('catalogTtlMs must be a non-negative number of milliseconds');
  const emit = emitter(options.onProgress);
  return {
    clock,
    signal: options.signal,
    deadline: options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : clock.now() + options.timeoutMs,
    timeoutMs: options.timeoutMs,
    emit,
    listener: options.onProgress ? emit : undefined,
    pollIntervalMs,
    waitForTokens: options.waitForTokens ?? false,
    store: options.cache === false ? undefined : (options.cache ?? defaultStore),
    checkCompatibility: options.checkCompatibility ?? true,
    catalogTtlMs: options.catalogTtlMs ?? DEFAULT_CATALOG_TTL_MS,
    preflight: true,
  };
}

/** A batch's `concurrency`: a positive whole number (NaN used to start no worker at all). */
export function checkConcurrency(concurrency: number | undefined, fallback: number): number {
  const value = concurrency ?? fallback;
  if (!(Number.isInteger(value) && value > 0))
    throw new RangeError('concurrency must be a positive whole number');
  return value;
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

export function checkpoint(ctx: CallContext, what: string, renderReference?: string): void {
  if (ctx.signal?.aborted) throw abortReason(ctx.signal);
  if (ctx.clock.now() >= ctx.deadline)
    throw new RenderTimeoutError(`timeoutMs (${ctx.timeoutMs} ms) passed while ${what}.`, renderReference);
}

/**
 * Waits for `promise` (work shared with other calls: a catalog read, an upload) until this call is aborted or its
 * deadline passes (armed as `until` arms it), whichever comes first; the work itself is left to finish.
 */
export function bounded<T>(ctx: CallContext, what: string, promise: Promise<T>): Promise<T> {
  checkpoint(ctx, what);
  const timed = until(
    ctx.clock,
    ctx.deadline,
    promise,
    () => new RenderTimeoutError(`timeoutMs (${ctx.timeoutMs} ms) passed while ${what}.`),
  ).then((value) => {
    checkpoint(ctx, what);
    return value;
  });
  const signal = ctx.signal;
  if (!signal) return timed;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    timed.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Real time a store call is given on another clock than real time before the call's deadline is armed. */
export const STORE_GRACE_MS = 1_000;

/**
 * A render store's answer (or shared work's), or `timeout()` (a RenderTimeoutError) once `deadline` (clock time)
 * passes: timeoutMs bounds the store calls too. The store call itself is left to finish; its timers end with it.
 * On another clock (a virtual one in tests), whose time jumps to the next timer while a store answers in real time
 * (Redis), the deadline is armed only after STORE_GRACE_MS of real time without an answer.
 */
export function until<T>(
  clock: Clock,
  deadline: number,
  answer: T | Promise<T>,
  timeout: () => unknown = () => new RenderTimeoutError('timeoutMs passed'),
): Promise<T> {
  if (deadline === Number.POSITIVE_INFINITY) return Promise.resolve(answer);
  const stop = new AbortController();
  return Promise.race([
    answer,
    (clock === systemClock ? Promise.resolve() : systemClock.sleep(STORE_GRACE_MS, stop.signal))
      .then(() => clock.sleep(deadline - clock.now(), stop.signal))
      .then(() => {
        throw timeout();
      }),
  ]).finally(() => stop.abort());
}

export function settle<T>(
  promise: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}
