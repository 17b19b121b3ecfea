// Spans and metrics of the callback handler: a span per notification (SERVER when the Node adapter serves
// it and nothing else did), and a span per coalesced round linked to every notification it answers.
import {
  type Context,
  type Counter,
  context,
  type Link,
  type Meter,
  propagation,
  SpanKind,
  type TextMapGetter,
  trace,
} from '@opentelemetry/api';
import { endSpan, type TelemetryOption, telemetryScope } from '@partner-print/client/telemetry';
import { serverRequests } from './server-requests.ts';

const getter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};

interface Counters {
  notifications: Counter;
  fetches: Counter;
}

function countersOf(meter: Meter): Counters {
  return {
    notifications: meter.createCounter('partner_print.callback.notifications', {
      description: 'Order-updated notifications received, by the status the handler answered',
      unit: '{notification}',
    }),
    fetches: meter.createCounter('partner_print.callback.fetches', {
      description: 'Rounds run: each fetches the order once for every notification it answers',
      unit: '{fetch}',
    }),
  };
}

const activeLink = (): Link | undefined => {
  const span = trace.getSpan(context.active());
  return span?.isRecording() ? { context: span.spanContext() } : undefined;
};

/** The handler's spans: one per notification, one per round, linked. */
export interface CallbackTelemetry {
  /** `answer()` inside the notification's span; the status it answers ends the span. */
  notification(request: Request, answer: () => Promise<Response>): Promise<Response>;
  /** The active notification waits for the next round of `order` in this process. */
  join(order: string): void;
  /**
   * A round of `order` starts: its span links every notification that joined it, or (`alone`: a round
   * the fleet's coalescer runs for this notification) the active one.
   */
  round(order: string, run: () => Promise<void>, alone?: boolean): Promise<void>;
}

/** The handler's telemetry for `option`; undefined for `false`. */
/** The HTTP methods the semantic conventions name (RFC 9110's, PATCH and QUERY). */
const HTTP_METHOD = /^(CONNECT|DELETE|GET|HEAD|OPTIONS|PATCH|POST|PUT|QUERY|TRACE)$/;

export function callbackTelemetry(option: TelemetryOption | undefined): CallbackTelemetry | undefined {
  const scope = telemetryScope(option, '@partner-print/callback');
  if (!scope) return undefined;
  // Per order: the notifications waiting for the round that will answer them.
  const waiting = new Map<string, Link[]>();
  let meter: Meter | undefined;
  let counters: Counters | undefined;
  const count = () => {
    const m = scope.meter();
    if (m !== meter) counters = m && countersOf(m);
    meter = m;
    return counters;
  };
  return {
    /** `answer()` inside the notification's span; the status it answers ends the span. */
    async notification(request: Request, answer: () => Promise<Response>): Promise<Response> {
      const active = context.active();
      // The Node adapter's request is the server's, unless an HTTP instrumentation already has a span.
      const server = serverRequests.has(request) && !trace.getSpan(active);
      const parent: Context = server ? propagation.extract(active, request.headers, getter) : active;
      // The semantic conventions' method: a known one as it is, any other _OTHER (with the original beside it);
      // a SERVER span is named by it (a POST or DELETE was named GET).
      const method = HTTP_METHOD.test(request.method) ? request.method : '_OTHER';
      const span = scope.tracer.startSpan(
        server ? method : 'orderUpdated',
        {
          kind: server ? SpanKind.SERVER : SpanKind.INTERNAL,
          attributes: {
            'http.request.method': method,
            ...(method !== request.method && { 'http.request.method_original': request.method }),
            'url.path': new URL(request.url).pathname,
          },
        },
        parent,
      );
      let status = 500;
      try {
        const response = await context.with(trace.setSpan(parent, span), answer);
        status = response.status;
        return response;
      } finally {
        span.setAttribute('http.response.status_code', status);
        count()?.notifications.add(1, { 'http.response.status_code': status });
        endSpan(span, '', status >= 500 ? new Error(`answered ${status}`) : undefined);
      }
    },
    /** The active notification waits for the next round of `order` in this process. */
    join(order: string): void {
      const link = activeLink();
      if (!link) return;
      const links = waiting.get(order) ?? [];
      links.push(link);
      waiting.set(order, links);
    },
    /**
     * A round of `order` starts: its span links every notification that joined it, or (`alone`: a round
     * the fleet's coalescer runs for this notification) the active one.
     */
    async round(order: string, run: () => Promise<void>, alone = false): Promise<void> {
      const own = alone ? activeLink() : undefined;
      const links = own ? [own] : alone ? [] : (waiting.get(order) ?? []);
      if (!alone) waiting.delete(order);
      const span = scope.tracer.startSpan('handleOrderUpdate', {
        kind: SpanKind.INTERNAL,
        links,
        attributes: {
          'partner_print.order_reference': order,
          'partner_print.callback.notifications': links.length,
        },
      });
      count()?.fetches.add(1);
      try {
        await context.with(trace.setSpan(context.active(), span), run);
        endSpan(span, '');
      } catch (error) {
        endSpan(span, '', error);
        throw error;
      }
    },
  };
}
