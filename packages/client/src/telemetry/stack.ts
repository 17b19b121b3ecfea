// Spans and metrics of the client's calls: an INTERNAL span per call parenting a CLIENT span per send,
// named and attributed by the HTTP client semantic conventions; trace context injected into every send.
import {
  type Attributes,
  type Context,
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapSetter,
  trace,
} from '@opentelemetry/api';
import { budgetKeyOf } from '@partner-print/openapi/wire';
import type { Fetch } from '../deadline.ts';
import { PartnerPrintError } from '../errors.ts';
import { isError, redactText } from '../redact.ts';
import type { CallContext, RateLimitParser } from '../response.ts';
import { errorTypeOf, methodOf, retryReasonOf, serverOf } from './attributes.ts';
import { type ClientInstruments, clientInstruments, throttledBuckets } from './metrics.ts';
import type { TelemetryScope } from './option.ts';
import type { CallTelemetry, StackTelemetry } from './types.ts';

const setter: TextMapSetter<Headers> = { set: (headers, key, value) => headers.set(key, value) };

export interface StackTelemetryOptions {
  scope: TelemetryScope;
  secret: string;
  /** The path template of an operationId (`/orders/{orderReference}`). */
  templateOf: (operation: string) => string | undefined;
  parseRateLimit?: RateLimitParser | undefined;
}

/** The client's telemetry; `limited` is set when a rate-limit queue the client sends through is in place. */
export function stackTelemetry(o: StackTelemetryOptions): StackTelemetry & { limited: boolean } {
  const calls = new WeakMap<Request, Call>();
  const redact = (text: string) => redactText(text, o.secret);
  let meter: unknown;
  let instruments: ClientInstruments | undefined;
  let budget: string | Promise<string | undefined> | undefined;
  const instrumentsNow = () => {
    const m = o.scope.meter();
    if (m !== meter && m && budget === undefined)
      // The budget's name as a shared store knows it (`sha256:` of the key), cut to a fingerprint (12 hex
      // digits): it tells organizations apart and is not the key. A collection waits for it.
      budget = budgetKeyOf(o.secret).then(
        (key) => (budget = key.slice(0, key.indexOf(':') + 13)),
        () => undefined,
      );
    if (m !== meter) instruments = m && clientInstruments(m, o.parseRateLimit, redact, () => budget);
    meter = m;
    return instruments;
  };
  const self = {
    limited: false,
    call(request: Request, contextOf: (req: Request) => CallContext): CallTelemetry | undefined {
      const instruments = instrumentsNow();
      // Nothing to record, measure or propagate (no SDK registered): the call goes as without telemetry.
      if (!instruments && !o.scope.tracing() && propagation.fields().length === 0) return undefined;
      return new Call(o, calls, request, contextOf(request), instruments, self.limited);
    },
    transport:
      (fetch: Fetch): Fetch =>
      (req, init) => {
        const call = calls.get(req);
        return call ? call.send(fetch, req, init) : fetch(req, init);
      },
    relay(from: Request, to: Request) {
      const call = calls.get(from);
      if (call) calls.set(to, call);
      return to;
    },
  };
  return self;
}

class Call implements CallTelemetry {
  // Fields assigned in the constructor are declared, not defined: a class field declaration would be emitted
  // beside each assignment (the bundle's bytes, and a define per field per call).
  declare readonly o: StackTelemetryOptions;
  readonly #calls: WeakMap<Request, Call>;
  /**
   * The URL of the call's request, not the request: a call is the value of its requests' entries in `calls`,
   * which a young collection keeps whole and drops only once their key is dead, so a call holding its request
   * (the key of its first attempt's entry) kept it, and itself, through young collections until a full one.
   */
  declare readonly url: string;
  declare readonly call: CallContext;
  declare readonly instruments: ClientInstruments | undefined;
  readonly #limited: boolean;
  declare readonly span: Span;
  declare readonly ctx: Context;
  declare readonly recording: boolean;
  declare readonly template: string | undefined;
  readonly #metricAttributes: Attributes = {};
  #sends = 0;
  #queuedAt: number | undefined;
  /** A 2xx whose body the client reads: the span ends when it has (see `read`). */
  #held = false;

