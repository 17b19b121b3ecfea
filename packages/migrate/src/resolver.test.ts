import { describe, expect, it } from 'vitest';
import { type CachedSku, createSkuResolver, UnknownSkuError } from './resolver.ts';

function fakeClient(
  products: Record<string, string>,
  opts: {
    items?: unknown;
    delayMs?: number;
    moreProducts?: Array<{ reference: string; legacyItemSKU: string }>;
  } = {},
) {
  const calls: string[] = [];
  let active = 0;
  let maxActive = 0;
  const client = {
    async get(path: string, init?: { params?: { query?: Record<string, string> } }) {
      calls.push(path);
      if (path === '/items') {
        if (!opts.items) throw Object.assign(new Error('forbidden'), { status: 403 });
        return { items: opts.items, nextCursor: null };
      }
      if (path === '/products') {
        return {
          products: [
            ...Object.entries(products).map(([sku, reference]) => ({ reference, legacyItemSKU: sku })),
            ...(opts.moreProducts ?? []),
          ],
          nextCursor: null,
        };
      }
      active++;
      maxActive = Math.max(maxActive, active);
      await new Promise((r) => setTimeout(r, opts.delayMs ?? 1));
      active--;
      const sku = init?.params?.query?.legacyItemSku ?? '';
      const ref = products[sku];
      if (!ref) throw Object.assign(new Error('No product carries this legacy SKU'), { status: 404 });
      return { productReference: ref };
    },
  };
  return { client, calls, maxActive: () => maxActive };
}

describe('createSkuResolver', () => {
  it('looks up each distinct SKU once, also concurrently, within the concurrency limit', async () => {
    const products = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`SKU-${i}`, `Product_${i}`]));
    const f = fakeClient(products);
    const r = createSkuResolver(f.client, { concurrency: 3, detectSharing: false });
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
    const r = createSkuResolver(f.client, { cache, detectSharing: false });
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
});
