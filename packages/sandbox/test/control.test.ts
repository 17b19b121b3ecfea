import { describe, expect, it } from 'vitest';
import { json } from './contract.ts';
import { HOUR, setup } from './fixtures.ts';

describe('control API over HTTP (/_sandbox)', () => {
  it('shows the seed and the clock, advances time, ships, decides claims and resets', async () => {
    const s = setup();
    const ctl = (path: string, init?: RequestInit) =>
      s.sandbox.fetch(`http://sandbox.localhost/_sandbox${path}`, init);
    const send = (method: string, path: string, body?: unknown) =>
      ctl(path, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const info = await json<{ baseUrl: string; keys: { primary: string } }>(await ctl('/'));
    expect(info).toMatchObject({
      baseUrl: 'http://sandbox.localhost/v2',
      keys: { primary: s.sandbox.keys.primary },
    });
    expect(await json(await send('POST', '/clock/advance', { ms: HOUR }))).toMatchObject({
      now: '2026-11-16T10:00:00.000Z',
    });
    expect(await json(await ctl('/clock'))).toMatchObject({ epochMs: Date.parse('2026-11-16T10:00:00Z') });
    const orderReference = await s.order();
    const shipped = await send('POST', '/shipments', { orderReference, carrier: 'UPS' });
    expect(shipped.status).toBe(201);
    const { shipmentReference } = await json<{ shipmentReference: string }>(shipped);
    const claim = await json<{ claim: { reference: string } }>(
      await s.a.post('/claim-item-issues', {
        claim: {
          shipmentReference,
          orderReference,
          claimlines: [
            {
              orderlineIndex: 0,
              quantity: 1,
              claimcategoryReference: s.seed.claimcategories.wrongItem,
              evidenceReferences: [],
            },
          ],
        },
      }),
    );
    expect(
      (await send('POST', `/claims/${claim.claim.reference}/decision`, { outcome: 'refund' })).status,
    ).toBe(204);
    const again = await send('POST', `/claims/${claim.claim.reference}/decision`, { outcome: 'refund' });
    expect(again.status).toBe(409);
    expect(
      (await send('POST', '/shipments', { orderReference: 'Order_00000000000000000000000000' })).status,
    ).toBe(404);
    const img = await s.image();
    const render = await json<{ render: { reference: string } }>(
      await s.a.post('/renders', {
        render: { compositionReference: s.seed.compositions.available, imageReference: img },
      }),
    );
    expect((await send('POST', `/renders/${render.render.reference}/complete`)).status).toBe(204);
    expect((await send('POST', `/renders/${render.render.reference}/fail`)).status).toBe(409);
    expect(
      (await send('PUT', `/stores/${s.seed.stores.combined}/callback-url`, { url: 'https://example.com/cb' }))
        .status,
    ).toBe(204);
    expect(
      await json(await send('PUT', '/rate-limits', { rateLimits: { default: { q: 10, w: 1 } } })),
    ).toMatchObject({ rateLimits: { default: { q: 10, w: 1 } } });
    expect(await json(await ctl('/rate-limits'))).toMatchObject({ rateLimits: { default: { q: 10 } } });
    expect((await send('PUT', '/rendertokens', { limit: 7 })).status).toBe(204);
    expect(await json(await ctl('/deliveries'))).toMatchObject({ deliveries: [] });
    expect(await json(await send('POST', '/deliveries/run'))).toMatchObject({ deliveries: [] });
    expect(await json(await ctl(`/uploads/${img}`))).toMatchObject({
      upload: { reference: img, format: 'png' },
    });
    expect((await send('POST', '/reset')).status).toBe(204);
    expect(s.sandbox.clock.now()).toBe(Date.parse('2026-11-16T09:00:00Z'));
    expect((await s.a.get(`/orders/${orderReference}`)).status).toBe(404);
    expect((await ctl('/nope')).status).toBe(404);
    expect((await send('POST', '/faults', { path: '/orders', kind: 'status', status: 418 })).status).toBe(
      400,
    );
  });

  it('has methods that work unbound', async () => {
    const { sandbox } = setup();
    const { advance, now, ship } = sandbox.control;
    await advance(1000);
    expect(now()).toBe(Date.parse('2026-11-16T09:00:01Z'));
    expect(() => ship('Order_00000000000000000000000000')).toThrow(/No order/);
  });

  it('resets to the same seed references and keys', async () => {
    const s = setup();
    const before = JSON.stringify(s.sandbox.seed);
    await s.order();
    await s.sandbox.control.reset();
    expect(JSON.stringify(s.sandbox.seed)).toBe(before);
    expect((await s.a.get('/orders')).status).toBe(200);
  });
});

describe('fault injection', () => {
  it('answers the next N matching requests with 500/503 without running them', async () => {
    const s = setup();
    s.sandbox.control.injectFault({ path: '/orders', method: 'POST', kind: 'status', status: 503, count: 2 });
    const img = await s.image();
    const body = {
      order: {
        storeReference: s.seed.stores.combined,
        shippingKind: 'combined',
        orderlines: [{ productReference: s.seed.products.print, imageReference: img, quantity: 1 }],
      },
    };
    expect((await s.a.post('/orders', body)).status).toBe(503);
    expect((await s.a.get('/orders')).status).toBe(200);
    const second = await s.a.post('/orders', body);
    expect(second.status).toBe(503);
    expect(await json(second)).toMatchObject({ code: 'service_unavailable' });
    expect((await s.a.post('/orders', body)).status).toBe(200);
    const list = await json<{ orders: unknown[] }>(await s.a.get('/orders'));
    expect(list.orders).toHaveLength(1);
    s.sandbox.control.injectFault({ path: '/orders/*', kind: 'status', status: 500 });
    expect(s.sandbox.control.faults()).toHaveLength(1);
    expect((await s.a.get('/orders/Order_00000000000000000000000000')).status).toBe(500);
  });

  it('drops the connection before the request takes effect: fetch rejects with a TypeError, nothing is created', async () => {
    const s = setup();
    const img = await s.image();
    s.sandbox.control.injectFault({ path: '/orders', method: 'POST', kind: 'drop-before' });
    const body = {
      order: {
        storeReference: s.seed.stores.combined,
        shippingKind: 'combined',
        customIdentifier: 'drop-1',
        orderlines: [{ productReference: s.seed.products.print, imageReference: img, quantity: 1 }],
      },
    };
    await expect(s.a.post('/orders', body)).rejects.toBeInstanceOf(TypeError);
    const lookup = await s.a.get(
      '/utilities/lookup-order-reference-by-custom-identifier?customIdentifier=drop-1',
    );
    expect(lookup.status).toBe(404);
  });

  it('drops the connection after the request takes effect: fetch rejects, but the order exists', async () => {
    const s = setup();
    const img = await s.image();
    s.sandbox.control.injectFault({ path: '/v2/orders', method: 'POST', kind: 'drop-after' });
    const body = {
      order: {
        storeReference: s.seed.stores.combined,
        shippingKind: 'combined',
        customIdentifier: 'drop-2',
        orderlines: [{ productReference: s.seed.products.print, imageReference: img, quantity: 1 }],
      },
    };
    await expect(s.a.post('/orders', body)).rejects.toThrow(/fetch failed/);
    const lookup = await s.a.get(
      '/utilities/lookup-order-reference-by-custom-identifier?customIdentifier=drop-2',
    );
    expect(lookup.status).toBe(200);
  });

  it('adds latency that an abort signal can cut short', async () => {
    const s = setup();
    s.sandbox.control.injectFault({ path: '/**', kind: 'latency', latencyMs: 80, count: 2 });
    const started = performance.now();
    expect((await s.a.get('/items')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(70);
    const abort = AbortSignal.timeout(10);
    await expect(
      s.sandbox.fetch(`${s.sandbox.baseUrl}/items`, {
        headers: { 'X-Service-Secret-Key': s.sandbox.keys.primary },
        signal: abort,
      }),
    ).rejects.toThrow();
    s.sandbox.control.clearFaults();
    expect(s.sandbox.control.faults()).toEqual([]);
  });
});
