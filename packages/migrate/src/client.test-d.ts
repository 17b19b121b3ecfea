import { createClient } from '@partner-print/client';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type ConversionResult,
  convertV1Order,
  createImageUploader,
  createOrderReferenceResolver,
  createSkuResolver,
  type MigrateClient,
  type SkuResolution,
  type V2OrderRequest,
} from './index.ts';

const client = createClient({ secretKey: 'sk_test_x', baseUrl: 'http://sandbox.localhost/v2' });

describe('types', () => {
  it('takes the real client', () => {
    expectTypeOf(client).toMatchTypeOf<MigrateClient>();
    const resolver = createSkuResolver(client, { concurrency: 4 });
    expectTypeOf(resolver.resolve('A')).resolves.toEqualTypeOf<SkuResolution>();
    createImageUploader(client);
    createOrderReferenceResolver(client);
  });

  it('plugs the resolver and uploader into convertV1Order', () => {
    const resolver = createSkuResolver(client);
    const images = createImageUploader(client);
    expectTypeOf(
      convertV1Order({}, { resolveSku: resolver.resolve, uploadImage: images.uploadBase64 }),
    ).resolves.toEqualTypeOf<ConversionResult>();
  });

  it('narrows a resolution by status', () => {
    const r = {} as SkuResolution;
    if (r.status === 'resolved') expectTypeOf(r.productReference).toBeString();
    else expectTypeOf(r.productReference).toBeUndefined();
  });
});

describe('conversion result types', () => {
  it('a complete order is what client.createOrder takes; a dry run with placeholders is not', async () => {
    const images = createImageUploader(client);
    const result = await convertV1Order({}, { uploadImage: images.uploadBase64 });
    if (result.ok) expectTypeOf(result.order).toMatchTypeOf<Parameters<typeof client.createOrder>[0]>();
    const dry = await convertV1Order({}, { uploadImage: async (b64: string) => `dry-run:${b64.length}` });
    if (dry.ok) expectTypeOf(dry.order).not.toMatchTypeOf<Parameters<typeof client.createOrder>[0]>();
  });
});

describe('V2OrderRequest', () => {
  it('has at least one orderline, like the spec (minItems: 1)', () => {
    const line = { productReference: 'Product_x', quantity: 1 } as const;
    const one: V2OrderRequest = { storeReference: 'Store_x', shippingKind: 'combined', orderlines: [line] };
    expectTypeOf(one).toMatchTypeOf<Parameters<typeof client.createOrder>[0]>();
    // @ts-expect-error an order without orderlines
    const none: V2OrderRequest = { storeReference: 'Store_x', shippingKind: 'combined', orderlines: [] };
    expectTypeOf(none).not.toBeNever();
  });
});
