/**
 * Typed references (issue 23): every reference field of the generated types is a template literal type, so
 * a reference of the wrong resource does not compile and a reference read from a response fits a request.
 */
import createClient from 'openapi-fetch';
import { describe, expectTypeOf, test } from 'vitest';
import type { components, OrderRequest, paths, webhooks } from './index.ts';
import { isReference, type Reference, type ReferencePrefix } from './wire/index.ts';

type Schemas = components['schemas'];
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010/v2' });

const product: Reference<'Product'> = 'Product_EK7ZHPBV3DGMZFQDP1AUWU5X8I';
const store: Reference<'Store'> = 'Store_8UD7G0KN8EZ2EOC4373C90HMXT';

describe('reference schemas are template literal types', () => {
  test('each one names its prefix', () => {
    expectTypeOf<Schemas['OrderReference']>().toEqualTypeOf<`Order_${string}`>();
    expectTypeOf<Schemas['StoreReference']>().toEqualTypeOf<`Store_${string}`>();
    expectTypeOf<Schemas['ShipmentReference']>().toEqualTypeOf<`Shipment_${string}`>();
    expectTypeOf<Schemas['Order']['reference']>().toEqualTypeOf<Reference<'Order'>>();
    expectTypeOf<Schemas['Scene']['perspectives'][number]['reference']>().toEqualTypeOf<
      Reference<'Perspective'>
    >();
  });

  test('for every prefix of the reference', () => {
    type Typed = { [P in ReferencePrefix]: Schemas[`${P}Reference`] };
    type Expected = { [P in ReferencePrefix]: `${P}_${string}` };
    expectTypeOf<Typed>().toEqualTypeOf<Expected>();
  });

  test('path, query and webhook parameters are typed too', () => {
    type GetOrder = paths['/orders/{orderReference}']['get']['parameters']['path'];
    expectTypeOf<GetOrder['orderReference']>().toEqualTypeOf<Reference<'Order'>>();
    type Lookup = NonNullable<paths['/lookup-composition']['get']['parameters']['query']>;
    expectTypeOf<Lookup['sceneReference']>().toEqualTypeOf<Reference<'Scene'>>();
    type Callback = NonNullable<webhooks['orderUpdated']['get']['parameters']['query']>;
    expectTypeOf<Callback['order_reference_v2']>().toEqualTypeOf<Reference<'Order'>>();
  });
});

describe('a reference of the wrong resource does not compile', () => {
  test('a Product_ reference as storeReference', () => {
    const order: OrderRequest = {
      // @ts-expect-error a Product_ reference is not a Store_ reference
      storeReference: product,
      shippingKind: 'combined',
      orderlines: [{ productReference: product, quantity: 1 }],
    };
    void order;
    client.POST('/orders', {
      body: {
        order: {
          // @ts-expect-error a Product_ reference is not a Store_ reference
          storeReference: 'Product_EK7ZHPBV3DGMZFQDP1AUWU5X8I',
          shippingKind: 'combined',
          orderlines: [{ productReference: product, quantity: 1 }],
        },
      },
    });
  });

  test('a plain string, and a swapped path parameter', () => {
    const fromOutside: string = 'Order_HVGT82HTHLMGVK4N9XP02EUR5L';
    // @ts-expect-error a string from outside must be narrowed first
    client.GET('/orders/{orderReference}', { params: { path: { orderReference: fromOutside } } });
    // @ts-expect-error a Claim_ reference is not an Order_ reference
    client.GET('/orders/{orderReference}', { params: { path: { orderReference: 'Claim_x' } } });
  });
});

describe('a reference read from a response flows into a request without a cast', () => {
  test('order → getOrder → shipment → claim', async () => {
    const created = await client.POST('/orders', {
      body: { order: { storeReference: store, shippingKind: 'combined', orderlines: [] } },
    });
    if (!created.data) return;
    const orderReference = created.data.order.reference;
    const read = await client.GET('/orders/{orderReference}', { params: { path: { orderReference } } });
    const shipmentReference = read.data?.order.shipments?.[0]?.reference;
    if (!shipmentReference) return;
    client.POST('/claim-package-missing', { body: { claim: { shipmentReference, evidenceReferences: [] } } });
  });

  test('image and composition → render → media', async () => {
    const image = await client.POST('/images', { body: new Uint8Array(), bodySerializer: (b) => b });
    const composition = await client.GET('/lookup-composition', {
      params: {
        query: {
          sceneReference: 'Scene_x',
          productReference: product,
          perspectiveReference: 'Perspective_x',
        },
      },
    });
    if (!image.data || !composition.data) return;
    const render = await client.POST('/renders', {
      body: {
        render: {
          compositionReference: composition.data.composition.reference,
          imageReference: image.data.image.reference,
        },
      },
    });
    if (!render.data) return;
    const renderReference = render.data.render.reference;
    client.GET('/renders/{renderReference}/media', {
      params: { path: { renderReference } },
      parseAs: 'blob',
    });
  });
});

describe('isReference narrows a string from outside', () => {
  test('to the reference type of its prefix', () => {
    const value: string = 'Order_HVGT82HTHLMGVK4N9XP02EUR5L';
    if (isReference('Order', value)) {
      expectTypeOf(value).toEqualTypeOf<`Order_${string}`>();
      client.GET('/orders/{orderReference}', { params: { path: { orderReference: value } } });
    }
  });
});
