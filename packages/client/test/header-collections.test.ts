// Headers a partner gives in the form their own HTTP stack holds them: another library's Headers class (npm
// undici's, node-fetch's, a polyfill's, the global Headers of another realm), a Map, or an array of pairs
// (a valid HeadersInit). openapi-fetch reads a header collection only as a global Headers or through
// Object.entries: such a collection's headers were dropped without a word (an array of pairs sent as a header
// named "0"), a V1 credential header inside it passed the V1 guard unseen, and its User-Agent went unnoticed.
// Every header of such a collection is sent, on every method and every helper; one that cannot be read is a
// ConfigurationError before anything is sent.
import { describe, expect, it } from 'vitest';
import {
  AmbiguousOutcomeError,
  ConfigurationError,
  createClient,
  uploadImage,
  V1CredentialsError,
} from '../src/index.ts';
import { createClient as createLiteClient, paginate } from '../src/lite.ts';
import { BASE, fakeFetch, json, KEY, PNG } from './fake.ts';
import { ForEachHeaders, ForeignHeaders } from './header-classes.ts';
import { ADDRESS, samplePng, sandboxClient } from './helpers.ts';

const path = '/orders/{orderReference}' as const;
const orderReference = 'Order_00000000000000000000000000' as const;
const params = { path: { orderReference } };

/** A client of `create` on a fetch that records what it is sent. */
function counting(create: typeof createClient | typeof createLiteClient) {
  const { fetch, seen } = fakeFetch(() => json({ order: { reference: orderReference } }));
  const client = create({ secretKey: KEY, baseUrl: BASE, fetch, rateLimit: false, retry: false });
  return { client, seen, sent: (name: string) => seen.map((s) => s.headers.get(name)) };
}

// Each collection holds x-trace: t-1 and x-tenant: acme.
const collections = [
  ['another Headers class', () => new ForeignHeaders({ 'X-Trace': 't-1', 'X-Tenant': 'acme' })],
  ['a Headers read only by forEach', () => new ForEachHeaders({ 'X-Trace': 't-1', 'X-Tenant': 'acme' })],
  [
    'an array of pairs',
    () => [
      ['X-Trace', 't-1'],
      ['X-Tenant', 'acme'],
    ],
  ],
  [
    'a Map',
    () =>
      new Map([
        ['X-Trace', 't-1'],
        ['X-Tenant', 'acme'],
      ]),
  ],
] as const;

