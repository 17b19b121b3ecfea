// A span per mockup, its polls and token decisions as events, the client's calls under it, and the
// rendertokens gauge, with the OpenTelemetry SDK's in-memory exporters.
import { context, metrics, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { createClient } from '@partner-print/client';
import type { TelemetryOption } from '@partner-print/client/telemetry';
import { createSandbox } from '@partner-print/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otel } from '../../client/test/otel.ts';
import { renderMany, renderMockup } from '../src/index.ts';
import { pngBytes, setup, studioPrint } from './helpers.ts';

const sdk = otel();
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(sdk.tracerProvider);
  metrics.setGlobalMeterProvider(sdk.meterProvider);
});
afterAll(() => {
  context.disable();
  trace.disable();
  metrics.disable();
});

/** A sandbox and a client of it made with `telemetry`. */
function clientWith(telemetry: TelemetryOption) {
  const sandbox = createSandbox({ rateLimits: false, jitter: 0, renderProcessingMs: 1_000 });
  const client = createClient({
    secretKey: sandbox.keys.primary,
    baseUrl: sandbox.baseUrl,
    clock: sandbox.clock,
    fetch: (request: Request) => sandbox.fetch(request),
    telemetry,
  });
  return { sandbox, client };
}

describe('render telemetry', () => {
  it('renderMockup: one span, polls and token decisions as events, the client’s calls under it', async () => {
    sdk.exporter.reset();
    const s = setup({ renderProcessingMs: 150_000 });
    const { seed, clock } = s.sandbox;
    const image = await s.client.uploadImage(pngBytes());
    const result = await renderMockup(s.client, {
      ...studioPrint(seed),
      image,
      clock,
    });
    const spans = await sdk.spans();
    const mockup = spans.find((span) => span.name === 'renderMockup');
    expect(mockup?.kind).toBe(SpanKind.INTERNAL);
    expect(mockup?.attributes['partner_print.render.scene_reference']).toBe(seed.scenes.studio);
    const names = mockup?.events.map((e) => e.name) ?? [];
    expect(names).toContain('partner_print.render.tokens');
    expect(names).toContain('partner_print.render.submitted');
    expect(names.filter((n) => n === 'partner_print.render.poll').length).toBeGreaterThanOrEqual(2);
    expect(names.at(-1)).toBe('partner_print.render.completed');
    const tokens = mockup?.events.find((e) => e.name === 'partner_print.render.tokens');
    expect(tokens?.attributes?.['partner_print.rendertokens.remaining']).toBeGreaterThan(0);
    expect(tokens?.attributes?.['partner_print.render.token_cost']).toBe(result.tokensSpent);
    const poll = mockup?.events.find((e) => e.name === 'partner_print.render.poll');
    expect(poll?.attributes?.['partner_print.render.render_reference']).toBe(result.render.reference);
    // Every call the mockup made is a child of its span, in its trace.
    const calls = spans.filter((span) => span.parentSpanContext?.spanId === mockup?.spanContext().spanId);
    expect(calls.map((c) => c.name)).toContain('createRender');
    for (const c of calls) expect(c.spanContext().traceId).toBe(mockup?.spanContext().traceId);
    const gauge = (await sdk.points()).find((p) => p.name === 'partner_print.rendertokens.remaining');
    expect(gauge?.value).toBe(Number(tokens?.attributes?.['partner_print.rendertokens.remaining']));
  });

  it('renderMany: one batch span parenting its jobs’ spans, the plan as an event, the plan’s token read on the gauge', async () => {
    sdk.exporter.reset();
    // The client's own providers: renderMany, given no option, follows the client's.
    const own = otel();
    const { sandbox, client } = clientWith({
      tracerProvider: own.tracerProvider,
      meterProvider: own.meterProvider,
    });
    const { seed, clock } = sandbox;
    const image = await client.uploadImage(pngBytes());
    const job = {
      ...studioPrint(seed),
      image,
    };
    const outcome = await renderMany(
      client,
      [job, { ...job, perspectiveReference: seed.perspectives.productCloseup }],
      { clock, checkCompatibility: false },
    );
    const spans = await own.spans();
    const batch = spans.filter((span) => span.name === 'renderMany');
    expect(batch).toHaveLength(1);
    const id = batch[0]!.spanContext().spanId;
    const mockups = spans.filter((span) => span.name === 'renderMockup');
    expect(mockups).toHaveLength(2);
    for (const m of mockups) expect(m.parentSpanContext?.spanId).toBe(id);
    expect(batch[0]!.attributes['partner_print.render.jobs']).toBe(2);
    expect(batch[0]!.attributes['partner_print.render.fulfilled']).toBe(2);
    const planned = batch[0]!.events.find((e) => e.name === 'partner_print.render.planned');
    expect(planned?.attributes?.['partner_print.render.fits']).toBe(2);
    expect(planned?.attributes?.['partner_print.rendertokens.remaining']).toBe(outcome.plan.remaining);
    // The jobs that fit go straight to POST without reading the tokens again: the plan's read is the gauge's.
    const gauge = (await own.points()).find((p) => p.name === 'partner_print.rendertokens.remaining');
    expect(gauge?.value).toBe(outcome.plan.remaining);
    // Nothing went to the global providers.
    expect((await sdk.spans()).filter((span) => span.name.startsWith('render'))).toEqual([]);
  });

  it('a client made with telemetry: false — render follows it: no span though an SDK is registered', async () => {
    sdk.exporter.reset();
    const { sandbox, client } = clientWith(false);
    const { seed, clock } = sandbox;
    const job = {
      ...studioPrint(seed),
      image: await client.uploadImage(pngBytes()),
    };
    await renderMockup(client, { ...job, clock });
    await renderMany(client, [job], { clock, checkCompatibility: false });
    expect(await sdk.spans()).toEqual([]);
  });

  it('telemetry: false — no span of its own', async () => {
    sdk.exporter.reset();
    const s = setup({ renderProcessingMs: 1_000 });
    const { seed, clock } = s.sandbox;
    await renderMockup(s.client, {
      ...studioPrint(seed),
      image: await s.client.uploadImage(pngBytes()),
      clock,
      telemetry: false,
    });
    expect((await sdk.spans()).filter((span) => span.name === 'renderMockup')).toEqual([]);
  });
});
