import type { TelemetryOption } from '@partner-print/client/telemetry';
import { type Clock, refuseUnknownOptions } from '@partner-print/openapi/wire';
import type { Environment } from './params.ts';
import type { SharedCoalescer } from './shared.ts';
import type { CallbackWarning, OrderReferenceV2, OrderUpdatedNotification } from './types.ts';

/**
 * The one call the handler makes: GET /orders/{orderReference}. `@partner-print/client`'s throwing
 * `get` helper fits; any object with this method does (a wrapper, a test double).
 */
export interface OrderFetcher<TOrder> {
  get(
    path: '/orders/{orderReference}',
    init: { params: { path: { orderReference: OrderReferenceV2 } }; signal?: AbortSignal },
  ): Promise<{ order: TOrder }>;
}

export type HandlerStage = 'fetch' | 'handle' | 'enqueue' | 'timeout';

/** Milliseconds since the epoch, and a sleep that rejects when the signal aborts (the sandbox's clock fits). */
export type { Clock };

/**
 * Handles the current state of an order. `signal` aborts when the round times out (`timeoutMs`):
 * pass it on to long work, and do not apply the order once it is aborted.
 */
export type OnOrderUpdated<TOrder> = (
  order: TOrder,
  notification: OrderUpdatedNotification,
  context: { signal: AbortSignal },
) => unknown;

interface CommonOptions<TOrder> {
  client: OrderFetcher<TOrder>;
  /** The environment this endpoint serves; notifications for the other one get a 422. */
  environment: Environment;
  /** Called with the handler's own failures; the handler answers 500 so the service retries. */
  onError?: (
    error: unknown,
    context: { stage: HandlerStage; notification: OrderUpdatedNotification },
  ) => void;
  /** Called when a valid notification came with warnings (deprecated aliases, repeated parameters). */
  onWarnings?: (warnings: CallbackWarning[], notification: OrderUpdatedNotification) => void;
  /**
   * Give up on one fetch + `onOrderUpdated` round after this long: its notifications are answered
   * 500 (the service retries) and the order's next notification starts a fresh round instead of
   * waiting behind a round that hangs. The round's signal (given to the fetch and to
   * `onOrderUpdated`) is aborted, and a fetch that still answers late is not handled, so an
   * older state can never be applied after a newer one. Default: no limit.
   */
  timeoutMs?: number;
  /**
   * Coalescing window: a round (one fetch + `onOrderUpdated`) starts this long after the first
   * notification of its order, so every notification of that order within the window costs that one
   * fetch. Default 1000: each answer waits up to a second longer. 0 starts a round at once (notifications
   * merge only while a round runs).
   */
  windowMs?: number;
  /**
   * Coalesce across processes (`createRedisCoalescer` of `@partner-print/callback/redis`). When it
   * cannot coordinate (Redis unreachable), the handler coalesces in this process, as without it.
   */
  coalescer?: SharedCoalescer;
  /**
   * Names of your own query parameters that hold secrets (e.g. `['token']` for a callback URL
   * `https://shop.example/hook?token=…`). Their values are replaced by `[redacted]` in every
   * notification the handler hands out: `onOrderUpdated`, `enqueue`, `onError`, `onWarnings`.
   */
  secretParams?: readonly string[];
  /** The clock timing `timeoutMs` and `windowMs` (default: the system clock). */
  clock?: Clock;
  /**
   * OpenTelemetry: a span per notification and per round, and the notification and fetch counters, through
   * the global providers, through `{ tracerProvider, meterProvider }`, or none (`false`). Default: the
   * option `client` was made with (a `@partner-print/client` client), else the global providers.
   */
  telemetry?: TelemetryOption;
}

export interface AfterHandlingOptions<TOrder> extends CommonOptions<TOrder> {
  /** Default: answer 2xx only once `onOrderUpdated` resolved; a failure answers 500 and the service retries. */
  acknowledge?: 'after-handling';
  onOrderUpdated: OnOrderUpdated<TOrder>;
}

export interface ImmediateOptions<TOrder> extends CommonOptions<TOrder> {
  /** Answer 202 as soon as `enqueue` accepted the notification; the caller's queue does the work. */
  acknowledge: 'immediately';
  /** Hands the notification to the caller's queue. If it throws or rejects, the answer is 500. */
  enqueue: (notification: OrderUpdatedNotification) => unknown;
  /** Used by `handler.process(notification)`, for the queue's consumer. */
  onOrderUpdated?: OnOrderUpdated<TOrder>;
}

export type OrderUpdatedHandlerOptions<TOrder> = AfterHandlingOptions<TOrder> | ImmediateOptions<TOrder>;

const isDuration = (value: number | undefined, allowZero: boolean): boolean =>
  value === undefined || (Number.isFinite(value) && (allowZero ? value >= 0 : value > 0));

/** What createOrderUpdatedHandler takes. */
const OPTION_NAMES = [
  'client',
  'environment',
  'onOrderUpdated',
  'acknowledge',
  'enqueue',
  'onError',
  'onWarnings',
  'timeoutMs',
  'windowMs',
  'coalescer',
  'secretParams',
  'clock',
  'telemetry',
];

/** Refuses an incomplete, contradictory or misspelt configuration at creation, with a TypeError. */
export function checkOptions<TOrder>(options: OrderUpdatedHandlerOptions<TOrder>): void {
  // A misspelt option was ignored: `secretParameters` left the URL's token unredacted in every notification.
  // Only its name is shown.
  refuseUnknownOptions(options, OPTION_NAMES, TypeError);
  if (
    options.acknowledge !== undefined &&
    options.acknowledge !== 'immediately' &&
    options.acknowledge !== 'after-handling'
  )
    throw new TypeError("acknowledge must be 'after-handling' or 'immediately'");
  if (options.acknowledge === 'immediately') {
    if (typeof options.enqueue !== 'function') {
      throw new TypeError("acknowledge: 'immediately' needs an enqueue(notification) hook");
    }
  } else if (typeof options.onOrderUpdated !== 'function') {
    throw new TypeError('onOrderUpdated(order, notification) is required');
  }
  if (!isDuration(options.timeoutMs, false)) {
    throw new TypeError('timeoutMs must be a positive number of milliseconds');
  }
  if (!isDuration(options.windowMs, true)) {
    throw new TypeError('windowMs must be a non-negative number of milliseconds');
  }
  if (options.environment !== 'prod' && options.environment !== 'test') {
    throw new TypeError("environment must be 'prod' or 'test'");
  }
  const names = options.secretParams;
  if (names !== undefined && !(Array.isArray(names) && names.every((n) => typeof n === 'string'))) {
    throw new TypeError('secretParams must be an array of query parameter names');
  }
}
