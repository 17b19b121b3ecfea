// In-memory OpenTelemetry SDK for the telemetry tests: a tracer provider whose spans are kept, a meter
// provider read on demand, and what they recorded as plain values.
import type { Attributes } from '@opentelemetry/api';
import {
  AggregationTemporality,
  type CollectionResult,
  type DataPoint,
  type Histogram,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';

class ManualReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected onForceFlush() {
    return Promise.resolve();
  }
  protected onShutdown() {
    return Promise.resolve();
  }
}

export interface Point {
  name: string;
  attributes: Attributes;
  value: number | Histogram;
}

/** Providers that keep what they record; `points()` collects the metrics. */
export function otel() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const reader = new ManualReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    exporter,
    /** The ended spans (the processor exports them a tick after they end: flushed first). */
    async spans(): Promise<ReadableSpan[]> {
      await tracerProvider.forceFlush();
      return exporter.getFinishedSpans();
    },
    async points(): Promise<Point[]> {
      const { resourceMetrics }: CollectionResult = await reader.collect();
      return resourceMetrics.scopeMetrics.flatMap((scope) =>
        scope.metrics.flatMap((metric) =>
          (metric.dataPoints as Array<DataPoint<unknown>>).map((p) => ({
            name: metric.descriptor.name,
            attributes: p.attributes,
            value: p.value as number | Histogram,
          })),
        ),
      );
    },
  };
}

/** The span with `name`, the only one (a test that expects one fails on two). */
export function only(spans: ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((s) => s.name === name);
  if (found.length !== 1) throw new Error(`${found.length} spans named ${name}: ${spans.map((s) => s.name)}`);
  return found[0] as ReadableSpan;
}

/** Every string a span, its events and links, or a metric point carries. */
export function strings(spans: readonly ReadableSpan[], points: readonly Point[]): string[] {
  const values = (a: Attributes | undefined) =>
    Object.entries(a ?? {})
      .flat()
      .map(String);
  return [
    ...spans.flatMap((s) => [
      s.name,
      s.status.message ?? '',
      ...values(s.attributes),
      ...s.events.flatMap((e) => [e.name, ...values(e.attributes)]),
      ...s.links.flatMap((l) => values(l.attributes)),
    ]),
    ...points.flatMap((p) => [p.name, ...values(p.attributes)]),
  ];
}

/** The histogram of a point that must be there. */
export function histogramOf(point: Point | undefined): Histogram {
  if (!point || typeof point.value === 'number') throw new Error(`no histogram point: ${point?.name}`);
  return point.value;
}

export { context, SpanKind } from '@opentelemetry/api';
export { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
