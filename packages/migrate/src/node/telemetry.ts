// A span per submitted line, under the `telemetry` option the run's client was made with (default: the global
// OpenTelemetry providers): a run started with an SDK registered (e.g. `node --import` of the application's
// setup) shows each line with the client's calls (lookups, uploads, createOrder) under it. Without one the
// API's no-op tracer makes this free; a client made with `telemetry: false` makes none.
import { context, SpanKind, trace } from '@opentelemetry/api';
import { endSpan, type TelemetryScope, telemetryOf, telemetryScope } from '@partner-print/client/telemetry';
import type { LineResult } from './submit-line.ts';

/** One scope per client: its option decides. */
const scopes = new WeakMap<object, TelemetryScope | undefined>();

/** `submit()` inside a span `migrateOrderLine`; its result's status, identifier and order end the span. */
export function traceLine(
  client: object,
  line: number,
  submit: () => Promise<LineResult>,
): Promise<LineResult> {
  if (!scopes.has(client)) scopes.set(client, telemetryScope(telemetryOf(client), '@partner-print/migrate'));
  const scope = scopes.get(client);
  if (!scope) return submit();
  const span = scope.tracer.startSpan('migrateOrderLine', {
    kind: SpanKind.INTERNAL,
    attributes: { 'partner_print.migrate.line': line },
  });
  return context.with(trace.setSpan(context.active(), span), submit).then(
    (result) => {
      span.setAttribute('partner_print.migrate.status', result.status);
      if (result.customIdentifier)
        span.setAttribute('partner_print.migrate.custom_identifier', result.customIdentifier);
      if (result.orderReference) span.setAttribute('partner_print.order_reference', result.orderReference);
      const first = result.errors[0];
      endSpan(
        span,
        '',
        result.status === 'failed'
          ? new Error(first ? `${first.code}: ${first.message}` : 'failed')
          : undefined,
      );
      return result;
    },
    (error: unknown) => {
      endSpan(span, '', error);
      throw error;
    },
  );
}
