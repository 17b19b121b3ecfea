import { afterEach, describe, expect, it } from 'vitest';
import { checkCallbackUrl } from './contract.ts';
import { MINUTE, SECOND, setup } from './fixtures.ts';

// A contract violation inside the delivery fetch would only show as a failed attempt: collect it here.
const violations: unknown[] = [];
afterEach(() => {
  expect(violations).toEqual([]);
  violations.length = 0;
});

function receiver(answers: Array<number | 'throw' | 'hang'> = []) {
  const calls: Array<{ url: URL; method: string; body: string | null }> = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    try {
      checkCallbackUrl(new URL(request.url));
    } catch (error) {
      violations.push(error);
    }
    calls.push({
      url: new URL(request.url),
      method: request.method,
      body: request.body ? await request.text() : null,
    });
    const answer = answers.shift() ?? 200;
    if (answer === 'throw') throw new TypeError('fetch failed');
    if (answer === 'hang') {
      return new Promise((_, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
      );
    }
    return new Response(null, { status: answer });
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

describe('legacy order-updated callback', () => {
  it('sends a GET with the reference parameters, merged into the URL’s query (service wins)', async () => {
    const r = receiver();
    const s = setup({ callbackFetch: r.fetch });
    s.sandbox.control.setCallbackUrl(
      s.seed.stores.combined,
      'https://partner.example/hook?token=abc&store_code=mine&environment=prod',
    );
    const orderReference = await s.order({ customIdentifier: 'shop-77' });
    await s.sandbox.control.runDueDeliveries();
    expect(r.calls).toHaveLength(1);
    const { url, method, body } = r.calls[0]!;
    expect(method).toBe('GET');
    expect(body).toBeNull();
    expect(url.origin + url.pathname).toBe('https://partner.example/hook');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      token: 'abc',
      environment: 'test',
      store_code: s.seed.storeCodes.combined,
      partner_code: s.seed.storeCodes.combined,
      order_reference: `${s.seed.storeCodes.combined}-100001`,
      order_reference_v2: orderReference,
      custom_reference: 'shop-77',
      partner_reference: 'shop-77',
    });
    expect(url.searchParams.getAll('store_code')).toHaveLength(1);
  });

  it('keeps the configured query byte for byte, dropping only the names the service sends', async () => {
    const r = receiver();
    const s = setup({ callbackFetch: r.fetch });
    s.sandbox.control.setCallbackUrl(
      s.seed.stores.combined,
      'https://partner.example/hook?sig=a~b&q=%20x+y&store%5Fcode=mine&flag&t=1#frag',
    );
    await s.order();
    await s.sandbox.control.runDueDeliveries();
    const { url } = r.calls[0]!;
    expect(url.search.startsWith('?sig=a~b&q=%20x+y&flag&t=1&environment=test&')).toBe(true);
    expect(url.searchParams.getAll('store_code')).toEqual([s.seed.storeCodes.combined]);
  });

  it('adds via_store_code for orders through an integrator, and leaves custom_reference out when unset', async () => {
    const r = receiver();
    const s = setup({ callbackFetch: r.fetch });
    s.sandbox.control.setCallbackUrl(s.seed.stores.integrated, 'https://partner.example/cb');
    const img = await s.image();
    await s.a.post('/orders', {
      order: {
        storeReference: s.seed.stores.integrated,
        shippingKind: 'dropship',
        dropshipAddress: { lastname: 'Doe', countryCode: 'BE' },
        orderlines: [{ productReference: s.seed.products.print, imageReference: img, quantity: 1 }],
      },
    });
    await s.sandbox.control.runDueDeliveries();
    const params = r.calls[0]!.url.searchParams;
    expect(params.get('via_store_code')).toBe('INTEGRATOR1');
    expect(params.get('via_partner_code')).toBe('INTEGRATOR1');
    expect(params.has('custom_reference')).toBe(false);
    expect(params.has('partner_reference')).toBe(false);
  });

  it('notifies on creation, shipping and replacement, and not when the URL is empty', async () => {
    const r = receiver();
    const s = setup({ callbackFetch: r.fetch });
    await s.order();
    await s.sandbox.control.runDueDeliveries();
    expect(r.calls).toHaveLength(0);
    s.sandbox.control.setCallbackUrl(s.seed.stores.combined, 'https://partner.example/cb');
    const { orderReference, shipmentReference } = await s.shipped();
    const claim = await (
      await s.a.post('/claim-item-issues', {
        claim: {
          shipmentReference,
          orderReference,
          claimlines: [
            {
              orderlineIndex: 1,
              quantity: 1,
              claimcategoryReference: s.seed.claimcategories.wrongItem,
              evidenceReferences: [],
            },
          ],
        },
      })
    ).json();
    s.sandbox.control.decideClaim(claim.claim.reference, { outcome: 'replacement' });
    await s.sandbox.control.runDueDeliveries();
    expect(s.sandbox.control.deliveries().map((d) => d.change)).toEqual(['created', 'shipped', 'replaced']);
    expect(r.calls.every((c) => c.url.searchParams.get('order_reference_v2') === orderReference)).toBe(true);
    s.sandbox.control.setCallbackUrl(s.seed.stores.combined, '');
    await s.order();
    await s.sandbox.control.runDueDeliveries();
    expect(r.calls).toHaveLength(3);
    expect(() => s.sandbox.control.setCallbackUrl(s.seed.stores.combined, 'not a url')).toThrow();
  });

  it('retries about 5 minutes later after a non-2xx answer or an unreachable endpoint, until it succeeds', async () => {
    const r = receiver([500, 'throw', 404, 204]);
    const s = setup({ callbackFetch: r.fetch });
    s.sandbox.control.setCallbackUrl(s.seed.stores.combined, 'https://partner.example/cb');
    await s.order();
    await s.sandbox.control.runDueDeliveries();
    expect(r.calls).toHaveLength(1);
    await s.sandbox.control.advance(5 * MINUTE - SECOND);
    expect(r.calls).toHaveLength(1);
    await s.sandbox.control.advance(SECOND);
    expect(r.calls).toHaveLength(2);
    await s.sandbox.control.advance(5 * MINUTE);
    await s.sandbox.control.advance(5 * MINUTE);
    expect(r.calls).toHaveLength(4);
    await s.sandbox.control.advance(60 * MINUTE);
    expect(r.calls).toHaveLength(4);
    const [delivery] = s.sandbox.control.deliveries();
    expect(delivery).toMatchObject({ state: 'delivered', nextAttemptAt: null, change: 'created' });
    expect(delivery!.attempts.map((a) => [a.status, a.ok])).toEqual([
      [500, false],
      [null, false],
      [404, false],
      [204, true],
    ]);
    expect(delivery!.attempts[1]!.error).toMatch(/fetch failed/);
    expect(delivery!.attempts.map((a) => a.at)).toEqual([
      '2026-11-16T09:00:00.000Z',
      '2026-11-16T09:05:00.000Z',
      '2026-11-16T09:10:00.000Z',
      '2026-11-16T09:15:00.000Z',
    ]);
  });

  it('treats a timeout as a failure and retries', async () => {
    const r = receiver(['hang', 200]);
    const s = setup({ callbackFetch: r.fetch, callbackTimeoutMs: 20 });
    s.sandbox.control.setCallbackUrl(s.seed.stores.combined, 'https://partner.example/cb');
    await s.order();
    await s.sandbox.control.runDueDeliveries();
    expect(s.sandbox.control.deliveries()[0]!.attempts[0]).toMatchObject({
      ok: false,
      status: null,
      error: expect.stringMatching(/TimeoutError/),
    });
    await s.sandbox.clock.sleep(5 * MINUTE);
    await s.sandbox.control.runDueDeliveries();
    expect(s.sandbox.control.deliveries()[0]!.state).toBe('delivered');
  });

  it('delivers over real HTTP to a receiver on 127.0.0.1', async () => {
    const { createServer } = await import('node:http');
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const s = setup();
      s.sandbox.control.setCallbackUrl(s.seed.stores.combined, `http://127.0.0.1:${port}/callback?x=1`);
      await s.order();
      await s.sandbox.control.runDueDeliveries();
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatch(/^\/callback\?x=1&environment=test&order_reference=/);
    } finally {
      server.close();
    }
  });
});
