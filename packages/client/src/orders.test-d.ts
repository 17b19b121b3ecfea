import type { components } from '@partner-print/openapi';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  CombinedOrderRequest,
  createClient,
  DropshipOrderRequest,
  OrderlineRequest,
  OrderRequest,
  OrderResult,
} from './index.ts';
import * as lite from './lite.ts';

declare const client: ReturnType<typeof createClient>;
type Schemas = components['schemas'];
const line = { productReference: 'Product_x', imageReference: 'Image_x', quantity: 1 } as const;
const address = { firstname: 'Ada', city: 'Utrecht', countryCode: 'NL' };

describe('order request types', () => {
  it('are the spec’s, under names that type errors can print', () => {
    // Each way assignable: the named types neither add nor drop a field of the generated ones.
    expectTypeOf<OrderRequest>().toExtend<Schemas['OrderRequest']>();
    expectTypeOf<Schemas['OrderRequest']>().toExtend<OrderRequest>();
    expectTypeOf<DropshipOrderRequest>().toExtend<Schemas['DropshipOrderRequest']>();
    expectTypeOf<Schemas['DropshipOrderRequest']>().toExtend<DropshipOrderRequest>();
    expectTypeOf<CombinedOrderRequest>().toExtend<Schemas['CombinedOrderRequest']>();
    expectTypeOf<Schemas['CombinedOrderRequest']>().toExtend<CombinedOrderRequest>();
    expectTypeOf<OrderlineRequest>().toEqualTypeOf<Schemas['OrderlineRequest']>();
    expectTypeOf<keyof DropshipOrderRequest>().toEqualTypeOf<keyof Schemas['DropshipOrderRequest']>();
    expectTypeOf<keyof CombinedOrderRequest>().toEqualTypeOf<keyof Schemas['CombinedOrderRequest']>();
  });
});

describe('orderlines (minItems: 1)', () => {
  it('an empty array does not compile, one or more lines do', () => {
    client.createOrder({ storeReference: 'Store_x', shippingKind: 'combined', orderlines: [line] });
    client.createOrder({ storeReference: 'Store_x', shippingKind: 'combined', orderlines: [line, line] });
    // @ts-expect-error at least one orderline
    client.createOrder({ storeReference: 'Store_x', shippingKind: 'combined', orderlines: [] });
    // @ts-expect-error at least one orderline (the standalone helper)
    lite.createOrder(client, { storeReference: 'Store_x', shippingKind: 'combined', orderlines: [] });
    const order = { storeReference: 'Store_x', shippingKind: 'combined', orderlines: [] } as const;
    // @ts-expect-error at least one orderline (the raw POST, typed from the generated schema)
    client.post('/orders', { body: { order } });
  });

  it('a plain array is not known to be non-empty; a checked one is', () => {
    const lines: OrderlineRequest[] = [line];
    // @ts-expect-error OrderlineRequest[] may be empty
    client.createOrder({ storeReference: 'Store_x', shippingKind: 'combined', orderlines: lines });
    const [first, ...rest] = lines;
    if (first)
      client.createOrder({
        storeReference: 'Store_x',
        shippingKind: 'combined',
        orderlines: [first, ...rest],
      });
  });
});

describe('createOrder is generic over the shipping kind', () => {
  it('a dropship order needs dropshipAddress; a combined one must not have it', () => {
    client.createOrder({
      storeReference: 'Store_x',
      shippingKind: 'dropship',
      dropshipAddress: address,
      dropshipMinimalShippingLevel: 'tracked',
      orderlines: [line],
    });
    // @ts-expect-error Property 'dropshipAddress' is missing … in type 'DropshipOrderRequest'
    client.createOrder({ storeReference: 'Store_x', shippingKind: 'dropship', orderlines: [line] });
    // @ts-expect-error the same with the standalone helper
    lite.createOrder(client, { storeReference: 'Store_x', shippingKind: 'dropship', orderlines: [line] });
    client.createOrder({ storeReference: 'Store_x', shippingKind: 'combined', orderlines: [line] });
    client.createOrder({
      storeReference: 'Store_x',
      shippingKind: 'combined',
      // @ts-expect-error a combined order has no address
      dropshipAddress: address,
      orderlines: [line],
    });
    // @ts-expect-error not a shipping kind
    client.createOrder({ storeReference: 'Store_x', shippingKind: 'pickup', orderlines: [line] });
  });

  it('takes either kind, or a value of the union, and resolves to OrderResult', () => {
    const dropship: DropshipOrderRequest = {
      storeReference: 'Store_x',
      shippingKind: 'dropship',
      dropshipAddress: address,
      orderlines: [line],
    };
    const combined: CombinedOrderRequest = {
      storeReference: 'Store_x',
      shippingKind: 'combined',
      orderlines: [line],
    };
    const either: OrderRequest = Math.random() < 0.5 ? dropship : combined;
    expectTypeOf(client.createOrder(dropship)).toEqualTypeOf<Promise<OrderResult>>();
    expectTypeOf(client.createOrder(combined)).toEqualTypeOf<Promise<OrderResult>>();
    expectTypeOf(client.createOrder(either)).toEqualTypeOf<Promise<OrderResult>>();
    expectTypeOf(lite.createOrder(client, either, { lookupFirst: false })).toEqualTypeOf<
      Promise<OrderResult>
    >();
  });
});
