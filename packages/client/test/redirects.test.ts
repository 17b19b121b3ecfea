import type { CombinedOrderRequest } from '@partner-print/openapi';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError, createClient, MAX_REDIRECTS, RedirectError } from '../src/index.ts';
import { createClient as createLiteClient } from '../src/lite.ts';
import { BASE, fakeFetch, json, KEY } from './fake.ts';
import { startServer, type TestServer } from './servers.ts';

const entries = {
  main: (baseUrl: string, fetch?: (r: Request) => Promise<Response>) =>
    createClient({ secretKey: KEY, baseUrl, rateLimit: false, retry: false, ...(fetch && { fetch }) }),
  lite: (baseUrl: string, fetch?: (r: Request) => Promise<Response>) =>
    createLiteClient({ secretKey: KEY, baseUrl, retry: false, ...(fetch && { fetch }) }),
};

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const start = async (...args: Parameters<typeof startServer>) => {
  const server = await startServer(...args);
  servers.push(server);
  return server;
};

const ORDER: CombinedOrderRequest = {
  storeReference: 'Store_x',
  shippingKind: 'combined',
  orderlines: [{ productReference: 'Product_x', quantity: 1 }],
};

describe.each(Object.entries(entries))('redirects, %s entry', (_, create) => {
  describe.each([301, 302, 303, 307, 308])('%i to another origin', (status) => {
    it.each(['GET', 'POST'])(
      '%s: not followed, RedirectError naming the origin, nothing reaches it',
      async (method) => {
        const other = await start((_req, res) => res.end('{}'));
        const api = await start((_req, res) => {
          res.writeHead(status, { location: `${other.baseUrl}/orders?stolen=1` }).end();
        });
        const client = create(api.baseUrl);
        const call =
          method === 'GET' ? client.get('/orders') : client.post('/orders', { body: { order: ORDER } });
        const error = await call.catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RedirectError);
        expect(error).toMatchObject({ code: 'cross_origin_redirect', location: other.origin, status });
        expect((error as Error).message).toContain(other.origin);
        expect((error as Error).message).not.toContain('stolen');
        expect(JSON.stringify(error)).not.toContain(KEY);
        expect(other.received).toEqual([]);
        expect(api.received).toHaveLength(1);
      },
    );
  });

  it('follows a same-origin redirect with the key; 303 continues as GET, 307 repeats the POST and its body', async () => {
    const api = await start((req, res) => {
      if (req.url === '/v2/orders') return res.writeHead(303, { location: '/v2/orders-moved' }).end();
      if (req.url === '/v2/renders') return res.writeHead(307, { location: '/v2/renders-moved' }).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url }));
    });
    const client = create(api.baseUrl);
    await expect(client.post('/orders', { body: { order: ORDER } })).resolves.toEqual({
      url: '/v2/orders-moved',
    });
    const render = { render: { compositionReference: 'Composition_x', imageReference: 'Image_x' } } as const;
    await expect(client.post('/renders', { body: render })).resolves.toEqual({ url: '/v2/renders-moved' });
    expect(api.received.map((r) => `${r.method} ${r.url} ${r.body ? 'body' : ''}`)).toEqual([
      'POST /v2/orders body',
      'GET /v2/orders-moved ',
      'POST /v2/renders body',
      'POST /v2/renders-moved body',
    ]);
    for (const r of api.received) expect(r.headers['x-service-secret-key']).toBe(KEY);
    expect(api.received[3]!.body).toBe(JSON.stringify(render));
  });

  it(`stops after ${MAX_REDIRECTS} same-origin redirects`, async () => {
    const api = await start((req, res) => res.writeHead(302, { location: req.url }).end());
    const error = await create(api.baseUrl)
      .get('/orders')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RedirectError', code: 'too_many_redirects' });
    expect(api.received).toHaveLength(MAX_REDIRECTS + 1);
  });

  it('refuses https → http on the same host, and an opaque redirect (browsers, redirect: manual)', async () => {
    const { fetch, seen } = fakeFetch(
      () => new Response(null, { status: 301, headers: { location: 'http://api.example.test/v2/orders' } }),
    );
    const downgrade = await create(BASE, fetch)
      .get('/orders')
      .catch((e: unknown) => e);
    expect(downgrade).toMatchObject({ code: 'insecure_redirect', location: 'http://api.example.test' });
    expect(seen).toHaveLength(1);

    // What a browser's fetch answers to redirect: 'manual': type 'opaqueredirect', status 0, no headers.
    const opaque = () =>
      Object.defineProperties(new Response(null, { status: 200 }), {
        type: { value: 'opaqueredirect' },
        status: { value: 0 },
        ok: { value: false },
      });
    const error = await create(BASE, async () => opaque())
      .get('/orders')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toMatchObject({ code: 'opaque_redirect', location: undefined });
  });

  it('sends every request with redirect: manual, and refuses a per-call redirect or baseUrl', async () => {
    const { fetch, seen } = fakeFetch(() => json({ orders: [], nextCursor: null }));
    const client = create(BASE, fetch);
    const requests: Request[] = [];
    await create(BASE, async (r) => {
      requests.push(r);
      return fetch(r);
    }).get('/orders');
    expect(requests[0]!.redirect).toBe('manual');
    for (const init of [{ redirect: 'follow' }, { baseUrl: 'https://elsewhere.example/v2' }]) {
      const error = await client.get('/orders', init as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(/unknown option "(redirect|baseUrl)"/);
    }
    expect(seen).toHaveLength(1);
  });
});
