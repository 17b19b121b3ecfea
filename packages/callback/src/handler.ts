import { trace } from '@opentelemetry/api';
import { telemetryOf } from '@partner-print/client/telemetry';
import { type Clock, quietly, systemClock } from '@partner-print/openapi/wire';
import { createCoalescer } from './coalesce.ts';
import { checkOptions, type HandlerStage, type OrderUpdatedHandlerOptions } from './options.ts';
import type { Order } from './order.ts';
import { parseOrderUpdatedCallback } from './parse.ts';
import { redactNotification } from './redact.ts';
import { createRound } from './round.ts';
import { type CallbackTelemetry, callbackTelemetry } from './telemetry.ts';
import type { CallbackError, OrderUpdatedNotification } from './types.ts';

export type {
  AfterHandlingOptions,
  Clock,
  HandlerStage,
  ImmediateOptions,
  OnOrderUpdated,
  OrderFetcher,
  OrderUpdatedHandlerOptions,
} from './options.ts';

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
const NO_STORE = { 'cache-control': 'no-store' };

function answer(status: number, code: string, message: string, extra?: { errors?: CallbackError[] }) {
  return new Response(JSON.stringify({ code, message, ...extra }), { status, headers: JSON_HEADERS });
}

/**
 * `process`: one round per order at a time, coalesced in this process (with the window) or across the
 * fleet through `options.coalescer`, falling back to this process when the fleet cannot coordinate.
 */
/**
 * The default coalescing window. The service sends several notifications per change and retries: with no
 * window a storm costs a fetch per gap (1,000 notifications for 10 orders over 2 s: up to 41 per order).
 * A second keeps it to at most 3 per order while adding at most a second to each answer.
 */
const DEFAULT_WINDOW_MS = 1000;

function createProcess<TOrder>(
  options: OrderUpdatedHandlerOptions<TOrder>,
  clock: Clock,
  round: (notification: OrderUpdatedNotification) => Promise<void>,
  telemetry: CallbackTelemetry | undefined,
): (notification: OrderUpdatedNotification) => Promise<void> {
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const traced = (n: OrderUpdatedNotification, alone?: boolean) =>
    telemetry ? telemetry.round(n.orderReferenceV2, () => round(n), alone) : round(n);
  const local = createCoalescer<OrderUpdatedNotification>(traced, { windowMs, clock });
  const join = (notification: OrderUpdatedNotification) => {
    telemetry?.join(notification.orderReferenceV2);
    return local.run(notification.orderReferenceV2, notification);
  };
  const shared = options.coalescer;
  if (!shared) return join;
  return async (notification) => {
    const outcome = await shared.run(notification.orderReferenceV2, () => traced(notification, true), {
      windowMs,
      clock,
    });
    if (outcome === 'unavailable') await join(notification);
  };
}

/**
 * Creates a web-standard `(request) => Promise<Response>` endpoint for the legacy order-updated
 * callback. It refuses what it cannot trust before any fetch (405, 400, 422), then fetches the
 * current order by its V2 reference: the notification says only *that* an order changed.
 * Notifications for one order coalesce: within `windowMs`, while a round runs, and across processes
 * with a shared `coalescer`.
 */
export function createOrderUpdatedHandler<TOrder = Order>(
  options: OrderUpdatedHandlerOptions<TOrder>,
): OrderUpdatedHandler {
  checkOptions(options);
  const clock = options.clock ?? systemClock;
  const secrets = new Set(options.secretParams ?? []);
  const report = (error: unknown, stage: HandlerStage, notification: OrderUpdatedNotification) =>
    quietly(() => options.onError?.(error, { stage, notification }));
  const round = createRound({ ...options, clock, report });
  const telemetry = callbackTelemetry(options.telemetry ?? telemetryOf(options.client));
  const process = createProcess(options, clock, round, telemetry);

  const handle = async (request: Request): Promise<Response> => {
    if (request.method !== 'GET') {
      const response = answer(405, 'method_not_allowed', 'The callback is an HTTP GET.');
      response.headers.set('allow', 'GET');
      return response;
    }
    const parsed = parseOrderUpdatedCallback(request);
    if (!parsed.ok) {
      return answer(400, 'invalid_callback', 'The callback parameters are invalid.', {
        errors: parsed.errors,
      });
    }
    const notification = redactNotification(parsed.value, secrets);
    if (telemetry)
      trace.getActiveSpan()?.setAttribute('partner_print.order_reference', notification.orderReferenceV2);
    if (notification.environment !== options.environment) {
      return answer(
        422,
        'wrong_environment',
        `This endpoint serves the "${options.environment}" environment.`,
      );
    }
    if (parsed.warnings.length > 0) quietly(() => options.onWarnings?.(parsed.warnings, notification));
    if (options.acknowledge === 'immediately') {
      try {
        await options.enqueue(notification);
      } catch (error) {
        report(error, 'enqueue', notification);
        return answer(500, 'enqueue_failed', 'The notification could not be queued; retry later.');
      }
      return new Response(null, { status: 202, headers: NO_STORE });
    }
    try {
      await process(notification);
    } catch {
      return answer(500, 'handling_failed', 'The order update could not be handled; retry later.');
    }
    return new Response(null, { status: 204, headers: NO_STORE });
  };

  const serve = telemetry
    ? (request: Request) => telemetry.notification(request, () => handle(request))
    : handle;
  const handler = Object.assign((request: Request) => serve(request), {
    fetch: (request: Request) => serve(request),
    process: (notification: OrderUpdatedNotification) => process(redactNotification(notification, secrets)),
  });
  return handler;
}
