import { describe, expect, it } from 'vitest';
import { stallFreeDelay, stallFreeUntil } from '../../../test-utils/stall.ts';
import { startSandboxServer } from '../src/node/index.ts';
import { json } from './contract.ts';
import { setup } from './fixtures.ts';

type Setup = ReturnType<typeof setup>;

function orderBody(s: Setup, customIdentifier: string, extra: Record<string, unknown> = {}) {
  return {
    order: {
      storeReference: s.seed.stores.combined,
      shippingKind: 'combined',
      customIdentifier,
      orderlines: [{ productReference: s.seed.products.nonPrint, quantity: 1 }],
      ...extra,
    },
  };
}

async function lookup(s: Setup, id: string): Promise<string | null> {
  const res = await s.a.get(`/utilities/lookup-order-reference-by-custom-identifier?customIdentifier=${id}`);
  if (res.status === 404) return null;
  expect(res.status).toBe(200);
  return (await json<{ orderReference: string }>(res)).orderReference;
}

async function orderCount(s: Setup): Promise<number> {
  return (await json<{ orders: unknown[] }>(await s.a.get('/orders'))).orders.length;
}

describe('late-commit fault (POST /orders)', () => {
  it('drops the connection at once and commits the order commitDelayMs later on the sandbox clock', async () => {
    const s = setup();
    s.sandbox.control.injectFault({ kind: 'late-commit', commitDelayMs: 2000 });
    await expect(s.a.post('/orders', orderBody(s, 'late-1'))).rejects.toBeInstanceOf(TypeError);
    expect(await lookup(s, 'late-1')).toBeNull();
    expect(await orderCount(s)).toBe(0);
    await s.sandbox.control.advance(1999);
    expect(await lookup(s, 'late-1')).toBeNull();
    await s.sandbox.control.advance(1);
    const reference = await lookup(s, 'late-1');
    expect(reference).toMatch(/^Order_/);
    const { order } = await json<{ order: { created: string } }>(await s.a.get(`/orders/${reference}`));
    expect(order.created).toBe('2026-11-16T09:00:02Z');
    expect(await orderCount(s)).toBe(1);
    expect(s.sandbox.control.faults()).toEqual([]);
  });

  it('hang: a client that gives up gets its abort error, and the order still lands', async () => {
    const s = setup();
    s.sandbox.control.injectFault({
      method: 'POST',
      path: '/v2/orders',
      kind: 'late-commit',
      commitDelayMs: 5000,
      answer: 'hang',
    });
    const attempt = s.sandbox.fetch(`${s.sandbox.baseUrl}/orders`, {
      method: 'POST',
      headers: { 'X-Service-Secret-Key': s.sandbox.keys.primary, 'Content-Type': 'application/json' },
      body: JSON.stringify(orderBody(s, 'late-2')),
      signal: AbortSignal.timeout(30),
    });
    await expect(attempt).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(await lookup(s, 'late-2')).toBeNull();
    await s.sandbox.clock.sleep(5000);
    expect(await lookup(s, 'late-2')).toMatch(/^Order_/);
    expect(await orderCount(s)).toBe(1);
  });

  it('hang: a client that waits gets 200 with the reference once the order lands', async () => {
    const s = setup();
    s.sandbox.control.injectFault({ kind: 'late-commit', commitDelayMs: 60_000, answer: 'hang' });
    const attempt = s.a.post('/orders', orderBody(s, 'late-3'));
    let settled = false;
    void attempt.then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    await s.sandbox.control.advance(60_000);
    const res = await attempt;
    expect(res.status).toBe(200);
    const { order } = await json<{ order: { reference: string } }>(res);
    expect(await lookup(s, 'late-3')).toBe(order.reference);
  });

  it('answers a refused order at once and commits nothing later', async () => {
    const s = setup();
    s.sandbox.control.injectFault({ kind: 'late-commit', commitDelayMs: 1000 });
    const res = await s.a.post('/orders', orderBody(s, 'late-4', { shippingKind: 'parcel' }));
    expect(res.status).toBe(422);
    await s.sandbox.control.advance(5000);
    expect(await orderCount(s)).toBe(0);
  });

  it('reset drops pending commits; their hanging requests end as dropped connections', async () => {
    const s = setup();
    s.sandbox.control.injectFault({ kind: 'late-commit', commitDelayMs: 1000, answer: 'hang' });
    const attempt = s.a.post('/orders', orderBody(s, 'late-5'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await s.sandbox.control.reset();
    await expect(attempt).rejects.toBeInstanceOf(TypeError);
    await s.sandbox.control.advance(5000);
    expect(await orderCount(s)).toBe(0);
  });

  it('is refused for another route, an unknown answer or an absurd delay', () => {
    const { sandbox } = setup();
    expect(() =>
      sandbox.control.injectFault({ kind: 'late-commit', path: '/claims', commitDelayMs: 1 }),
    ).toThrow(/POST \/v2\/orders only/);
    expect(() =>
      sandbox.control.injectFault({ kind: 'late-commit', commitDelayMs: 1, answer: 'later' as never }),
    ).toThrow(/answer/);
    expect(() => sandbox.control.injectFault({ kind: 'late-commit', commitDelayMs: 1e300 })).toThrow(
      /commitDelayMs/,
    );
  });
});

describe('lookup-lag fault (custom-identifier lookup)', () => {
  it('hides orders committed less than lagMs ago, until cleared', async () => {
    const s = setup();
    s.sandbox.control.injectFault({ kind: 'lookup-lag', lagMs: 500 });
    const first = await s.order({ customIdentifier: 'lag-1' });
    expect(await lookup(s, 'lag-1')).toBeNull();
    await s.sandbox.control.advance(499);
    expect(await lookup(s, 'lag-1')).toBeNull();
    await s.sandbox.control.advance(1);
    expect(await lookup(s, 'lag-1')).toBe(first);
    await s.sandbox.control.advance(1000);
    const second = await s.order({ customIdentifier: 'lag-1' });
    expect(await lookup(s, 'lag-1')).toBe(first);
    expect((await s.a.get(`/orders/${second}`)).status).toBe(200);
    await s.sandbox.control.advance(500);
    expect(await lookup(s, 'lag-1')).toBe(second);
    expect(s.sandbox.control.faults()).toMatchObject([{ kind: 'lookup-lag', lagMs: 500, remaining: null }]);
    s.sandbox.control.clearFaults();
    const third = await s.order({ customIdentifier: 'lag-1' });
    expect(await lookup(s, 'lag-1')).toBe(third);
  });

  it('with a count, lags only that many lookups', async () => {
    const s = setup();
    s.sandbox.control.injectFault({ kind: 'lookup-lag', lagMs: 10_000, count: 1 });
    const ref = await s.order({ customIdentifier: 'lag-2' });
    expect(await lookup(s, 'lag-2')).toBeNull();
    expect(await lookup(s, 'lag-2')).toBe(ref);
  });
});

describe('late faults over HTTP and the Node server', () => {
  it('are injected, listed and refused through /_sandbox/faults', async () => {
    const s = setup();
    const send = (method: string, body?: unknown) =>
      s.sandbox.fetch('http://sandbox.localhost/_sandbox/faults', {
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await send('POST', { kind: 'late-commit', commitDelayMs: 1000, answer: 'hang' })).status).toBe(
      201,
    );
    expect((await send('POST', { kind: 'lookup-lag', lagMs: 500 })).status).toBe(201);
    expect(await json(await send('GET'))).toMatchObject({
      faults: [
        {
          kind: 'late-commit',
          path: '/v2/orders',
          method: 'POST',
          commitDelayMs: 1000,
          answer: 'hang',
          remaining: 1,
        },
        { kind: 'lookup-lag', lagMs: 500, remaining: null },
      ],
    });
    expect((await send('POST', { kind: 'lookup-lag', lagMs: -1 })).status).toBe(400);
    expect((await send('POST', { kind: 'late-commit', commitDelayMs: 1, method: 'GET' })).status).toBe(400);
  });

  it('a real client that times out on the Node server still gets its order committed', async () => {
    const server = await startSandboxServer({ port: 0, virtualTime: true });
    try {
      const { keys, seed } = server.sandbox;
      const control = (path: string, body: unknown) =>
        fetch(`${server.origin}/_sandbox${path}`, { method: 'POST', body: JSON.stringify(body) });
      await control('/faults', { kind: 'late-commit', commitDelayMs: 3000, answer: 'hang' });
      const headers = { 'X-Service-Secret-Key': keys.primary, 'Content-Type': 'application/json' };
      const body = JSON.stringify({
        order: {
          storeReference: seed.stores.combined,
          shippingKind: 'combined',
          customIdentifier: 'late-node',
          orderlines: [{ productReference: seed.products.nonPrint, quantity: 1 }],
        },
      });
      // The client times out 200 ms after the server took the request (the fault), 200 ms in which this process
      // (the server's too) could run: a timeout started with the request, on real time, was reached by a
      // starved process before the request was written, and no order landed.
      const controller = new AbortController();
      const attempt = fetch(`${server.url}/orders`, {
        method: 'POST',
        headers,
        body,
        signal: controller.signal,
      });
      await stallFreeUntil(() => server.sandbox.control.faults().length === 0, 10_000);
      await stallFreeDelay(200);
      controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
      await expect(attempt).rejects.toMatchObject({ name: 'TimeoutError' });
      const find = () =>
        fetch(
          `${server.url}/utilities/lookup-order-reference-by-custom-identifier?customIdentifier=late-node`,
          {
            headers,
          },
        );
      expect((await find()).status).toBe(404);
      await control('/clock/advance', { ms: 3000 });
      expect((await find()).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
