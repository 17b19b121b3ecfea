import { decode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { json } from './contract.ts';
import { setup } from './fixtures.ts';

type Product = {
  reference: string;
  legacyItemSKU: string;
  created: string;
  print: boolean;
  productgroup: { reference: string };
  itemReference: string;
};

describe('catalog', () => {
  it('lists print and non-print products with the legacy SKU rule of 2026-03-22', async () => {
    const { a, seed } = setup();
    const { products, nextCursor } = await json<{ products: Product[]; nextCursor: null }>(
      await a.get('/products'),
    );
    expect(nextCursor).toBeNull();
    const byRef = new Map(products.map((p) => [p.reference, p]));
    expect(byRef.get(seed.products.print)!.print).toBe(true);
    expect(byRef.get(seed.products.nonPrint)!.print).toBe(false);
    const cutoff = Date.parse('2026-03-22T00:00:00Z');
    const items = await json<{ items: Array<{ reference: string; sku: string }> }>(await a.get('/items'));
    const skuOf = new Map(items.items.map((i) => [i.reference, i.sku]));
    const suffixes = new Map<string, Set<string>>();
    for (const p of products) {
      const sku = skuOf.get(p.itemReference)!;
      if (Date.parse(p.created) < cutoff) {
        expect(p.legacyItemSKU).toBe(sku);
      } else {
        expect(p.legacyItemSKU).toMatch(new RegExp(`^${sku}P\\d{3}$`));
        const set = suffixes.get(sku) ?? new Set();
        expect(set.has(p.legacyItemSKU)).toBe(false);
        set.add(p.legacyItemSKU);
        suffixes.set(sku, set);
      }
    }
    expect(byRef.get(seed.products.printNew)!.legacyItemSKU).toBe(`${seed.itemSkus.shared}P001`);
  });

  it('lists warehouse items with quantities, one shared by several products', async () => {
    const { a, seed } = setup();
    const { items } = await json<{
      items: Array<{
        reference: string;
        products: unknown[];
        logicalQuantity: number;
        physicalQuantity: number;
      }>;
    }>(await a.get('/items'));
    const shared = items.find((i) => i.reference === seed.items.shared)!;
    expect(shared.products.length).toBeGreaterThanOrEqual(3);
    expect(shared.products).toContainEqual({ reference: seed.products.print });
    expect(shared.products).toContainEqual({ reference: seed.products.printNew });
    expect(shared.logicalQuantity).toBeLessThanOrEqual(shared.physicalQuantity);
  });

  it('lists productgroups and links products to them', async () => {
    const { a, seed } = setup();
    const { productgroups } = await json<{ productgroups: Array<{ reference: string; name: string }> }>(
      await a.get('/productgroups'),
    );
    expect(productgroups.map((g) => g.reference)).toEqual(Object.values(seed.productgroups));
  });

  it('filters products by productgroup, and refuses a filter that is not a productgroup reference as /scenes does', async () => {
    const { a, seed } = setup();
    const posters = await json<{ products: Product[] }>(
      await a.get(`/products?productgroupReference=${seed.productgroups.posters}`),
    );
    expect(posters.products.length).toBeGreaterThan(0);
    for (const p of posters.products) expect(p.productgroup.reference).toBe(seed.productgroups.posters);
    for (const value of ['garbage', '', seed.products.print]) {
      const res = await a.get(`/products?productgroupReference=${encodeURIComponent(value)}`);
      expect({ status: res.status, code: ((await res.json()) as { code: string }).code }).toEqual({
        status: 400,
        code: 'invalid_reference',
      });
    }
  });

  it('paginates catalog lists with the configured page size', async () => {
    const { a } = setup({ pageSize: 4 });
    const first = await json<{ products: Product[]; nextCursor: string }>(await a.get('/products'));
    expect(first.products).toHaveLength(4);
    const second = await json<{ products: Product[]; nextCursor: null }>(
      await a.get(`/products?cursor=${first.nextCursor}`),
    );
    expect(second.products).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
  });

  it('translates legacy SKUs into product references', async () => {
    const { a, seed } = setup();
    for (const role of ['print', 'printNew', 'printNew2', 'nonPrint'] as const) {
      const res = await a.get(
        `/utilities/lookup-product-by-legacy-sku?legacyItemSku=${encodeURIComponent(seed.legacySkus[role])}`,
      );
      expect(await json(res)).toEqual({ productReference: seed.products[role] });
    }
    const missing = await a.get('/utilities/lookup-product-by-legacy-sku?legacyItemSku=NOPE-1');
    expect(missing.status).toBe(404);
    const noParam = await a.get('/utilities/lookup-product-by-legacy-sku');
    expect(noParam.status).toBe(400);
  });

  it('serves product media as real PNG bytes and counts them as downloads', async () => {
    const { a, seed } = setup();
    const res = await a.get(`/products/${seed.products.print}/media/front.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-ratelimit-policy')).toContain('"downloads"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    expect(decode(bytes)).toMatchObject({ width: 320, height: 320 });
    expect((await a.get(`/products/${seed.products.print}/media/side.png`)).status).toBe(404);
    expect((await a.get(`/products/${seed.otherOrganization.products.print}/media/front.png`)).status).toBe(
      404,
    );
  });
});