describe.each([
  ['main entry', createClient],
  ['lite entry', createLiteClient],
] as const)('a header collection that is not a global Headers or a record (%s)', (_entry, create) => {
  describe.each(collections)('%s', (_name, make) => {
    it('is sent whole as headers, by every form of a call', async () => {
      const { client, seen, sent } = counting(create);
      await client.get(path, { params, headers: make() } as never);
      await client.GET(path, { params, headers: make() } as never);
      await client.request('get', path, { params, headers: make() } as never);
      await client.post('/orders', { body: { order: {} }, headers: make() } as never);
      expect(sent('x-trace')).toEqual(['t-1', 't-1', 't-1', 't-1']);
      expect(sent('x-tenant')).toEqual(['acme', 'acme', 'acme', 'acme']);
      // Nothing else made of it (an array of pairs was a header named "0").
      for (const { headers } of seen) expect([...headers.keys()].filter((k) => /^\d+$/.test(k))).toEqual([]);
    });

    it('is sent whole as params.header', async () => {
      const { client, sent } = counting(create);
      await client.GET(path, { params: { ...params, header: make() } } as never);
      expect(sent('x-trace')).toEqual(['t-1']);
      expect(sent('x-tenant')).toEqual(['acme']);
    });
  });

  it('is read once by every form of a call, POST() included (it was read twice)', async () => {
    const { client, sent } = counting(create);
    let reads = 0;
    class Counted extends Map<string, string> {
      override [Symbol.iterator]() {
        reads++;
        return super[Symbol.iterator]();
      }
    }
    const make = () => new Counted([['X-Trace', 't-1']]);
    const calls = [
      () => client.get(path, { params, headers: make() } as never),
      () => client.GET(path, { params, headers: make() } as never),
      () => client.post('/orders', { body: { order: {} }, headers: make() } as never),
      () => client.POST('/orders', { body: { order: {} }, headers: make() } as never),
      () => client.request('post', '/orders', { body: { order: {} }, headers: make() } as never),
      () => client.POST('/orders', { params: { header: make() }, body: { order: {} } } as never),
    ];
    const counts: number[] = [];
    for (const call of calls) {
      reads = 0;
      await call();
      counts.push(reads);
    }
    expect(counts).toEqual([1, 1, 1, 1, 1, 1]);
    expect(sent('x-trace')).toEqual(['t-1', 't-1', 't-1', 't-1', 't-1', 't-1']);
  });

  it('a one-shot iterable (a generator) given to POST() is sent whole: its second reading found it empty', async () => {
    const { client, sent } = counting(create);
    function* pairs() {
      yield ['X-Trace', 't-1'];
    }
    await client.POST('/orders', { body: { order: {} }, headers: pairs() } as never);
    await client.request('post', '/orders', { body: { order: {} }, headers: pairs() } as never);
    await client.POST('/orders', { params: { header: pairs() }, body: { order: {} } } as never);
    expect(sent('x-trace')).toEqual(['t-1', 't-1', 't-1']);
  });

  it("an array's repeated name is sent with both values, as a Headers made of it holds them", async () => {
    const { client, sent } = counting(create);
    const pairs = [
      ['X-Trace', 't-1'],
      ['x-trace', 't-2'],
    ];
    await client.get(path, { params, headers: pairs } as never);
    expect(sent('x-trace')).toEqual([new Headers(pairs as [string, string][]).get('x-trace')]);
  });

  it.each([
    ['another Headers class', () => new ForeignHeaders({ 'X-Api-Key': 'v1-key' })],
    ['a Headers read only by forEach', () => new ForEachHeaders({ partner_code: 'ACME' })],
    ['a Map', () => new Map([['X-Partner-Code', 'ACME']])],
  ])('a V1 credential header in %s is refused before anything is sent', async (_name, make) => {
    const { client, seen } = counting(create);
    await expect(client.get(path, { params, headers: make() } as never)).rejects.toBeInstanceOf(
      V1CredentialsError,
    );
    await expect(client.GET(path, { params: { ...params, header: make() } } as never)).rejects.toBeInstanceOf(
      V1CredentialsError,
    );
    expect(seen).toHaveLength(0);
  });

  it("the User-Agent it names is the call's, where the client's was sent over it", async () => {
    const { client, sent } = counting(create);
    await client.get(path, { params, headers: new ForeignHeaders({ 'User-Agent': 'theirs/1' }) } as never);
    await client.get(path, { params, headers: [['user-agent', 'theirs/2']] } as never);
    await client.get(path, { params, headers: new ForEachHeaders({ 'User-Agent': 'theirs/3' }) } as never);
    expect(sent('user-agent')).toEqual(['theirs/1', 'theirs/2', 'theirs/3']);
  });

  it.each([
    ['a pair of one item', () => [['X-Trace']]],
    ['a string for a pair', () => ['X-Trace: t-1']],
    ['an invalid name', () => [['X Trace', 't-1']]],
    ['a value with a line break holding the key', () => new ForeignHeaders({ 'x-echo': `${KEY}\r\nX: 1` })],
    [
      'a collection whose reading throws',
      () => ({
        *[Symbol.iterator]() {
          yield* [];
          throw new Error(`broken ${KEY}`);
        },
      }),
    ],
  ])('one that cannot be read (%s) is a ConfigurationError, nothing sent, no key', async (_name, make) => {
    const { client, seen } = counting(create);
    for (const call of [
      () => client.get(path, { params, headers: make() } as never),
      () => client.GET(path, { params: { ...params, header: make() } } as never),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(/header/);
      expect(JSON.stringify(error)).not.toContain(KEY);
      expect(String((error as Error).message)).not.toContain(KEY);
      expect(String((error as Error).stack)).not.toContain(KEY);
    }
    expect(seen).toHaveLength(0);
  });
});

describe.each([
  ['main entry', createClient],
  ['lite entry', createLiteClient],
] as const)("a POST's Content-Type in a collection read only by forEach (%s)", (_entry, create) => {
  it('is judged as sent: a raw upload that got a 503 is not an outcome unknown', async () => {
    const { fetch } = fakeFetch(() => json({ code: 'unavailable', message: 'Try later' }, 503));
    const client = create({ secretKey: KEY, baseUrl: BASE, fetch, rateLimit: false, retry: false });
    const headers = new ForEachHeaders({ 'Content-Type': 'application/octet-stream' });
    const error = await client
      .post('/images', { body: PNG, bodySerializer: (b: Uint8Array) => b, headers } as never)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503 });
    expect(error).not.toBeInstanceOf(AmbiguousOutcomeError);
  });
});

