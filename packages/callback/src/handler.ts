import { type Clock, systemClock, TimeoutError } from '@partner-print/client';
import { createCoalescer } from './coalesce.ts';
import type { Order } from './order.ts';
import type { Environment } from './params.ts';
import { parseOrderUpdatedCallback } from './parse.ts';
import type { CallbackError, CallbackWarning, OrderUpdatedNotification } from './types.ts';

/**
 * The one call the handler makes: GET /orders/{orderReference}. `@partner-print/client`'s throwing
 * `get` helper fits; any object with this method does (a wrapper, a test double).
 */
export interface OrderFetcher<TOrder> {
  get(
    path: '/orders/{orderReference}',
    init: { params: { path: { orderReference: string } }; signal?: AbortSignal },
  ): Promise<{ order: TOrder }>;
}

export type HandlerStage = 'fetch' | 'handle' | 'enqueue' | 'timeout';

/** Milliseconds since the epoch, and a sleep that rejects when the signal aborts (the sandbox's clock fits). */
export type { Clock };

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
  /** The clock timing `timeoutMs` (default: the system clock). */
  clock?: Clock;
}

/**
 * Handles the current state of an order. `signal` aborts when the round times out (`timeoutMs`):
 * pass it on to long work, and do not apply the order once it is aborted.
 */
export type OnOrderUpdated<TOrder> = (
  order: TOrder,
  notification: OrderUpdatedNotification,
  context: { signal: AbortSignal },
) => unknown;

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

export interface OrderUpdatedHandler {
  (request: Request): Promise<Response>;
  /** The same handler as a method, so the handler itself is a Workers-style `{ fetch }` module. */
  fetch(request: Request): Promise<Response>;
  /**
   * Fetches the order and calls `onOrderUpdated`, coalesced per order like the handler does.
   * For the consumer of an `acknowledge: 'immediately'` queue. Rejects with the failure, and
   * rejects (without fetching) when no `onOrderUpdated` was given.
   */
  process(notification: OrderUpdatedNotification): Promise<void>;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

function answer(status: number, code: string, message: string, extra?: { errors?: CallbackError[] }) {
  return new Response(JSON.stringify({ code, message, ...extra }), { status, headers: JSON_HEADERS });
}

/**
 * Creates a web-standard `(request) => Promise<Response>` endpoint for the legacy order-updated
 * callback. It refuses what it cannot trust before any fetch (405, 400, 422), then fetches the
 * current order by its V2 reference: the notification says only *that* an order changed.
 * Notifications for an order already being fetched coalesce into one follow-up fetch.
 */
export function createOrderUpdatedHandler<TOrder = Order>(
  options: OrderUpdatedHandlerOptions<TOrder>,
): OrderUpdatedHandler {
  const { client, environment } = options;
  const immediate = options.acknowledge === 'immediately';
  if (immediate && typeof options.enqueue !== 'function') {
    throw new TypeError("acknowledge: 'immediately' needs an enqueue(notification) hook");
  }
  if (!immediate && typeof options.onOrderUpdated !== 'function') {
    throw new TypeError('onOrderUpdated(order, notification) is required');
  }
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) {
    throw new TypeError('timeoutMs must be a positive number of milliseconds');
  }
  if (environment !== 'prod' && environment !== 'test') {
    throw new TypeError("environment must be 'prod' or 'test'");
  }

  const report = (error: unknown, stage: HandlerStage, notification: OrderUpdatedNotification) => {
    try {
      options.onError?.(error, { stage, notification });
    } catch {
      // A failing error hook must not change the answer.
    }
  };

  const { timeoutMs } = options;
  const clock = options.clock ?? systemClock;

  // One fetch + onOrderUpdated. Once `signal` aborts (the round timed out), a late answer is
  // dropped: a newer round may already have applied a newer state of the order.
  const round = async (notification: OrderUpdatedNotification, signal: AbortSignal): Promise<void> => {
    let order: TOrder;
    try {
      const data = await client.get('/orders/{orderReference}', {
        params: { path: { orderReference: notification.orderReferenceV2 } },
        signal,
      });
      order = data.order;
    } catch (error) {
      if (!signal.aborted) report(error, 'fetch', notification);
      throw error;
    }
    signal.throwIfAborted();
    try {
      await options.onOrderUpdated!(order, notification, { signal });
    } catch (error) {
      if (!signal.aborted) report(error, 'handle', notification);
      throw error;
    }
  };

  const bounded = async (notification: OrderUpdatedNotification): Promise<void> => {
    if (typeof options.onOrderUpdated !== 'function') {
      throw new TypeError('handler.process() needs the onOrderUpdated(order, notification) option');
    }
    const cancel = new AbortController();
    if (timeoutMs === undefined) return round(notification, cancel.signal);
    const stop = new AbortController();
    const timer = clock.sleep(timeoutMs, stop.signal).then(() => {
      const error = new TimeoutError(`Handling the order update took longer than ${timeoutMs} ms`, {
        operation: 'orderUpdated',
      });
      cancel.abort(error);
      throw error;
    });
    const work = round(notification, cancel.signal);
    try {
      await Promise.race([work, timer]);
    } catch (error) {
      if (error instanceof TimeoutError && cancel.signal.reason === error) {
        report(error, 'timeout', notification);
      }
      throw error;
    } finally {
      stop.abort();
      // The losing side settles later; it is already reported (or moot), so keep it from going unhandled.
      timer.catch(() => {});
      work.catch(() => {});
    }
  };

  const coalescer = createCoalescer<OrderUpdatedNotification>(bounded);

  const process = (notification: OrderUpdatedNotification) =>
    coalescer.run(notification.orderReferenceV2, notification);

  const handle = async (request: Request): Promise<Response> => {
    if (request.method !== 'GET') {
      return new Response(
        JSON.stringify({ code: 'method_not_allowed', message: 'The callback is an HTTP GET.' }),
        { status: 405, headers: { ...JSON_HEADERS, allow: 'GET' } },
      );
    }
    const parsed = parseOrderUpdatedCallback(request);
    if (!parsed.ok) {
      return answer(400, 'invalid_callback', 'The callback parameters are invalid.', {
        errors: parsed.errors,
      });
    }
    const notification = parsed.value;
    if (notification.environment !== environment) {
      return answer(422, 'wrong_environment', `This endpoint serves the "${environment}" environment.`);
    }
    if (parsed.warnings.length > 0) {
      try {
        options.onWarnings?.(parsed.warnings, notification);
      } catch {
        // Warnings are advisory; a failing hook does not fail the notification.
      }
    }
    if (options.acknowledge === 'immediately') {
      try {
        await options.enqueue(notification);
      } catch (error) {
        report(error, 'enqueue', notification);
        return answer(500, 'enqueue_failed', 'The notification could not be queued; retry later.');
      }
      return new Response(null, { status: 202, headers: { 'cache-control': 'no-store' } });
    }
    try {
      await process(notification);
    } catch {
      return answer(500, 'handling_failed', 'The order update could not be handled; retry later.');
    }
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  };

  const handler = ((request: Request) => handle(request)) as OrderUpdatedHandler;
  handler.fetch = (request: Request) => handle(request);
  handler.process = process;
  return handler;
}
