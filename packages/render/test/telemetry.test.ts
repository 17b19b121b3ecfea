// A span per mockup, its polls and token decisions as events, the client's calls under it, and the
// rendertokens gauge, with the OpenTelemetry SDK's in-memory exporters.
import { context, metrics, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otel } from '../../client/test/otel.ts';
import { renderMany, renderMockup } from '../src/index.ts';
import { pngBytes, setup } from './helpers.ts';

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

describe('render telemetry', () => {
  it('renderMockup: one span, polls and token decisions as events, the client’s calls under it', async () => {
    sdk.exporter.reset();
    const s = setup({ renderProcessingMs: 150_000 });
    const { seed, clock } = s.sandbox;
    const image = await s.client.uploadImage(pngBytes());
    const result = await renderMockup(s.client, {
      sceneReference: seed.scenes.studio,
      productReference: seed.products.print,
      perspectiveReference: seed.perspectives.studioFront,
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

  it('renderMany: a span per job', async () => {
    sdk.exporter.reset();
    const s = setup({ renderProcessingMs: 1_000 });
    const { seed, clock } = s.sandbox;
    const image = await s.client.uploadImage(pngBytes());
    const job = {
      sceneReference: seed.scenes.studio,
      productReference: seed.products.print,
      perspectiveReference: seed.perspectives.studioFront,
      image,
    };
    await renderMany(s.client, [job, { ...job, perspectiveReference: seed.perspectives.productCloseup }], {
      clock,
      checkCompatibility: false,
    });
    const mockups = (await sdk.spans()).filter((span) => span.name === 'renderMockup');
    expect(mockups).toHaveLength(2);
  });

  it('telemetry: false — no span of its own', async () => {
    sdk.exporter.reset();
    const s = setup({ renderProcessingMs: 1_000 });
    const { seed, clock } = s.sandbox;
    await renderMockup(s.client, {
      sceneReference: seed.scenes.studio,
      productReference: seed.products.print,
      perspectiveReference: seed.perspectives.studioFront,
      image: await s.client.uploadImage(pngBytes()),
      clock,
      telemetry: false,
    });
    expect((await sdk.spans()).filter((span) => span.name === 'renderMockup')).toEqual([]);
  });
});
