import { AuthenticationError, createClient, NotFoundError } from '@partner-print/client';
import { describe, expect, it } from 'vitest';
import { type CachedSku, createSkuResolver, UnknownSkuError } from './resolver.ts';

/** A real client over a fake API: the resolver talks to the client exactly as in production. */
function fakeClient(
  products: Record<string, string>,
  opts: {
    items?: unknown;
    delayMs?: number;
    moreProducts?: Array<{ reference: string; legacyItemSKU: string; print?: boolean }>;
  } = {},
) {
  const calls: string[] = [];
  let active = 0;
  let maxActive = 0;
  const answer = async (url: URL): Promise<Response> => {
    const path = url.pathname.replace(/^\/v2/, '');
    calls.push(path);
    if (path === '/items') {
      if (!opts.items) return Response.json({ code: 'forbidden', message: 'forbidden' }, { status: 403 });
      return Response.json({ items: opts.items, nextCursor: null });
    }
    if (path === '/products') {
      const list = [
        ...Object.entries(products).map(([sku, reference]) => ({ reference, legacyItemSKU: sku })),
        ...(opts.moreProducts ?? []),
      ];
      return Response.json({ products: list, nextCursor: null });
    }
    active++;
    maxActive = Math.max(maxActive, active);
    await new Promise((r) => setTimeout(r, opts.delayMs ?? 1));
    active--;
    const ref = products[url.searchParams.get('legacyItemSku') ?? ''];
    if (!ref)
      return Response.json(
        { code: 'not_found', message: 'No product carries this legacy SKU' },
        { status: 404 },
      );
    return Response.json({ productReference: ref });
  };
  const client = createClient({
    secretKey: 'sk_test_resolver',
    baseUrl: 'https://api.test/v2',
    fetch: (input: Request | string | URL, init?: RequestInit) =>
      answer(new URL(new Request(input, init).url)),
    rateLimit: false,
    retry: false,
  });
  return { client, calls, maxActive: () => maxActive };
}

