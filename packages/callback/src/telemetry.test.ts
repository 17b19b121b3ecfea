// The handler's spans and metrics with the OpenTelemetry SDK's in-memory exporters: a storm of
// notifications for one order costs few rounds, and each round's span links every notification it answered.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { createClient } from '@partner-print/client';
import type { TelemetryOption } from '@partner-print/client/telemetry';
import { createSandbox } from '@partner-print/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otel } from '../../client/test/otel.ts';
import { buildCallbackUrl } from './build-url.ts';
import { createOrderUpdatedHandler, type OrderFetcher } from './handler.ts';
import { toNodeListener } from './node/index.ts';

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(() => {
  context.disable();
  propagation.disable();
});

const REFERENCE = `Order_${'7'.repeat(26)}`;
const url = (i: number) =>
  buildCallbackUrl(`https://partner.example/hook?n=${i}`, {
    environment: 'test',
    orderReference: `ACME-${i}`,
    orderReferenceV2: REFERENCE,
    storeCode: 'ACME',
  });

/** A client answering each GET after `ms` real milliseconds. */
function slowClient(ms: number) {
  let fetches = 0;
  const client: OrderFetcher<{ reference: string }> = {
    async get(_path, init) {
      fetches++;
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { order: { reference: init.params.path.orderReference } };
    },
  };
  return { client, fetches: () => fetches };
}

/** A handler with the SDK's tracer served by toNodeListener on 127.0.0.1 (one notification: no window). */
async function servedWith(sdk: ReturnType<typeof otel>) {
  const handler = createOrderUpdatedHandler({
    client: slowClient(1).client,
    environment: 'test',
    windowMs: 0, // one notification: its spans do not depend on a window
    onOrderUpdated: () => {},
    telemetry: { tracerProvider: sdk.tracerProvider },
  });
  const server = createServer(toNodeListener(handler));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port };
}