  constructor(
    o: StackTelemetryOptions,
    calls: WeakMap<Request, Call>,
    request: Request,
    call: CallContext,
    instruments: ClientInstruments | undefined,
    limited: boolean,
  ) {
    this.o = o;
    this.#calls = calls;
    this.url = request.url;
    this.call = call;
    this.instruments = instruments;
    this.#limited = limited;
    const parent = context.active();
    this.template = call.operation && o.templateOf(call.operation);
    const method = methodOf(request.method);
    const name = call.operation ?? (this.template ? `${method} ${this.template}` : method);
    this.span = o.scope.tracer.startSpan(
      name,
      {
        kind: SpanKind.INTERNAL,
        attributes: call.operation ? { 'partner_print.operation': call.operation } : {},
      },
      parent,
    );
    this.ctx = trace.setSpan(parent, this.span);
    this.recording = this.span.isRecording();
    if (instruments) {
      this.#metricAttributes['http.request.method'] = method;
      if (this.template) this.#metricAttributes['url.template'] = this.template;
    }
  }

  attempt(req: Request): void {
    this.#calls.set(req, this);
    if (!this.#limited) return;
    this.#leaveQueue();
    this.#queuedAt = performance.now();
    this.instruments?.queued.add(1, this.#metricAttributes);
  }

  /** The attempt left the queue (sent, or given up while waiting): the wait in ms, if it was queued. */
  #leaveQueue(): number | undefined {
    if (this.#queuedAt === undefined) return undefined;
    const wait = performance.now() - this.#queuedAt;
    this.#queuedAt = undefined;
    this.instruments?.queued.add(-1, this.#metricAttributes);
    return wait;
  }

  retry(delayMs: number, status: number | undefined, error: unknown): void {
    if (!this.recording) return;
    this.span.addEvent('partner_print.retry', {
      'http.request.resend_count': this.#sends,
      'partner_print.retry.delay_ms': Math.round(delayMs),
      'partner_print.retry.reason': redactText(retryReasonOf(status, error), this.o.secret),
    });
  }

  send(fetch: Fetch, req: Request, init: Parameters<Fetch>[1]): Promise<Response> {
    const wait = this.#leaveQueue();
    if (wait !== undefined) this.#queueWait(wait);
    const resend = this.#sends++;
    if (!this.recording && !this.instruments) {
      propagation.inject(this.ctx, req.headers, setter);
      return fetch(req, init);
    }
    return new Send(this, req, resend).run(fetch, init);
  }

  #queueWait(ms: number): void {
    this.instruments?.queueWait.record(ms / 1000, this.#metricAttributes);
    // Under a millisecond is the queue's bookkeeping, not a wait worth a line in a trace.
    if (this.recording && ms >= 1)
      this.span.addEvent('partner_print.ratelimit.queue_wait', {
        'partner_print.ratelimit.wait_ms': Math.round(ms),
      });
  }

  end(result: Promise<Response>, held: boolean): Promise<Response> {
    return result.then(
      (response) => {
        this.#leaveQueue();
        if (!response.ok && this.recording) this.#fail(String(response.status), undefined);
        this.#held = response.ok && held;
        if (!this.#held) this.span.end();
        return response;
      },
      (error: unknown) => {
        this.#leaveQueue();
        this.#held = false;
        if (this.recording) this.#fail(redactText(errorCode(error), this.o.secret), error);
        this.span.end();
        throw error;
      },
    );
  }

  read(error?: unknown): void {
    if (!this.#held) return;
    this.#held = false;
    if (error !== undefined && this.recording) this.#fail(redactText(errorCode(error), this.o.secret), error);
    this.span.end();
  }

  #fail(type: string, error: unknown): void {
    this.span.setAttribute('error.type', type);
    const message = isError(error) ? redactText(error.message, this.o.secret) : undefined;
    this.span.setStatus({ code: SpanStatusCode.ERROR, ...(message && { message }) });
  }
}

const errorCode = (error: unknown) =>
  error instanceof PartnerPrintError && error.code ? error.code : errorTypeOf(error);

/** One send of an attempt: its CLIENT span and its `http.client.request.duration`. */
class Send {
  // Set for every send (recording or not): one shape.
  readonly #span: Span | undefined;
  readonly #call: Call;
  readonly #req: Request;
  readonly #attributes: Attributes;
  readonly #start = performance.now();
  #ended = false;

  constructor(call: Call, req: Request, resend: number) {
    this.#call = call;
    this.#req = req;
    const url = new URL(req.url);
    const method = methodOf(req.method);
    // A redirect leaves the call's path: its template no longer applies.
    const template = req.url === call.url ? call.template : undefined;
    this.#attributes = {
      'http.request.method': method,
      ...serverOf(url),
      ...(template && { 'url.template': template }),
    };
    if (!call.recording) return;
    this.#span = call.o.scope.tracer.startSpan(
      template ? `${method} ${template}` : method,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          ...this.#attributes,
          'url.full': redactText(req.url, call.o.secret),
          ...(resend > 0 && { 'http.request.resend_count': resend }),
        },
      },
      call.ctx,
    );
  }

