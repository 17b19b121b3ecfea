// The rewritten corpus runs against the sandbox: the order flows create the order the V1 code created (the
// V1 partner reference as custom identifier, the legacy SKU's product, the mapped store), exactly once
// across runs; the rewritten Workers callback handler answers a legacy callback the sandbox delivers.
import { createClient } from '@partner-print/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newSandbox } from './helpers.ts';

const V2_BASE = 'https://api.partner-print.example/v2';
let sandbox: ReturnType<typeof newSandbox>;
const callbacks: string[] = [];

beforeEach(() => {
  callbacks.length = 0;
  sandbox = newSandbox({
    callbackFetch: async (input: Request | string | URL) => {
      callbacks.push(input instanceof Request ? input.url : String(input));
      return new Response(null, { status: 204 });
    },
  });
  // The rewritten modules create their client with the global fetch and the V1 host's /v2 base URL: both
  // are routed to the sandbox here, as DNS and the real service would route them.
  vi.stubGlobal('fetch', (input: Request | string | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(V2_BASE)) throw new Error(`unexpected request to ${url}`);
    const target = sandbox.baseUrl + url.slice(V2_BASE.length);
    return sandbox.fetch(input instanceof Request ? new Request(target, input) : target, init);
  });
  vi.stubEnv('PARTNER_PRINT_SECRET_KEY', sandbox.keys.primary);
  vi.resetModules();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

const reader = () =>
  createClient({ secretKey: sandbox.keys.primary, baseUrl: sandbox.baseUrl, fetch: sandbox.fetch });

async function ordersWith(customIdentifier: string) {
  const found = [];
  for await (const o of reader().paginate('/orders'))
    if (o.customIdentifier === customIdentifier) found.push(o);
  return found;
}

describe('rewritten corpus against the sandbox', () => {
  it('fetch wrapper: the order exists once, with the V1 order’s content; a second run creates none', async () => {
    const shop = await import('./code-corpus/fetch-wrapper/expected/partner-print.ts');
    const order = { id: 'web-1001', lines: [{ sku: sandbox.seed.legacySkus.nonPrint, quantity: 2 }] };
    const reference = await shop.sendToPrint(order);
    expect(reference).toMatch(/^Order_/);
    // Another process (a fresh module, a fresh client) sending the same shop order again.
    vi.resetModules();
    const again = await import('./code-corpus/fetch-wrapper/expected/partner-print.ts');
    expect(await again.sendToPrint(order)).toBe(reference);
    const stored = await ordersWith('web-1001');
    expect(stored.map((o) => o.reference)).toEqual([reference]);
    const { order: read } = await reader().get('/orders/{orderReference}', {
      params: { path: { orderReference: reference as `Order_${string}` } },
    });
    expect(read).toMatchObject({
      reference,
      storeReference: sandbox.seed.stores.combined,
      customIdentifier: 'web-1001',
    });
    expect(read.orderlines).toMatchObject([
      { productReference: sandbox.seed.products.nonPrint, quantity: 2 },
    ]);
    // The status read: by Order_ reference and by the V1 partner reference (the look-up the V1 code did not need).
    expect(await shop.printStatus(reference)).toEqual(read.status);
    expect(await shop.printStatus('web-1001')).toEqual(read.status);
  });

  it('ky client: the same, and an unknown SKU fails before anything is posted', async () => {
    const shop = await import('./code-corpus/ky-client/expected/print.ts');
    const ref = await shop.orderNow('ky-7', sandbox.seed.legacySkus.nonPrint);
    expect(await shop.orderNow('ky-7', sandbox.seed.legacySkus.nonPrint)).toBe(ref);
    expect((await ordersWith('ky-7')).length).toBe(1);
    await expect(shop.orderNow('ky-8', 'NO-SUCH-SKU')).rejects.toThrow(/Unknown legacy SKU "NO-SUCH-SKU"/);
    expect(await ordersWith('ky-8')).toEqual([]);
  });

  it('Workers callback: the rewritten handler reads order_reference_v2 of a delivered legacy callback', async () => {
    const shop = await import('./code-corpus/fetch-wrapper/expected/partner-print.ts');
    const reference = await shop.sendToPrint({
      id: 'web-2002',
      lines: [{ sku: sandbox.seed.legacySkus.nonPrint, quantity: 1 }],
    });
    sandbox.control.setCallbackUrl(
      sandbox.seed.stores.combined,
      'https://shop.example/partner-print/callback',
    );
    sandbox.control.ship(reference);
    await sandbox.control.runDueDeliveries();
    const delivered = callbacks.find((u) => new URL(u).searchParams.get('order_reference_v2') === reference);
    expect(delivered, `callbacks: ${callbacks.join(', ')}`).toBeDefined();
    const worker = (await import('./code-corpus/workers-handler/expected/worker.ts')).default;
    const res = await worker.fetch(new Request(delivered!), { PP_PARTNER_CODE: '', PP_API_KEY: '' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { reference: string; status: unknown };
    const { order } = await reader().get('/orders/{orderReference}', {
      params: { path: { orderReference: reference as `Order_${string}` } },
    });
    expect(body).toEqual({ reference, status: order.status });
  });
});