describe('callback telemetry', () => {
  it('a storm: every notification has its span, and the rounds’ spans link all of them', async () => {
    const sdk = otel();
    const { client, fetches } = slowClient(30);
    // A 250 ms window, not the default 1 s: the 40 arrive over ~80 ms, so even stretched fourfold by a
    // loaded machine they take at most 1 + 2 rounds of it; the assertions below count rounds, not time.
    const handler = createOrderUpdatedHandler({
      client,
      environment: 'test',
      windowMs: 250,
      onOrderUpdated: () => {},
      telemetry: { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider },
    });
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        await new Promise((resolve) => setTimeout(resolve, i * 2)); // arriving over ~80 ms
        return handler(new Request(url(i)));
      }),
    );
    expect(answers.every((a) => a.status === 204)).toBe(true);
    const spans = await sdk.spans();
    const notifications = spans.filter((s) => s.name === 'orderUpdated');
    const rounds = spans.filter((s) => s.name === 'handleOrderUpdate');
    expect(notifications).toHaveLength(40);
    for (const n of notifications) {
      expect(n.kind).toBe(SpanKind.INTERNAL);
      expect(n.attributes['partner_print.order_reference']).toBe(REFERENCE);
      expect(n.attributes['http.response.status_code']).toBe(204);
    }
    // Coalesced: fewer rounds than notifications, one fetch per round.
    expect(rounds.length).toBe(fetches());
    expect(rounds.length).toBeLessThan(10);
    const linked = rounds.flatMap((r) => r.links.map((l) => l.context.spanId));
    expect(new Set(linked)).toEqual(new Set(notifications.map((n) => n.spanContext().spanId)));
    expect(linked).toHaveLength(40); // each notification answered by exactly one round
    for (const r of rounds) expect(r.attributes['partner_print.callback.notifications']).toBe(r.links.length);
    const points = await sdk.points();
    const received = points.find((p) => p.name === 'partner_print.callback.notifications');
    expect(received?.value).toBe(40);
    expect(received?.attributes['http.response.status_code']).toBe(204);
    expect(points.find((p) => p.name === 'partner_print.callback.fetches')?.value).toBe(fetches());
  });

  it('a failed round ends its span with an error, and its notifications answer 500', async () => {
    const sdk = otel();
    const handler = createOrderUpdatedHandler({
      client: { get: () => Promise.reject(new Error('upstream down')) },
      environment: 'test',
      windowMs: 0, // one notification: its spans do not depend on a window
      onOrderUpdated: () => {},
      telemetry: { tracerProvider: sdk.tracerProvider },
    });
    expect((await handler(new Request(url(1)))).status).toBe(500);
    const spans = await sdk.spans();
    expect(spans.find((s) => s.name === 'handleOrderUpdate')?.status.code).toBe(SpanStatusCode.ERROR);
    expect(spans.find((s) => s.name === 'orderUpdated')?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('through the Node adapter: a SERVER span, child of the caller’s traceparent', async () => {
    const sdk = otel();
    const { server, port } = await servedWith(sdk);
    try {
      const target = new URL(url(1));
      const traceId = 'a'.repeat(32);
      const response = await fetch(`http://127.0.0.1:${port}${target.pathname}${target.search}`, {
        headers: { traceparent: `00-${traceId}-${'b'.repeat(16)}-01` },
      });
      expect(response.status).toBe(204);
    } finally {
      server.close();
    }
    const span = (await sdk.spans()).find((s) => s.kind === SpanKind.SERVER);
    expect(span?.name).toBe('GET');
    expect(span?.spanContext().traceId).toBe('a'.repeat(32));
    expect(span?.parentSpanContext?.spanId).toBe('b'.repeat(16));
    expect(span?.attributes['url.path']).toBe('/hook');
  });

  it('through the Node adapter: a SERVER span named by its method, _OTHER for a method the conventions do not name (review: every one was named GET)', async () => {
    const sdk = otel();
    const { server, port } = await servedWith(sdk);
    try {
      for (const method of ['POST', 'PURGE'])
        expect((await fetch(`http://127.0.0.1:${port}/hook`, { method })).status).toBe(405);
    } finally {
      server.close();
    }
    const spans = (await sdk.spans()).filter((s) => s.kind === SpanKind.SERVER);
    expect(
      spans.map((s) => [
        s.name,
        s.attributes['http.request.method'],
        s.attributes['http.request.method_original'],
      ]),
    ).toEqual([
      ['POST', 'POST', undefined],
      ['_OTHER', '_OTHER', 'PURGE'],
    ]);
  });

  it('false: no span', async () => {
    const sdk = otel();
    const handler = createOrderUpdatedHandler({
      client: slowClient(1).client,
      environment: 'test',
      windowMs: 0, // one notification: its spans do not depend on a window
      onOrderUpdated: () => {},
      telemetry: false,
    });
    expect((await handler(new Request(url(1)))).status).toBe(204);
    expect(await sdk.spans()).toEqual([]);
  });

  it('no option: the handler follows the option its client was made with', async () => {
    const sandbox = createSandbox({ rateLimits: false, jitter: 0 });
    const made = (telemetry: TelemetryOption) =>
      createClient({
        secretKey: sandbox.keys.primary,
        baseUrl: sandbox.baseUrl,
        fetch: (request: Request) => sandbox.fetch(request),
        rateLimit: false,
        telemetry,
      });
    const order = await made(false).createOrder({
      storeReference: sandbox.seed.stores.combined,
      shippingKind: 'combined',
      orderlines: [{ productReference: sandbox.seed.products.nonPrint, quantity: 1 }],
    });
    const notify = (i: number) =>
      new Request(
        buildCallbackUrl(`https://partner.example/hook?n=${i}`, {
          environment: 'test',
          orderReference: `ACME-${i}`,
          orderReferenceV2: order.order.reference,
          storeCode: 'ACME',
        }),
      );
    const own = otel();
    const traced = createOrderUpdatedHandler({
      client: made({ tracerProvider: own.tracerProvider, meterProvider: own.meterProvider }),
      environment: 'test',
      windowMs: 0,
      onOrderUpdated: () => {},
    });
    expect((await traced(notify(1))).status).toBe(204);
    const names = (await own.spans()).map((span) => span.name);
    expect(names).toContain('orderUpdated');
    expect(names).toContain('handleOrderUpdate');
    expect(names).toContain('GET /orders/{orderReference}');
    // A client made with `false` keeps the handler silent though an SDK is registered globally.
    const global = otel();
    trace.setGlobalTracerProvider(global.tracerProvider);
    try {
      const silent = createOrderUpdatedHandler({
        client: made(false),
        environment: 'test',
        windowMs: 0,
        onOrderUpdated: () => {},
      });
      expect((await silent(notify(2))).status).toBe(204);
      expect(await global.spans()).toEqual([]);
    } finally {
      trace.disable();
    }
  });
});