describe('the helpers send every header of a collection given to them', () => {
  const forms = [
    ['a global Headers', () => new Headers({ 'X-Trace': 't-1' })],
    ['another Headers class', () => new ForeignHeaders({ 'X-Trace': 't-1' })],
    ['an array of pairs', () => [['X-Trace', 't-1']]],
    // Iterable once: read once by the helper for all its requests, or only its first would carry it.
    [
      'a one-shot iterable (a generator)',
      function* () {
        yield ['X-Trace', 't-1'];
      },
    ],
  ] as const;

  it.each(forms)('uploadImage and uploadEvidence with %s', async (_name, make) => {
    const { client, attempts } = sandboxClient();
    await client.uploadImage(samplePng(), { headers: make() } as never);
    await client.uploadEvidence(samplePng(), { headers: make() } as never);
    await uploadImage(client, samplePng(), { headers: make() } as never);
    expect(attempts.map((a) => a.headers.get('x-trace'))).toEqual(['t-1', 't-1', 't-1']);
    // The upload's own Content-Type still goes with them.
    expect(attempts.map((a) => a.headers.get('content-type'))).toEqual(
      Array(3).fill('application/octet-stream'),
    );
  });

  it("an upload's caller names the Content-Type in any case or form: the upload's is sent", async () => {
    const { client, attempts } = sandboxClient();
    await client.uploadImage(samplePng(), { headers: new Headers({ 'content-type': 'image/png' }) } as never);
    await client.uploadImage(samplePng(), { headers: [['Content-Type', 'image/png']] } as never);
    expect(attempts.map((a) => a.headers.get('content-type'))).toEqual(
      Array(2).fill('application/octet-stream'),
    );
  });

  it.each([
    ['no headers', undefined],
    ['a Content-Type of its own', [['content-type', 'image/png']]],
  ])(
    'an upload (%s) that gets 503s is retried and not an outcome unknown: it is repeatable',
    async (_name, headers) => {
      const { fetch, seen } = fakeFetch(() => json({ code: 'unavailable', message: 'Try later' }, 503));
      const client = createLiteClient({ secretKey: KEY, baseUrl: BASE, fetch, retry: { baseDelayMs: 0 } });
      const error = await uploadImage(client, PNG, { headers } as never).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 503, attempts: 3 });
      expect(error).not.toBeInstanceOf(AmbiguousOutcomeError);
      expect(seen.map((s) => s.headers.get('content-type'))).toEqual(
        Array(3).fill('application/octet-stream'),
      );
    },
  );

  it.each(forms)('createOrder (each of its requests), with %s', async (_name, make) => {
    const { client, seed, attempts } = sandboxClient();
    const image = await client.uploadImage(samplePng());
    attempts.length = 0;
    await client.createOrder(
      {
        storeReference: seed.stores.dropship,
        shippingKind: 'dropship',
        customIdentifier: 'shop-headers-1',
        dropshipAddress: ADDRESS,
        orderlines: [{ productReference: seed.products.print, imageReference: image, quantity: 1 }],
      },
      { headers: make() } as never,
    );
    expect(attempts.length).toBeGreaterThan(1);
    expect(attempts.map((a) => a.headers.get('x-trace'))).toEqual(attempts.map(() => 't-1'));
  });

  it.each(forms)('paginate and collect (each page), with %s', async (_name, make) => {
    const { client, attempts } = sandboxClient({}, { pageSize: 2 });
    await client.collect('/products', { headers: make() } as never);
    const pages = attempts.length;
    expect(pages).toBeGreaterThan(1);
    for await (const _ of paginate(client, '/products', { headers: make() } as never));
    expect(attempts).toHaveLength(2 * pages);
    expect(attempts.map((a) => a.headers.get('x-trace'))).toEqual(attempts.map(() => 't-1'));
  });

  it.each(forms)('download (each ask, a 202 then the file), with %s', async (_name, make) => {
    const { client, seed, attempts } = sandboxClient({}, { renderProcessingMs: 60_000 });
    const image = await client.uploadImage(samplePng());
    const { render } = await client.post('/renders', {
      body: { render: { compositionReference: seed.compositions.available, imageReference: image } },
    });
    attempts.length = 0;
    const init = { params: { path: { renderReference: render.reference } }, headers: make() };
    const media = await client.download('/renders/{renderReference}/media', init as never);
    expect(media.contentType).toBe('image/png');
    expect(attempts.map((a) => a.headers.get('x-trace'))).toEqual(['t-1', 't-1']);
  });

  it('a V1 credential header in another Headers class given to a helper is refused, nothing sent', async () => {
    const { client, attempts } = sandboxClient();
    const headers = new ForeignHeaders({ 'X-Api-Key': 'v1' });
    await expect(client.uploadImage(samplePng(), { headers } as never)).rejects.toBeInstanceOf(
      V1CredentialsError,
    );
    await expect(client.collect('/products', { headers } as never)).rejects.toBeInstanceOf(
      V1CredentialsError,
    );
    expect(attempts).toHaveLength(0);
  });
});