  run(fetch: Fetch, init: Parameters<Fetch>[1]): Promise<Response> {
    const active = this.#span ? trace.setSpan(this.#call.ctx, this.#span) : this.#call.ctx;
    propagation.inject(active, this.#req.headers, setter);
    // The attempt's deadline or the caller's abort ends the send even under a transport that ignores the signal
    // (its promise then never settles): the span and the duration point come from the abort. Only with telemetry
    // that records (reading the signal makes it, and a listener costs per send).
    const signal = (this.#span || this.#call.instruments) && init?.signal;
    if (signal)
      signal.addEventListener('abort', () => this.#done(undefined, signal.reason, undefined), { once: true });
    // The send runs in the CLIENT span's context: a fetch instrumentation beneath nests under it.
    return context
      .with(active, () => fetch(this.#req, init))
      .then(
        (response) => {
          this.#done(response.status, undefined, response.headers);
          return response;
        },
        (error: unknown) => {
          this.#done(undefined, error, undefined);
          throw error;
        },
      );
  }

  #done(status: number | undefined, error: unknown, headers: Headers | undefined): void {
    // Once: an abort and the transport's own settling (later, or never) both end it.
    if (this.#ended) return;
    this.#ended = true;
    const attributes: Attributes = { ...this.#attributes };
    if (status !== undefined) attributes['http.response.status_code'] = status;
    const type =
      status === undefined
        ? errorTypeOf(error, this.#req.signal)
        : status >= 400
          ? String(status)
          : undefined;
    // A transport's error code is the transport's text: redacted like everything else the SDK surfaces.
    if (type) attributes['error.type'] = redactText(type, this.#call.o.secret);
    const span = this.#span;
    const call = this.#call;
    if (span) {
      span.setAttributes(attributes);
      if (type) span.setStatus({ code: SpanStatusCode.ERROR });
      if (isError(error))
        span.recordException({ name: error.name, message: redactText(error.message, call.o.secret) });
      span.end();
    }
    const instruments = call.instruments;
    if (!instruments) return;
    instruments.duration.record((performance.now() - this.#start) / 1000, attributes);
    if (!headers) return;
    instruments.observe(headers);
    if (status === 429)
      for (const bucket of throttledBuckets(headers, call.o.parseRateLimit, (text) =>
        redactText(text, call.o.secret),
      ))
        instruments.throttled.add(1, bucket);
  }
}
