import type { components, ErrorCode, KnownErrorCode } from '@partner-print/openapi';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createClient,
  type PartnerPrintBaseClient,
  type PartnerPrintClient,
  type PartnerPrintError,
} from './index.ts';

declare const client: PartnerPrintClient;
type Schemas = components['schemas'];

describe('get / post', () => {
  it('are typed like GET / POST but resolve to data', () => {
    const order = client.get('/orders/{orderReference}', { params: { path: { orderReference: 'Order_x' } } });
    expectTypeOf(order).resolves.toExtend<Schemas['OrderResponse']>();
    expectTypeOf<Schemas['OrderResponse']>().toExtend<Awaited<typeof order>>();
    const created = client.post('/orders', { body: { order: {} as Schemas['OrderRequest'] } });
    expectTypeOf(created).resolves.toExtend<Schemas['CreateOrderResponse']>();
    expectTypeOf(client.get('/rendertokens')).resolves.toExtend<Schemas['RendertokensResponse']>();
  });

  it('reject wrong paths, methods, params and bodies', () => {
    // @ts-expect-error not a path of the spec
    client.get('/nope');
    // @ts-expect-error /orders/{orderReference} has no POST
    client.post('/orders/{orderReference}', { params: { path: { orderReference: 'x' } } });
    // @ts-expect-error the path parameter is required
    client.get('/orders/{orderReference}');
    // @ts-expect-error the path parameter is misnamed
    client.get('/orders/{orderReference}', { params: { path: { reference: 'x' } } });
    // @ts-expect-error POST /orders needs a body
    client.post('/orders');
    // @ts-expect-error the body is { order }
    client.post('/orders', { body: { storeReference: 'Store_x' } });
  });

  it('keep the raw methods of openapi-fetch', () => {
    expectTypeOf(client.GET('/claims')).resolves.toHaveProperty('response').toEqualTypeOf<Response>();
  });
});

describe('helpers', () => {
  it('paginate yields the list item type and accepts only list endpoints', () => {
    expectTypeOf(client.paginate('/claims')).toEqualTypeOf<
      AsyncGenerator<Schemas['ClaimListEntry'], void, undefined>
    >();
    expectTypeOf(client.collect('/orders', undefined, { max: 5 })).resolves.toExtend<Schemas['Order'][]>();
    expectTypeOf<Schemas['Order'][]>().toExtend<Awaited<ReturnType<typeof client.collect<'/orders'>>>>();
    client.paginate('/claims', { params: { query: { closedAfter: '2026-01-01' } } });
    // @ts-expect-error not a list endpoint
    client.paginate('/rendertokens');
  });

  it('download returns bytes, Blob or stream, or a pending result', () => {
    const init = { params: { path: { renderReference: 'Render_x' } } } as const;
    expectTypeOf(client.download('/renders/{renderReference}/media', init))
      .resolves.toHaveProperty('data')
      .toEqualTypeOf<Uint8Array>();
    expectTypeOf(client.download('/renders/{renderReference}/thumbnail', init, { as: 'blob' }))
      .resolves.toHaveProperty('data')
      .toEqualTypeOf<Blob>();
    expectTypeOf(client.download('/renders/{renderReference}/media', init, { wait: false }))
      .resolves.toHaveProperty('pending')
      .toEqualTypeOf<boolean>();
    // @ts-expect-error not a download
    client.download('/orders', {});
  });

  it('createOrder takes the order object, uploads take bytes', () => {
    expectTypeOf<Schemas['OrderRequest']>().toExtend<Parameters<typeof client.createOrder>[0]>();
    expectTypeOf<Parameters<typeof client.createOrder>[0]>().toExtend<Schemas['OrderRequest']>();
    expectTypeOf(client.uploadImage(new Uint8Array())).resolves.toEqualTypeOf<`Image_${string}`>();
    expectTypeOf(client.uploadEvidence(new Uint8Array())).resolves.toEqualTypeOf<`Evidence_${string}`>();
    expectTypeOf(client.lookupOrderReference('x')).resolves.toEqualTypeOf<`Order_${string}` | null>();
    // @ts-expect-error strings are not image bytes
    client.uploadImage('base64...');
  });

  it('createClient returns the typed client', () => {
    expectTypeOf(createClient).returns.toEqualTypeOf<PartnerPrintClient>();
  });
});

describe('error codes', () => {
  it('are the documented codes plus any string', () => {
    expectTypeOf<PartnerPrintError['code']>().toEqualTypeOf<ErrorCode | undefined>();
    expectTypeOf<'missing_address'>().toExtend<ErrorCode>();
    expectTypeOf<'some_future_code'>().toExtend<ErrorCode>();
    expectTypeOf<KnownErrorCode>().toEqualTypeOf<
      | 'missing_address'
      | 'missing_image_reference'
      | 'evidence_required'
      | 'rendertoken_limit_exceeded'
      | 'rate_limited'
    >();
  });
});

