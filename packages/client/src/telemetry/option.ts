// The `telemetry` option of every package, resolved once: a tracer and meters from the caller's providers,
// else from the global ones the application registered (the OpenTelemetry way: no option needed).
import {
  createNoopMeter,
  type Meter,
  type MeterProvider,
  metrics,
  ProxyTracerProvider,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';

/**
 * `false`: no spans, no metrics, no trace headers. An object: its providers instead of the global ones
 * (each one left out stays global). Default: the global providers, as registered by the application.
 */
export type TelemetryOption = false | { tracerProvider?: TracerProvider; meterProvider?: MeterProvider };

/** What an instrumented package draws on: its tracer and, on each use, its meter. */
export interface TelemetryScope {
  readonly tracer: Tracer;
  /**
   * The meter, or undefined while none is registered. The global meter provider is looked up on each call:
   * unlike tracers, the API's meters do not follow a provider registered after they were made.
   */
  meter(): Meter | undefined;
  /** The option it was made from, for the packages built on this one (render, callback, migrate). */
  readonly option: TelemetryOption | undefined;
  /** False while the tracer is the global one and no tracer provider is registered: spans would be no-ops. */
  tracing(): boolean;
}

const NOOP_METER = createNoopMeter();
// What the global proxy delegates to while nothing is registered.
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();

/** The scope named `name` (the package) for `option`; undefined for `false`. */
export function telemetryScope(
  option: TelemetryOption | undefined,
  name: string,
  version?: string,
): TelemetryScope | undefined {
  if (option === false) return undefined;
  // A ProxyTracer from the global provider: spans start once the application registers one, even later.
  const global = trace.getTracerProvider();
  const tracer = (option?.tracerProvider ?? global).getTracer(name, version);
  const given = option?.meterProvider?.getMeter(name, version);
  let provider: MeterProvider | undefined;
  let meter: Meter | undefined;
  const tracing =
    option?.tracerProvider || !(global instanceof ProxyTracerProvider)
      ? () => true
      : () => global.getDelegate() !== NOOP_TRACER_PROVIDER;
  return {
    tracer,
    option,
    tracing,
    meter() {
      if (given) return given;
      const current = metrics.getMeterProvider();
      if (current !== provider) {
        provider = current;
        const m = current.getMeter(name, version);
        meter = m === NOOP_METER ? undefined : m;
      }
      return meter;
    },
  };
}
