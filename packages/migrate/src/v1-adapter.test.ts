import { createClient, NotFoundError, PartnerPrintError } from '@partner-print/client';
import { createSandbox } from '@partner-print/sandbox';
import { describe, expect, it } from 'vitest';
import { UnknownSkuError } from './resolver.ts';
import { createV1Adapter } from './v1-adapter.ts';

function setup() {
  const sandbox = createSandbox({ jitter: 0 });
  const client = createClient({
    secretKey: sandbox.keys.primary,
    baseUrl: sandbox.baseUrl,
    fetch: sandbox.fetch,
  });
  return { sandbox, client };
}

describe('createV1Adapter', () => {
  it('converts a V1 body through convertV1Order: store map, legacy SKU, partner reference', async () => {
    const { sandbox, client } = setup();
    const v1 = createV1Adapter(client, { stores: { ACME1: sandbox.seed.stores.combined } });
    const order = await v1.toV2Order({
      store_code: 'ACME1',
      shipping_kind: 'combined',
      partner_reference: 'web-1',
      orderlines: [{ sku: sandbox.seed.legacySkus.nonPrint, quantity: 3 }],
    });
    expect(order).toEqual({
      storeReference: sandbox.seed.stores.combined,
      shippingKind: 'combined',
      customIdentifier: 'web-1',
      orderlines: [{ productReference: sandbox.seed.products.nonPrint, quantity: 3 }],
    });
  });

  it('resolves unknown store codes through a resolver; throws naming every field that did not convert', async () => {
    const { sandbox, client } = setup();
    const asked: string[] = [];
    const v1 = createV1Adapter(client, {
      storeReference: async (code) => {
        asked.push(code);
        return code === 'SHOP9' ? sandbox.seed.stores.combined : undefined;
      },
    });
    const body = {
      store_code: 'SHOP9',
      shipping_kind: 'combined',
      orderlines: [{ sku: sandbox.seed.legacySkus.nonPrint, quantity: 1 }],
    };
    expect((await v1.toV2Order(body)).storeReference).toBe(sandbox.seed.stores.combined);
    const bad = v1.toV2Order({
      ...body,
      store_code: 'NOPE',
      orderlines: [{ sku: 'NO-SUCH-SKU', quantity: 1 }],
    });
    await expect(bad).rejects.toBeInstanceOf(PartnerPrintError);
    await expect(bad).rejects.toThrow(/store_code: .*NOPE.*; orderlines\[0\]\.sku: /);
    expect(asked).toEqual(['SHOP9', 'NOPE']);
  });

  it('never resolves a V1 order code to another order: one whose custom identifier is that code', async () => {
    const { sandbox, client } = setup();
    const line = { productReference: sandbox.seed.products.nonPrint, quantity: 1 };
    const store = { storeReference: sandbox.seed.stores.combined, shippingKind: 'combined' as const };
    const x = (await client.createOrder({ ...store, orderlines: [line] })).order.reference;
    const read = await client.get('/orders/{orderReference}', { params: { path: { orderReference: x } } });
    const code = (read.order as { legacyOrderCode?: string }).legacyOrderCode;
    expect(code).toMatch(/^[A-Za-z0-9_-]+-\d+$/);
    const y = (await client.createOrder({ ...store, customIdentifier: code!, orderlines: [line] })).order
      .reference;
    expect(y).not.toBe(x);
    const v1 = createV1Adapter(client);
    // V2 has no documented look-up by V1 code: the adapter refuses it rather than answer Y.
    const error = await v1.orderReference(code).catch((e: unknown) => e);
    expect(error).not.toBe(y);
    expect(error).toBeInstanceOf(PartnerPrintError);
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: 'unresolvable_order_reference' });
    expect(String((error as Error).message)).toMatch(/order_reference_v2/);
    // Y's custom identifier, said to be one, is Y.
    expect(await v1.orderReferenceByPartnerReference(code)).toBe(y);
  });

  it('passes an Order_ reference through; a partner reference only through orderReferenceByPartnerReference', async () => {
    const { sandbox, client } = setup();
    const { order } = await client.createOrder({
      storeReference: sandbox.seed.stores.combined,
      shippingKind: 'combined',
      customIdentifier: 'shop-1001',
      orderlines: [{ productReference: sandbox.seed.products.nonPrint, quantity: 1 }],
    });
    const v1 = createV1Adapter(client);
    expect(await v1.orderReference(order.reference)).toBe(order.reference);
    await expect(v1.orderReference('shop-1001')).rejects.toMatchObject({
      code: 'unresolvable_order_reference',
    });
    expect(await v1.orderReferenceByPartnerReference('shop-1001')).toBe(order.reference);
    await expect(v1.orderReferenceByPartnerReference('shop-9999')).rejects.toBeInstanceOf(NotFoundError);
    await expect(v1.orderReference(null)).rejects.toThrow(/No order reference given \(null\)/);
    await expect(v1.orderReferenceByPartnerReference(undefined)).rejects.toThrow(
      /No partner reference given \(undefined\)/,
    );
  });

  it("an order it cannot find is a NotFoundError with the client's 404 status and code", async () => {
    const { sandbox, client } = setup();
    const v1 = createV1Adapter(client);
    for (const find of [
      () => v1.orderReferenceByPartnerReference('shop-404'),
      () => v1.orderReference(null),
    ]) {
      const error = await find().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, code: 'not_found' });
    }
    sandbox.control.injectFault({ path: '/utilities/*', kind: 'status', status: 503, count: 10 });
    const failed = await v1.orderReferenceByPartnerReference('shop-405').catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(PartnerPrintError);
    expect(failed).not.toBeInstanceOf(NotFoundError);
    expect(failed).not.toMatchObject({ status: 404 });
    // The client's own error of the failed look-up, as productReference gives it: its status (the 503), code
    // and request id, not a bare message that lost them.
    expect(failed).toMatchObject({ status: 503 });
  });

  it('looks a legacy SKU up; an unknown one is an UnknownSkuError', async () => {
    const { sandbox, client } = setup();
    const v1 = createV1Adapter(client);
    expect(await v1.productReference(sandbox.seed.legacySkus.nonPrint)).toBe(sandbox.seed.products.nonPrint);
    await expect(v1.productReference('NO-SUCH-SKU')).rejects.toBeInstanceOf(UnknownSkuError);
  });

  it('uploads a V1 base64 image once, whatever its spelling (plain, base64url, data URL); refuses a non-image before any request', async () => {
    const sandbox = createSandbox({ jitter: 0 });
    const posted: string[] = [];
    const client = createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      fetch: (input, init) => {
        const req = new Request(input, init);
        if (req.method === 'POST') posted.push(new URL(req.url).pathname);
        return sandbox.fetch(req);
      },
    });
    const v1 = createV1Adapter(client);
    // A 1×1 PNG, spelled three ways (the base64url one without its padding).
    const plain =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const url = plain.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const refs = await Promise.all([
      v1.uploadImage(plain),
      v1.uploadImage(url),
      v1.uploadImage(`data:image/png;base64,${plain}`),
    ]);
    expect(refs[0]).toMatch(/^Image_/);
    expect(new Set(refs).size).toBe(1);
    expect(posted.filter((p) => p.endsWith('/images'))).toHaveLength(1);
    await expect(v1.uploadImage(btoa('GIF89a......'))).rejects.toMatchObject({ code: 'invalid_image' });
    expect(posted.filter((p) => p.endsWith('/images'))).toHaveLength(1);
  });
});
