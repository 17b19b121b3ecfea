// A span per mockup with its progress (polls, token decisions, waits, cache hits) as span events, and the
// rendertokens gauge, under the `telemetry` option shared with the client.
import { type Attributes, context, type Meter, type Span, SpanKind, trace } from '@opentelemetry/api';
import {
  endSpan,
  type TelemetryOption,
  type TelemetryScope,
  telemetryOf,
  telemetryScope,
} from '@partner-print/client/telemetry';
import { quietly } from '@partner-print/openapi/wire';
import type { ProgressListener, RenderProgressEvent } from './events.ts';

/** The option a call follows: its own, else the one its client was made with, else the global providers. */
export function telemetryFor(
  client: unknown,
  option: TelemetryOption | undefined,
): TelemetryOption | undefined {
  return option ?? telemetryOf(client);
}

/** Rendertokens left, as the last read of GET /rendertokens said, per meter. */
const remaining = new WeakMap<Meter, { value: number | undefined }>();

function tokensGauge(meter: Meter) {
  let last = remaining.get(meter);
  if (!last) {
    const state: { value: number | undefined } = { value: undefined };
    meter
      .createObservableGauge('partner_print.rendertokens.remaining', {
        description: 'Rendertokens left this week, as the last read said',
        unit: '{rendertoken}',
      })
      .addCallback((result) => {
        if (state.value !== undefined) result.observe(state.value);
      });
    remaining.set(meter, state);
    last = state;
  }
  return last;
}

/** An event's fields as attributes: primitives and dates as they are, rendertokens by count. */
function attributesOf(event: RenderProgressEvent): Attributes {
  const attributes: Attributes = {};
  for (const [key, value] of Object.entries(event)) {
    if (key === 'type') continue;
    const name = `partner_print.render.${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      attributes[name] = value;
    else if (value instanceof Date) attributes[name] = value.toISOString();
    else if (key === 'rendertokens' && value && typeof value === 'object' && 'remaining' in value) {
      attributes['partner_print.rendertokens.remaining'] = Number(value.remaining);
      if ('limit' in value) attributes['partner_print.rendertokens.limit'] = Number(value.limit);
    } else if (key === 'composition' && value && typeof value === 'object' && 'reference' in value)
      attributes['partner_print.render.composition_reference'] = String(value.reference);
  }
  return attributes;
}

/**
 * `run(listener)` inside a span named `name`, the listener it is given adding each progress event to the
 * span (and the rendertokens to the gauge) before `listener` hears it. Without telemetry: `run(listener)`.
 */
export function traceMockup<T>(
  option: TelemetryOption | undefined,
  name: string,
  attributes: Attributes,
  listener: ProgressListener | undefined,
  run: (listener: ProgressListener | undefined) => Promise<T>,
): Promise<T> {
  const scope = telemetryScope(option, '@partner-print/render');
  if (!scope) return run(listener);
  const meter = scope.meter();
  const tokens = meter && tokensGauge(meter);
  return inSpan(scope, name, attributes, (span) =>
    run((event) => {
      if (event.type === 'tokens' && tokens) tokens.value = event.rendertokens.remaining;
      if (span.isRecording()) span.addEvent(`partner_print.render.${event.type}`, attributesOf(event));
      quietly(() => listener?.(event));
    }),
  );
}

/** What a batch tells its span: the plan, and how its jobs ended. */
export interface BatchTrace {
  planned(plan: {
    totalCost: number;
    remaining: number;
    fits: unknown[];
    deferred: unknown[];
    rejected: unknown[];
  }): void;
  settled(status: 'fulfilled' | 'deferred' | 'rejected'): void;
}

/**
 * `run(trace)` inside a `renderMany` span: the jobs' `renderMockup` spans are its children, the plan is an
 * event (and its rendertokens read goes to the gauge), and the jobs' outcomes are counted on it.
 */
export function traceBatch<T>(
  option: TelemetryOption | undefined,
  jobs: number,
  run: (trace: BatchTrace | undefined) => Promise<T>,
): Promise<T> {
  const scope = telemetryScope(option, '@partner-print/render');
  if (!scope) return run(undefined);
  const meter = scope.meter();
  const counts = { fulfilled: 0, deferred: 0, rejected: 0 };
  const counted = (span: Span) =>
    span.setAttributes({
      'partner_print.render.fulfilled': counts.fulfilled,
      'partner_print.render.deferred': counts.deferred,
      'partner_print.render.rejected': counts.rejected,
    });
  return inSpan(
    scope,
    'renderMany',
    { 'partner_print.render.jobs': jobs },
    (span) =>
      run({
        planned(plan) {
          if (meter) tokensGauge(meter).value = plan.remaining;
          if (!span.isRecording()) return;
          span.addEvent('partner_print.render.planned', {
            'partner_print.render.total_cost': plan.totalCost,
            'partner_print.rendertokens.remaining': plan.remaining,
            'partner_print.render.fits': plan.fits.length,
            'partner_print.render.deferred': plan.deferred.length,
            'partner_print.render.rejected': plan.rejected.length,
          });
        },
        settled(status) {
          counts[status]++;
        },
      }),
    counted,
  );
}

/**
 * `run(span)` with `span` (INTERNAL, a child of the active span) active for everything `run` does; the span
 * ends with `run`'s outcome, after `beforeEnd(span)`.
 */
function inSpan<T>(
  scope: TelemetryScope,
  name: string,
  attributes: Attributes,
  run: (span: Span) => Promise<T>,
  beforeEnd?: (span: Span) => void,
): Promise<T> {
  const parent = context.active();
  const span = scope.tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, parent);
  const end = (error?: unknown) => {
    beforeEnd?.(span);
    endSpan(span, '', error);
  };
  return context
    .with(trace.setSpan(parent, span), () => run(span))
    .then(
      (value) => {
        end();
        return value;
      },
      (error: unknown) => {
        end(error);
        throw error;
      },
    );
}
