import { PartnerPrintError, TimeoutError } from '@partner-print/client/errors';
import type { Clock } from '@partner-print/openapi/wire';
import type { HandlerStage, OnOrderUpdated, OrderFetcher } from './options.ts';
import type { OrderUpdatedNotification } from './types.ts';

export type Report = (error: unknown, stage: HandlerStage, notification: OrderUpdatedNotification) => void;

export interface RoundOptions<TOrder> {
  client: OrderFetcher<TOrder>;
  onOrderUpdated?: OnOrderUpdated<TOrder> | undefined;
  timeoutMs?: number | undefined;
  clock: Clock;
  report: Report;
}

/**
 * One fetch + onOrderUpdated. Once `signal` aborts (the round timed out), a late answer is dropped:
 * a newer round may already have applied a newer state of the order.
 */
async function fetchAndHandle<TOrder>(
  options: RoundOptions<TOrder>,
  handle: OnOrderUpdated<TOrder>,
  notification: OrderUpdatedNotification,
  signal: AbortSignal,
): Promise<void> {
  let order: TOrder;
  try {
    const data = await options.client.get('/orders/{orderReference}', {
      params: { path: { orderReference: notification.orderReferenceV2 } },
      signal,
    });
    order = data?.order;
    // A 2xx without an order (a proxy's page, a wrong base URL) must not be acknowledged as handled.
    if (!order || typeof order !== 'object')
      throw new PartnerPrintError('The answer holds no order', { code: 'unexpected_response' });
  } catch (error) {
    if (!signal.aborted) options.report(error, 'fetch', notification);
    throw error;
  }
  signal.throwIfAborted();
  try {
    await handle(order, notification, { signal });
  } catch (error) {
    if (!signal.aborted) options.report(error, 'handle', notification);
    throw error;
  }
}

/** `fetchAndHandle` bounded by `timeoutMs`: past it the round's signal aborts and it fails with a TimeoutError. */
async function withTimeout<TOrder>(
  options: RoundOptions<TOrder>,
  handle: OnOrderUpdated<TOrder>,
  notification: OrderUpdatedNotification,
  timeoutMs: number,
): Promise<void> {
  const cancel = new AbortController();
  const stop = new AbortController();
  const timer = options.clock.sleep(timeoutMs, stop.signal).then(() => {
    const error = new TimeoutError(`Handling the order update took longer than ${timeoutMs} ms`, {
      operation: 'orderUpdated',
    });
    cancel.abort(error);
    throw error;
  });
  const work = fetchAndHandle(options, handle, notification, cancel.signal);
  try {
    await Promise.race([work, timer]);
  } catch (error) {
    if (error instanceof TimeoutError && cancel.signal.reason === error) {
      options.report(error, 'timeout', notification);
    }
    throw error;
  } finally {
    stop.abort();
    // The losing side settles later; it is already reported (or moot), so keep it from going unhandled.
    timer.catch(() => {});
    work.catch(() => {});
  }
}

/** The round the coalescers run: fetch the current order and hand it to `onOrderUpdated`. */
export function createRound<TOrder>(
  options: RoundOptions<TOrder>,
): (notification: OrderUpdatedNotification) => Promise<void> {
  return async (notification) => {
    const handle = options.onOrderUpdated;
    if (typeof handle !== 'function') {
      throw new TypeError('handler.process() needs the onOrderUpdated(order, notification) option');
    }
    if (options.timeoutMs === undefined) {
      return fetchAndHandle(options, handle, notification, new AbortController().signal);
    }
    return withTimeout(options, handle, notification, options.timeoutMs);
  };
}
