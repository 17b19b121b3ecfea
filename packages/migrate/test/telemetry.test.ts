// With an OpenTelemetry tracer provider registered, `orders --submit` makes a span per submitted line with
// the client's calls under it; without one, nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { createClient } from '@partner-print/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otel } from '../../client/test/otel.ts';
import type { LineResult } from '../src/node/submit-line.ts';
import { traceLine } from '../src/node/telemetry.ts';
import { newSandbox, run, tempDir } from './helpers.ts';

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => context.disable());

function ordersFile(sb: ReturnType<typeof newSandbox>) {
  const { legacySkus, storeCodes } = sb.seed;
  const order = (n: number, sku: string) => ({
    store_code: storeCodes.combined,
    shipping_kind: 'combined',
    partner_reference: `WEB-${n}`,
    orderlines: [{ sku, quantity: 1 }],
  });
  const file = join(tempDir(), 'orders.jsonl');
  const lines = [order(1, legacySkus.nonPrint), order(2, legacySkus.nonPrint), order(3, 'NO-SUCH-SKU')];
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return file;
}

describe('migrate telemetry', () => {
  it('a span per submitted line, its status and order, the client’s calls under it', async () => {
    const sdk = otel();
    trace.setGlobalTracerProvider(sdk.tracerProvider);
    try {
      const sb = newSandbox();
      const r = await run(['orders', ordersFile(sb), '--sandbox', '--submit', '--json'], { sandbox: sb });
      expect(JSON.parse(r.stdout).counts).toEqual({ created: 2, failed: 1 });
    } finally {
      trace.disable();
    }
    const spans = await sdk.spans();
    const lines = spans.filter((s) => s.name === 'migrateOrderLine');
    expect(lines.map((s) => s.attributes['partner_print.migrate.line']).sort()).toEqual([1, 2, 3]);
    const byLine = (n: number) => lines.find((s) => s.attributes['partner_print.migrate.line'] === n);
    expect(byLine(1)?.attributes['partner_print.migrate.status']).toBe('created');
    expect(byLine(1)?.attributes['partner_print.order_reference']).toMatch(/^Order_/);
    expect(byLine(3)?.attributes['partner_print.migrate.status']).toBe('failed');
    expect(byLine(3)?.status.code).toBe(SpanStatusCode.ERROR);
    const create = spans.find(
      (s) => s.name === 'createOrder' && s.parentSpanContext?.spanId === byLine(1)?.spanContext().spanId,
    );
    expect(create).toBeDefined();
  });

  it('without a registered provider: no span', async () => {
    const sdk = otel();
    const sb = newSandbox();
    const r = await run(['orders', ordersFile(sb), '--sandbox', '--submit', '--json'], { sandbox: sb });
    expect(JSON.parse(r.stdout).counts).toEqual({ created: 2, failed: 1 });
    expect(await sdk.spans()).toEqual([]);
  });

  it('a run follows its client’s option: a client made with telemetry: false makes no line span', async () => {
    const sdk = otel();
    trace.setGlobalTracerProvider(sdk.tracerProvider);
    try {
      const sb = newSandbox();
      const made = (telemetry?: false) =>
        createClient({ secretKey: sb.keys.primary, baseUrl: sb.baseUrl, fetch: sb.fetch, telemetry });
      const result = { line: 1, status: 'converted', errors: [] } as unknown as LineResult;
      await traceLine(made(false), 1, () => Promise.resolve(result));
      expect(await sdk.spans()).toEqual([]);
      await traceLine(made(), 2, () => Promise.resolve(result));
      expect((await sdk.spans()).map((s) => s.attributes['partner_print.migrate.line'])).toEqual([2]);
    } finally {
      trace.disable();
    }
  });
});