describe('lite entry', () => {
  it('createClient returns the base client; the standalone helpers are typed like the methods', async () => {
    const lite = await import('./lite.ts');
    const base = lite.createClient({ secretKey: 'k', baseUrl: 'https://x/v2' });
    expectTypeOf(base).toEqualTypeOf<PartnerPrintBaseClient>();
    expectTypeOf(base).not.toHaveProperty('paginate');
    expectTypeOf(lite.paginate(base, '/claims')).toEqualTypeOf<
      AsyncGenerator<Schemas['ClaimListEntry'], void, undefined>
    >();
    expectTypeOf<Schemas['OrderRequest']>().toExtend<Parameters<typeof lite.createOrder>[1]>();
    expectTypeOf(lite.uploadImage(base, new Uint8Array())).resolves.toEqualTypeOf<`Image_${string}`>();
    expectTypeOf(
      lite.download(base, '/renders/{renderReference}/media', {
        params: { path: { renderReference: 'Render_x' } },
      }),
    )
      .resolves.toHaveProperty('data')
      .toEqualTypeOf<Uint8Array>();
    // the full client is a base client too
    lite.paginate(client, '/orders');
    // @ts-expect-error not a list endpoint
    lite.paginate(base, '/rendertokens');
    // @ts-expect-error a client is required
    lite.uploadImage(new Uint8Array());
  });
});

describe('per-request options', () => {
  const signal = new AbortController().signal;
  it('every method and helper takes signal, headers, timeoutMs and retry', () => {
    client.get('/orders', { signal, headers: { 'X-Trace': '1' }, timeoutMs: 100, retry: false });
    client.GET('/orders', { timeoutMs: 100, retry: { attempts: 2 } });
    client.post('/renders', {
      body: { render: { compositionReference: 'Composition_x', imageReference: 'Image_x' } },
      timeoutMs: 60_000,
    });
    client.paginate('/claims', { params: { query: { closedAfter: '2026-01-01' } }, timeoutMs: 100 });
    client.collect('/orders', { retry: false }, { max: 5 });
    client.uploadImage(new Uint8Array(), { timeoutMs: 120_000, retry: { attempts: 5 }, signal });
    client.download('/renders/{renderReference}/media', {
      params: { path: { renderReference: 'Render_x' } },
      timeoutMs: 1,
    });
  });

  it('headers of every method and helper: a record, a Headers or pairs, as fetch takes them', () => {
    for (const headers of [
      { 'X-Trace': '1' },
      new Headers({ 'X-Trace': '1' }),
      [['X-Trace', '1']] as [string, string][],
    ]) {
      client.get('/orders', { headers });
      client.uploadImage(new Uint8Array(), { headers });
      client.uploadEvidence(new Uint8Array(), { headers });
      client.createOrder(
        {
          storeReference: 'Store_x',
          shippingKind: 'combined',
          orderlines: [{ productReference: 'Product_x', quantity: 1 }],
        },
        { headers },
      );
      client.lookupOrderReference('shop-1', { headers });
      client.collect('/orders', { headers });
    }
  });

  it('an unknown option does not compile', () => {
    // @ts-expect-error a misspelt signal
    client.get('/orders', { singal: signal });
    // @ts-expect-error a misspelt signal on the raw method
    client.GET('/orders', { singal: signal });
    const render = { compositionReference: 'Composition_x', imageReference: 'Image_x' } as const;
    // @ts-expect-error a misspelt timeoutMs on POST
    client.post('/renders', { body: { render }, timout: 1 });
    // @ts-expect-error redirects follow the client's policy
    client.get('/orders', { redirect: 'follow' });
    // @ts-expect-error the base URL is the client's
    client.GET('/orders', { baseUrl: 'https://elsewhere.example/v2' });
    // @ts-expect-error unknown option on a helper
    client.paginate('/claims', { timeoutMS: 1 });
    // @ts-expect-error unknown option on an upload
    client.uploadImage(new Uint8Array(), { timeoutMS: 1 });
    // @ts-expect-error unknown option on collect
    client.collect('/orders', { singal: signal });
    // @ts-expect-error timeoutMs is a number
    client.get('/orders', { timeoutMs: '100' });
  });

  it('get/GET keep their result types with the options', () => {
    expectTypeOf(client.get('/rendertokens', { timeoutMs: 5 })).resolves.toExtend<
      Schemas['RendertokensResponse']
    >();
    expectTypeOf(client.GET('/rendertokens', { retry: false }))
      .resolves.toHaveProperty('data')
      .toEqualTypeOf<Schemas['RendertokensResponse'] | undefined>();
  });
});

describe('schema types', () => {
  it('are re-exported from the client', async () => {
    type Client = typeof import('./index.ts');
    expectTypeOf<import('./index.ts').Order>().toEqualTypeOf<Schemas['Order']>();
    expectTypeOf<import('./index.ts').Claim>().toEqualTypeOf<Schemas['Claim']>();
    expectTypeOf<import('./lite.ts').Render>().toEqualTypeOf<Schemas['Render']>();
    expectTypeOf<Client['redactSecret']>().toBeFunction();
  });
});
