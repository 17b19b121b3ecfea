// Traces and metrics of the client by the HTTP client semantic conventions, with the OpenTelemetry SDK's
// in-memory exporters: retries, a 429 pause, concurrent callers, trace headers, and the option's forms.

import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { budgetKeyOf } from '@partner-print/openapi/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../src/index.ts';
import { createClient as createLiteClient } from '../src/lite.ts';
import { DURATION_BUCKETS } from '../src/telemetry/metrics.ts';
import { sandboxClientOf, withSignal } from './helpers.ts';
import { histogramOf, only, otel } from './otel.ts';

const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
});
afterAll(() => {
  context.disable();
  propagation.disable();
  trace.disable();
});

/** A sandbox client with its own providers; `sent` keeps the headers of every request that left. */
function traced(options: Parameters<typeof createClient>[0] | object = {}) {
  const sdk = otel();
  const sent: Headers[] = [];
  const made = sandboxClientOf(createClient, {
    telemetry: { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider },
    ...options,
  });
  const send = withSignal(made.sandbox);
  const client = createClient({
    secretKey: made.sandbox.keys.primary,
    baseUrl: made.sandbox.baseUrl,
    clock: made.sandbox.clock,
    fetch: (request, init) => {
      sent.push(new Headers(request.headers));
      return send(request, init);
    },
    telemetry: { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider },
    ...options,
  });
  return { ...made, client, sdk, sent };
}

const hex = (id: string) => expect(id).toMatch(/^[0-9a-f]+$/);

