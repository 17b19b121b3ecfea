import type { Hono } from 'hono';
import type { Env, SandboxContext } from '../context.ts';
import { productMedia, productsOf } from '../domain/catalog.ts';
import { badReferenceQuery, fail, iso, notFound, paginate, refuse } from '../http.ts';
import type { ItemRecord, ProductRecord } from '../model.ts';

function productBody(p: ProductRecord) {
  return {
    reference: p.reference,
    name: p.name,
    productgroup: { reference: p.productgroupReference },
    itemReference: p.itemReference,
    legacyItemSKU: p.legacyItemSKU,
    print: p.print,
    available: p.available,
    created: iso(p.created),
    media: p.media.map((filename) => ({ filename, mimeType: 'image/png', extension: 'png' })),
  };
}

function itemBody(i: ItemRecord) {
  return {
    reference: i.reference,
    sku: i.sku,
    logicalQuantity: i.logicalQuantity,
    physicalQuantity: i.physicalQuantity,
    products: i.productReferences.map((reference) => ({ reference })),
  };
}

export function catalogRoutes(app: Hono<Env>, ctx: SandboxContext): void {
  app.get('/products', (c) => {
    const bad = badReferenceQuery(c, { productgroupReference: 'Productgroup' });
    if (bad) return bad;
    const all = productsOf(c.get('org'), c.req.query('productgroupReference'));
    const result = paginate(c, 'products', all, (p) => -all.indexOf(p), ctx.pageSize);
    if (result instanceof Response) return result;
    return c.json({ products: result.page.map(productBody), nextCursor: result.nextCursor });
  });

  app.get('/productgroups', (c) => {
    const all = [...c.get('org').productgroups.values()];
    const result = paginate(c, 'productgroups', all, (p) => -all.indexOf(p), ctx.pageSize);
    if (result instanceof Response) return result;
    return c.json({
      productgroups: result.page.map((g) => ({ reference: g.reference, name: g.name })),
      nextCursor: result.nextCursor,
    });
  });

  app.get('/items', (c) => {
    const all = [...c.get('org').items.values()];
    const result = paginate(c, 'items', all, (i) => -all.indexOf(i), ctx.pageSize);
    if (result instanceof Response) return result;
    return c.json({ items: result.page.map(itemBody), nextCursor: result.nextCursor });
  });

  app.get('/products/:productReference/media/:filename', (c) => {
    const org = c.get('org');
    const product = org.products.get(c.req.param('productReference'));
    if (!product) return notFound(c, 'product');
    const media = productMedia(org, product, c.req.param('filename'));
    if (media.kind === 'refused') return refuse(c, media);
    return c.body(media.value as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'image/png',
      'Content-Length': String(media.value.length),
    });
  });

  app.get('/utilities/lookup-product-by-legacy-sku', (c) => {
    const sku = c.req.query('legacyItemSku');
    if (!sku) return fail(c, 400, 'missing_parameter', 'Query parameter legacyItemSku is required');
    const product = c.get('org').productsBySku.get(sku);
    if (!product) return fail(c, 404, 'not_found', 'No product carries this legacy SKU');
    return c.json({ productReference: product.reference });
  });
}