describe('createSkuResolver', () => {
  it('looks up each distinct SKU once, also concurrently, within the concurrency limit', async () => {
    const products = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`SKU-${i}`, `Product_${i}`]));
    const f = fakeClient(products);
    const r = createSkuResolver(f.client, { concurrency: 3, detectSharing: false, printProducts: false });
    const asks = Array.from({ length: 400 }, (_, i) => r.resolve(`SKU-${i % 20}`));
    const out = await Promise.all(asks);
    expect(out.every((o) => o.status === 'resolved')).toBe(true);
    expect(f.calls.length).toBe(20);
    expect(f.maxActive()).toBeLessThanOrEqual(3);
    expect(r.stats()).toMatchObject({ distinct: 20, lookups: 20, memoHits: 380, resolved: 20 });
  });

  it('reports unknown SKUs without throwing, and throws UnknownSkuError from resolveProductReference', async () => {
    const r = createSkuResolver(fakeClient({}).client, { detectSharing: false });
    const res = await r.resolve('NOPE-1');
    expect(res).toMatchObject({ status: 'unknown' });
    expect(res.note).toMatch(/No product carries/);
    await expect(r.resolveProductReference('NOPE-1')).rejects.toBeInstanceOf(UnknownSkuError);
    expect((await r.resolve('')).status).toBe('invalid');
  });

  it('uses and fills a persistent cache', async () => {
    const store = new Map<string, CachedSku>([['CACHED', { productReference: 'Product_cached' }]]);
    const f = fakeClient({ FRESH: 'Product_fresh' });
    const cache = {
      get: async (k: string) => store.get(k),
      set: async (k: string, v: CachedSku) => void store.set(k, v),
    };
    const r = createSkuResolver(f.client, { cache, detectSharing: false, printProducts: false });
    expect(await r.resolve('CACHED')).toMatchObject({ productReference: 'Product_cached', source: 'cache' });
    expect(await r.resolve('FRESH')).toMatchObject({ productReference: 'Product_fresh', source: 'lookup' });
    expect(store.get('FRESH')?.productReference).toBe('Product_fresh');
    expect(f.calls).toEqual(['/utilities/lookup-product-by-legacy-sku']);
  });

  it('explains a plain item SKU carried by several products', async () => {
    const f = fakeClient(
      { 'CASE-1': 'Product_old', 'CASE-1P001': 'Product_new1', 'CASE-1P002': 'Product_new2' },
      {
        // Two products from before 2026-03-22 on one item: both carry the plain item SKU.
        moreProducts: [{ reference: 'Product_old2', legacyItemSKU: 'CASE-1' }],
        items: [
          {
            reference: 'Item_1',
            sku: 'CASE-1',
            products: [
              { reference: 'Product_old' },
              { reference: 'Product_old2' },
              { reference: 'Product_new1' },
              { reference: 'Product_new2' },
            ],
          },
        ],
      },
    );
    const r = createSkuResolver(f.client);
    const plain = await r.resolve('CASE-1');
    expect(plain.status).toBe('resolved');
    if (plain.status !== 'resolved') return;
    expect(plain.shared?.productReferences).toHaveLength(4);
    expect(plain.note).toMatch(/carried by 2 of the 4 products/);
    expect(plain.note).toMatch(/2026-03-22/);
    expect(plain.note).toContain('CASE-1P001 → Product_new1');
    const suffixed = await r.resolve('CASE-1P002');
    expect(suffixed).toMatchObject({
      productReference: 'Product_new2',
      parsed: { kind: 'suffixed', itemSku: 'CASE-1' },
    });
    expect(suffixed.status === 'resolved' && suffixed.shared).toBeFalsy();
    expect(f.calls.filter((c) => c === '/items')).toHaveLength(1);
  });

  it('does not call a plain SKU shared when one product carries it and the others are suffixed', async () => {
    const f = fakeClient(
      { 'CASE-1': 'Product_old', 'CASE-1P001': 'Product_new1' },
      {
        items: [
          {
            reference: 'Item_1',
            sku: 'CASE-1',
            products: [{ reference: 'Product_old' }, { reference: 'Product_new1' }],
          },
        ],
      },
    );
    const plain = await createSkuResolver(f.client).resolve('CASE-1');
    expect(plain).toMatchObject({ status: 'resolved', productReference: 'Product_old' });
    expect(plain.status === 'resolved' && plain.shared).toBeFalsy();
    expect(plain.note).toMatch(/belongs to one product of item Item_1/);
    expect(plain.note).toContain('CASE-1P001 → Product_new1');
    expect(plain.note).not.toMatch(/shared/);
  });

  it('says when sharing could not be checked', async () => {
    const r = createSkuResolver(fakeClient({ 'CASE-1': 'Product_old' }).client);
    expect((await r.resolve('CASE-1')).note).toMatch(/GET \/items failed/);
  });

  it('says whether a product is a print product when the catalog carries it, reading GET /products once', async () => {
    const f = fakeClient(
      { 'CASE-1': 'Product_case' },
      { moreProducts: [{ reference: 'Product_np', legacyItemSKU: 'PROT-1', print: false }] },
    );
    const r = createSkuResolver(f.client, { detectSharing: false });
    expect(await r.resolve('CASE-1')).not.toHaveProperty('print');
    expect(await r.isPrintProduct('Product_np')).toBe(false);
    expect(await r.isPrintProduct('Product_case')).toBeUndefined();
    expect(f.calls.filter((c) => c === '/products')).toHaveLength(1);
  });

  it('keeps the thrown error of a failed lookup as cause, and rethrows it from resolveProductReference', async () => {
    const client = createClient({
      secretKey: 'sk_test_resolver',
      baseUrl: 'https://api.test/v2',
      fetch: async () => Response.json({ code: 'unauthorized', message: 'no' }, { status: 401 }),
      rateLimit: false,
      retry: false,
    });
    const r = createSkuResolver(client, { detectSharing: false, printProducts: false });
    const res = await r.resolve('CASE-1');
    expect(res.status).toBe('error');
    expect(res.status !== 'resolved' && res.cause).toBeInstanceOf(AuthenticationError);
    await expect(r.resolveProductReference('CASE-1')).rejects.toBeInstanceOf(AuthenticationError);
    const unknown = await createSkuResolver(fakeClient({}).client)
      .resolveProductReference('NOPE')
      .catch((e) => e);
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown).toMatchObject({ code: 'unknown_sku', status: 404 });
  });
});
