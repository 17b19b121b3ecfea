// The client's instruments: the conventions' request duration, and the rate-limit queue and budget.
import type {
  Attributes,
  Counter,
  Histogram,
  Meter,
  ObservableCallback,
  ObservableGauge,
  UpDownCounter,
} from '@opentelemetry/api';
import { fieldOf, type RateLimitParser } from '../response.ts';

/** The HTTP client semantic conventions' advice for `http.client.request.duration` (seconds). */
export const DURATION_BUCKETS: number[] = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];
/** Waits in the rate-limit queue run from nothing to a window (60 s) and past it (a Retry-After). */
const QUEUE_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 120, 300];
/** Rate-limit header values kept between two collections: enough for every bucket, bounded. */
const KEPT = 32;

export interface ClientInstruments {
  duration: Histogram;
  queueWait: Histogram;
  queued: UpDownCounter;
  throttled: Counter;
  /** Notes a response's rate-limit fields for the `remaining` gauge (parsed only when metrics are collected). */
  observe(headers: Headers): void;
}

/** The instruments on `meter`, made once per meter. */
export function clientInstruments(
  meter: Meter,
  parse: RateLimitParser | undefined,
  redact: (text: string) => string,
  budget: () => string | Promise<string | undefined> | undefined,
): ClientInstruments {
  // The client's own state, which the meter's callback reaches only through a WeakRef: a meter lives as long as
  // the program, and a callback holding a client's state kept every client made (one per tenant, per request)
  // and its series for ever. The callback of a client collected removes itself at the next collection.
  const state: GaugeState = { remaining: new Map(), seen: [], redact, budget };
  const gauge = meter.createObservableGauge('partner_print.ratelimit.remaining', {
    description: 'Requests left in each rate-limit bucket, as the last response that reported it said',
    unit: '{request}',
  });
  gauge.addCallback(gaugeCallback(gauge, new WeakRef(state), parse));
  return {
    duration: meter.createHistogram('http.client.request.duration', {
      description: 'Duration of HTTP client requests',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    queueWait: meter.createHistogram('partner_print.ratelimit.queue.wait', {
      description: 'Time an attempt waited in the client-side rate-limit queue before it was sent',
      unit: 's',
      advice: { explicitBucketBoundaries: QUEUE_BUCKETS },
    }),
    queued: meter.createUpDownCounter('partner_print.ratelimit.queued', {
      description: 'Attempts waiting in the client-side rate-limit queue',
      unit: '{request}',
    }),
    throttled: meter.createCounter('partner_print.ratelimit.throttled', {
      description: '429 answers, by the bucket that ran out',
      unit: '{response}',
    }),
    observe(headers) {
      // Parsing waits for a collection: a response only costs a look at two header names.
      if (!(headers.has('x-ratelimit') || headers.has('ratelimit'))) return;
      if (state.seen.length >= KEPT) state.seen.shift();
      state.seen.push(headers);
    },
  };
}

/**
 * The `remaining` gauge's callback for one client, made in a scope of its own: a closure made beside the client's
 * `observe` would share its context, and with it hold the client's state strongly.
 */
function gaugeCallback(
  gauge: ObservableGauge,
  ref: WeakRef<GaugeState>,
  parse: RateLimitParser | undefined,
): ObservableCallback {
  const callback: ObservableCallback = async (result) => {
    const client = ref.deref();
    if (!client) {
      gauge.removeCallback(callback);
      return;
    }
    const { remaining } = client;
    for (const headers of client.seen)
      for (const { name, remaining: left } of limitsOf(parse?.(headers))) remaining.set(name, left);
    client.seen = [];
    // Budgets are per organization: clients of several organizations in one process are separate series.
    const of = await client.budget();
    for (const [bucket, left] of remaining)
      result.observe(left, {
        'partner_print.ratelimit.bucket': client.redact(bucket),
        ...(of && { 'partner_print.ratelimit.budget': of }),
      });
  };
  return callback;
}

interface GaugeState {
  remaining: Map<string, number>;
  seen: Headers[];
  redact: (text: string) => string;
  budget: () => string | Promise<string | undefined> | undefined;
}

/** The `limits` of a parsed rate-limit answer (the parser is typed loosely: the client does not own it). */
export function limitsOf(parsed: unknown): Array<{ name: string; remaining: number }> {
  const limits = fieldOf(parsed, 'limits');
  if (!Array.isArray(limits)) return [];
  return limits.filter(
    (l): l is { name: string; remaining: number } =>
      typeof l?.name === 'string' && typeof l?.remaining === 'number',
  );
}

/** The buckets a 429 ran out of, as its headers show them (none named: one point without a bucket). */
export function throttledBuckets(
  headers: Headers,
  parse: RateLimitParser | undefined,
  redact: (text: string) => string,
): Attributes[] {
  const empty = limitsOf(parse?.(headers)).filter((l) => l.remaining <= 0);
  // Bucket names come from the server: a server that echoes the key must not put it in an attribute.
  return empty.length ? empty.map((l) => ({ 'partner_print.ratelimit.bucket': redact(l.name) })) : [{}];
}