describe('a call', () => {
  it('is an INTERNAL span named for its operation, parenting one CLIENT span by the conventions', async () => {
    const { client, sdk, sandbox, sent } = traced();
    await client.get('/claimcategories');
    const spans = await sdk.spans();
    const call = only(spans, 'listClaimcategories');
    const attempt = only(spans, 'GET /claimcategories');
    expect(call.kind).toBe(SpanKind.INTERNAL);
    expect(call.attributes['partner_print.operation']).toBe('listClaimcategories');
    expect(attempt.kind).toBe(SpanKind.CLIENT);
    expect(attempt.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    const url = new URL(sandbox.baseUrl);
    expect(attempt.attributes).toEqual({
      'http.request.method': 'GET',
      'url.full': `${sandbox.baseUrl}/claimcategories`,
      'url.template': '/claimcategories',
      'server.address': url.hostname,
      'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      'http.response.status_code': 200,
    });
    expect(attempt.status.code).toBe(SpanStatusCode.UNSET);
    // The W3C header names the CLIENT span: the server's span will be its child.
    const { traceId, spanId } = attempt.spanContext();
    hex(traceId);
    expect(sent[0]?.get('traceparent')).toBe(`00-${traceId}-${spanId}-01`);
  });

  it('retried after two 503s: three CLIENT spans with resend counts, two retry events', async () => {
    const { client, sdk, sandbox, seed } = traced({ retry: { attempts: 3, baseDelayMs: 10 } });
    const { order } = await client.createOrder({
      storeReference: seed.stores.combined,
      shippingKind: 'combined',
      orderlines: [{ productReference: seed.products.nonPrint, quantity: 1 }],
    });
    sdk.exporter.reset();
    sandbox.control.injectFault({ path: '/orders/*', kind: 'status', status: 503, count: 2 });
    await client.get('/orders/{orderReference}', { params: { path: { orderReference: order.reference } } });
    const spans = await sdk.spans();
    const call = only(spans, 'getOrder');
    const attempts = spans.filter((s) => s.name === 'GET /orders/{orderReference}');
    expect(attempts.map((s) => s.attributes['http.response.status_code'])).toEqual([503, 503, 200]);
    expect(attempts.map((s) => s.attributes['http.request.resend_count'])).toEqual([undefined, 1, 2]);
    expect(attempts.map((s) => s.attributes['error.type'])).toEqual(['503', '503', undefined]);
    expect(attempts.map((s) => s.status.code)).toEqual([
      SpanStatusCode.ERROR,
      SpanStatusCode.ERROR,
      SpanStatusCode.UNSET,
    ]);
    for (const a of attempts) expect(a.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    const retries = call.events.filter((e) => e.name === 'partner_print.retry');
    expect(retries.map((e) => e.attributes?.['partner_print.retry.reason'])).toEqual(['503', '503']);
    expect(retries.map((e) => e.attributes?.['http.request.resend_count'])).toEqual([1, 2]);
    for (const e of retries) expect(e.attributes?.['partner_print.retry.delay_ms']).toBeGreaterThanOrEqual(0);
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('that fails ends its INTERNAL span with the error code, and each attempt with error.type', async () => {
    const { client, sdk } = traced({ retry: false });
    const error = await client
      .get('/orders/{orderReference}', {
        params: { path: { orderReference: 'Order_00000000000000000000000000' } },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const call = only(await sdk.spans(), 'getOrder');
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes['error.type']).toBe('404');
    const attempt = only(await sdk.spans(), 'GET /orders/{orderReference}');
    expect(attempt.attributes['error.type']).toBe('404');
  });

  it('a transport that ignores the signal and never answers: the CLIENT span and its duration end at the deadline (review: left open)', async () => {
    const sdk = otel();
    const client = createClient({
      secretKey: 'sk_test_never_answers_1234',
      baseUrl: 'http://127.0.0.1:9/v2',
      retry: false,
      rateLimit: false,
      timeoutMs: 50,
      fetch: () => new Promise<Response>(() => {}),
      telemetry: { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider },
    });
    await expect(client.get('/claimcategories')).rejects.toMatchObject({ code: 'timeout' });
    const attempt = only(await sdk.spans(), 'GET /claimcategories');
    expect(attempt.attributes['error.type']).toBe('timeout');
    expect(attempt.status.code).toBe(SpanStatusCode.ERROR);
    const duration = (await sdk.points()).filter((p) => p.name === 'http.client.request.duration');
    expect(duration.map((p) => p.attributes['error.type'])).toEqual(['timeout']);
  });

  it('a network failure: error.type is the transport error code', async () => {
    const sdk = otel();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const client = createClient({
      secretKey: 'sk_test_network_failure_1234',
      baseUrl: `http://127.0.0.1:${port}/v2`,
      retry: false,
      rateLimit: false,
      telemetry: { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider },
    });
    await client.get('/claimcategories').catch(() => {});
    const attempt = only(await sdk.spans(), 'GET /claimcategories');
    expect(attempt.attributes['error.type']).toBe('ECONNREFUSED');
    expect(attempt.events.map((e) => e.name)).toContain('exception');
    expect(only(await sdk.spans(), 'listClaimcategories').attributes['error.type']).toBe('network_error');
  });
});

describe('concurrent calls in separate parent spans', () => {
  it('each call joins its own caller’s trace, through the default scheduler', async () => {
    const { client, sdk, sent } = traced();
    const tracer = sdk.tracerProvider.getTracer('test');
    const parents = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        tracer.startActiveSpan(`request ${i}`, async (parent) => {
          await client.get('/claimcategories');
          parent.end();
          return parent.spanContext();
        }),
      ),
    );
    const spans = await sdk.spans();
    const calls = spans.filter((s) => s.name === 'listClaimcategories');
    const attempts = spans.filter((s) => s.name === 'GET /claimcategories');
    expect(calls).toHaveLength(6);
    expect(new Set(parents.map((p) => p.traceId)).size).toBe(6);
    for (const parent of parents) {
      const call = calls.find((c) => c.parentSpanContext?.spanId === parent.spanId);
      expect(call?.spanContext().traceId).toBe(parent.traceId);
      const attempt = attempts.find((a) => a.parentSpanContext?.spanId === call?.spanContext().spanId);
      expect(attempt?.spanContext().traceId).toBe(parent.traceId);
      expect(sent.some((h) => h.get('traceparent')?.includes(parent.traceId))).toBe(true);
    }
  });

  it('carry the caller’s baggage on the wire', async () => {
    const { client, sent } = traced();
    const bag = propagation.createBaggage({ tenant: { value: 'shop-42' } });
    await context.with(propagation.setBaggage(context.active(), bag), () => client.get('/claimcategories'));
    expect(sent[0]?.get('baggage')).toBe('tenant=shop-42');
  });
});

describe('a 429 pause', () => {
  it('shows as a queue-wait event on the calls that waited, and in the queue and 429 metrics', async () => {
    const sdk = otel();
    // The first answer is a 429 that empties the default bucket for a second; every later one is a 200.
    let answered = 0;
    const fetch = async () =>
      answered++ === 0
        ? new Response('{"code":"rate_limited","message":"slow down"}', {
            status: 429,
            headers: {
              'content-type': 'application/json',
              'retry-after': '1',
              'x-ratelimit-policy': '"default";q=3000;w=60',
              'x-ratelimit': '"default";r=0;t=1',
            },
          })
        : Response.json({ claimCategories: [] });
    const client = createClient({
      secretKey: 'sk_test_pause_0123456789',
      baseUrl: 'https://api.example.test/v2',
      fetch,
      telemetry: { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider },
    });
    const first = client.get('/claimcategories');
    await new Promise((resolve) => setTimeout(resolve, 50)); // the 429 is in: the bucket is paused
    await Promise.all([first, client.get('/claimcategories'), client.get('/claimcategories')]);
    const calls = (await sdk.spans()).filter((s) => s.name === 'listClaimcategories');
    const waits = calls.flatMap((c) =>
      c.events.filter((e) => e.name === 'partner_print.ratelimit.queue_wait'),
    );
    const longest = Math.max(...waits.map((e) => Number(e.attributes?.['partner_print.ratelimit.wait_ms'])));
    expect(longest).toBeGreaterThan(500);
    const points = await sdk.points();
    const wait = points.find((p) => p.name === 'partner_print.ratelimit.queue.wait');
    expect(histogramOf(wait).count).toBeGreaterThanOrEqual(3); // one per attempt the client queued
    expect(histogramOf(wait).max).toBeGreaterThan(0.5);
    const queued = points.find((p) => p.name === 'partner_print.ratelimit.queued');
    expect(queued?.value).toBe(0); // every attempt that entered the queue left it
    const throttled = points.filter((p) => p.name === 'partner_print.ratelimit.throttled');
    expect(throttled.map((p) => [p.attributes['partner_print.ratelimit.bucket'], p.value])).toEqual([
      ['default', 1],
    ]);
  }, 20_000);
});

describe('metrics', () => {
  it('http.client.request.duration: the conventions’ buckets and attributes, one point per status', async () => {
    const { client, sdk, sandbox } = traced({ retry: false });
    await client.get('/claimcategories');
    await client.get('/claimcategories');
    await client
      .get('/orders/{orderReference}', {
        params: { path: { orderReference: 'Order_00000000000000000000000000' } },
      })
      .catch(() => {});
    const points = (await sdk.points()).filter((p) => p.name === 'http.client.request.duration');
    const url = new URL(sandbox.baseUrl);
    const ok = points.find((p) => p.attributes['http.response.status_code'] === 200);
    expect(ok?.attributes).toEqual({
      'http.request.method': 'GET',
      'url.template': '/claimcategories',
      'server.address': url.hostname,
      'server.port': Number(url.port || 80),
      'http.response.status_code': 200,
    });
    expect(histogramOf(ok).count).toBe(2);
    expect(histogramOf(ok).buckets.boundaries).toEqual(DURATION_BUCKETS);
    const missing = points.find((p) => p.attributes['http.response.status_code'] === 404);
    expect(missing?.attributes['error.type']).toBe('404');
  });

  it('partner_print.ratelimit.remaining per bucket, from the headers of the last answers', async () => {
    const { client, sdk } = traced();
    await sdk.points(); // a reader collects: from now on the client keeps rate-limit headers for it
    await client.get('/claimcategories');
    const remaining = (await sdk.points()).filter((p) => p.name === 'partner_print.ratelimit.remaining');
    const bucket = remaining.find((p) => p.attributes['partner_print.ratelimit.bucket'] === 'default');
    expect(bucket?.value).toBeGreaterThan(0);
  });

  // The budget's fingerprint is a hash the collection waits for: no request waits for it (with or without
  // the scheduler), and a collection right after the first answers still tells the organizations apart.
  it.each([
    ['the default scheduler', undefined],
    ['no scheduler', false as const],
  ])(
    'partner_print.ratelimit.remaining: two organizations in one process are two series, by budget (%s)',
    async (_name, rateLimit) => {
      const { sandbox, sdk } = traced();
      await sdk.points();
      const telemetry = { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider };
      const of = (secretKey: string) =>
        createClient({
          secretKey,
          baseUrl: sandbox.baseUrl,
          fetch: withSignal(sandbox),
          telemetry,
          ...(rateLimit === undefined ? {} : { rateLimit }),
        });
      const a = of(sandbox.keys.primary);
      const b = of(sandbox.keys.other);
      for (let i = 0; i < 5; i++) await a.get('/claimcategories'); // A spends 5, B 1: different balances
      await b.get('/claimcategories');
      const points = (await sdk.points()).filter(
        (p) =>
          p.name === 'partner_print.ratelimit.remaining' &&
          p.attributes['partner_print.ratelimit.bucket'] === 'default',
      );
      const budgets = points.map((p) => p.attributes['partner_print.ratelimit.budget']);
      expect(new Set(budgets).size).toBe(2);
      for (const budget of budgets) expect(budget).toMatch(/^sha256:[0-9a-f]{12}$/);
      const [fromA, fromB] = await Promise.all(
        [sandbox.keys.primary, sandbox.keys.other].map((key) =>
          budgetKeyOf(key).then((k) =>
            points.find((p) => k.startsWith(String(p.attributes['partner_print.ratelimit.budget']))),
          ),
        ),
      );
      expect(Number(fromB?.value)).toBeGreaterThan(Number(fromA?.value));
    },
  );
});

describe('the telemetry option', () => {
  it('defaults to the global providers, registered after the client was made', async () => {
    const { client, sandbox } = sandboxClientOf(createClient);
    const sdk = otel();
    trace.setGlobalTracerProvider(sdk.tracerProvider);
    try {
      await client.get('/claimcategories');
      expect((await sdk.spans()).map((s) => s.name)).toEqual(['GET /claimcategories', 'listClaimcategories']);
    } finally {
      trace.disable();
      context.setGlobalContextManager(contextManager);
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    }
    expect(sandbox).toBeDefined();
  });

  it('false: no span, no metric, no trace header', async () => {
    const sdk = otel();
    trace.setGlobalTracerProvider(sdk.tracerProvider);
    try {
      const { client, sent } = traced({ telemetry: false });
      await context.with(trace.setSpan(ROOT_CONTEXT, sdk.tracerProvider.getTracer('t').startSpan('p')), () =>
        client.get('/claimcategories'),
      );
      expect(await sdk.spans()).toEqual([]);
      expect(sent[0]?.has('traceparent')).toBe(false);
    } finally {
      trace.disable();
    }
  });

  it('no SDK but a propagator: the caller’s trace context still goes out', async () => {
    const sent: Headers[] = [];
    const { sandbox } = sandboxClientOf(createClient);
    const plain = createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      fetch: (request) => {
        sent.push(new Headers(request.headers));
        return sandbox.fetch(request);
      },
    });
    const remote = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: 'a'.repeat(32),
      spanId: 'b'.repeat(16),
      traceFlags: 1,
    });
    await context.with(remote, () => plain.get('/claimcategories'));
    expect(sent[0]?.get('traceparent')).toBe(`00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`);
  });

  it('the lite entry has no telemetry', async () => {
    const sdk = otel();
    trace.setGlobalTracerProvider(sdk.tracerProvider);
    try {
      const { client } = sandboxClientOf(createLiteClient);
      await client.get('/claimcategories');
      expect(await sdk.spans()).toEqual([]);
    } finally {
      trace.disable();
    }
  });
});
