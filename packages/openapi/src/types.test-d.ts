import createClient from 'openapi-fetch';
import { describe, expectTypeOf, test } from 'vitest';
import type {
  Claim,
  components,
  ErrorBody,
  ErrorCode,
  OPERATIONS,
  OperationId,
  OrderRequest,
  operations,
  paths,
  Render,
  webhooks,
} from './index.ts';

const client = createClient<paths>({ baseUrl: 'https://api.example.invalid/v2' });

const orderlines = [{ productReference: 'Product_EK7ZHPBV3DGMZFQDP1AUWU5X8I' as const, quantity: 1 }];
const storeReference = 'Store_8UD7G0KN8EZ2EOC4373C90HMXT' as const;

describe('order requests', () => {
  test('a dropship order needs an address', () => {
    client.POST('/orders', {
      body: {
        order: {
          storeReference,
          shippingKind: 'dropship',
          dropshipAddress: { city: 'Amsterdam', countryCode: 'NL' },
          orderlines,
        },
      },
    });
    client.POST('/orders', {
      // @ts-expect-error a dropship order without dropshipAddress is rejected
      body: { order: { storeReference, shippingKind: 'dropship', orderlines } },
    });
  });

  test('a combined order must not carry an address', () => {
    client.POST('/orders', { body: { order: { storeReference, shippingKind: 'combined', orderlines } } });
    const combinedWithAddress = {
      storeReference,
      shippingKind: 'combined' as const,
      dropshipAddress: { city: 'Amsterdam' },
      orderlines,
    };
    // @ts-expect-error dropshipAddress is `never` on a combined order
    const order: OrderRequest = combinedWithAddress;
    void order;
  });

  test('unknown shipping kinds and wrong body shapes are rejected', () => {
    // @ts-expect-error shippingKind is 'dropship' | 'combined'
    client.POST('/orders', { body: { order: { storeReference, shippingKind: 'pickup', orderlines } } });
    // @ts-expect-error the order must be wrapped in `order`
    client.POST('/orders', { body: { storeReference, shippingKind: 'combined', orderlines } });
    client.POST('/orders', {
      body: {
        order: {
          storeReference,
          shippingKind: 'combined',
          // @ts-expect-error quantity is a number
          orderlines: [{ productReference: 'x', quantity: '1' }],
        },
      },
    });
  });
});

describe('paths', () => {
  test('an unknown path is an error', () => {
    // @ts-expect-error not an endpoint of the API
    client.GET('/stock');
    // @ts-expect-error /orders has no DELETE
    client.DELETE('/orders/{orderReference}', { params: { path: { orderReference: 'Order_x' } } });
  });

  test('path and query parameters are typed', () => {
    client.GET('/claims/{claimReference}', { params: { path: { claimReference: 'Claim_x' } } });
    // @ts-expect-error the path parameter is required
    client.GET('/claims/{claimReference}', {});
    client.GET('/claims', { params: { query: { cursor: 'abc', closedAfter: '2026-11-01T00:00:00Z' } } });
    client.GET('/lookup-composition', {
      params: {
        query: {
          sceneReference: 'Scene_x',
          productReference: 'Product_x',
          perspectiveReference: 'Perspective_x',
        },
      },
    });
    // @ts-expect-error lookup-composition needs all three references
    client.GET('/lookup-composition', { params: { query: { sceneReference: 'Scene_x' } } });
  });

  test('successful responses are typed', async () => {
    const { data } = await client.GET('/claims/{claimReference}', {
      params: { path: { claimReference: 'Claim_x' } },
    });
    expectTypeOf(data).toEqualTypeOf<{ claim: Claim } | undefined>();
    const render = await client.GET('/renders/{renderReference}', {
      params: { path: { renderReference: 'Render_x' } },
    });
    expectTypeOf(render.data?.render).toEqualTypeOf<Render | undefined>();
    expectTypeOf<Render['status']>().toEqualTypeOf<'pending' | 'completed' | 'failed'>();
    const list = await client.GET('/claims');
    expectTypeOf(list.data?.nextCursor).toEqualTypeOf<string | null | undefined>();
  });
});

describe('binary bodies', () => {
  type UploadBody = NonNullable<
    operations['uploadImage']['requestBody']
  >['content']['application/octet-stream'];
  type MediaBody = operations['getRenderMedia']['responses'][200]['content']['application/octet-stream'];

  test('uploads take Blob or Uint8Array, downloads are Blob', () => {
    expectTypeOf<UploadBody>().toEqualTypeOf<Blob | Uint8Array>();
    expectTypeOf<
      NonNullable<operations['uploadEvidence']['requestBody']>['content']['application/octet-stream']
    >().toEqualTypeOf<Blob | Uint8Array>();
    expectTypeOf<MediaBody>().toEqualTypeOf<Blob>();
    expectTypeOf<
      operations['getProductMedia']['responses'][200]['content']['application/octet-stream']
    >().toEqualTypeOf<Blob>();
  });

  test('a string is not an upload body', () => {
    client.POST('/images', { body: new Uint8Array([0xff, 0xd8]), bodySerializer: (body) => body });
    // @ts-expect-error base64 JSON uploads are V1; V2 sends raw bytes
    client.POST('/images', { body: 'iVBORw0KGgo=' });
  });

  test('the 202 of render media has no body and a Retry-After header', () => {
    type NotReady = operations['getRenderMedia']['responses'][202];
    expectTypeOf<NotReady['content']>().toEqualTypeOf<undefined>();
    expectTypeOf<NotReady['headers']['Retry-After']>().toEqualTypeOf<number>();
  });
});

describe('errors', () => {
  test('error codes are an open union that keeps the known codes', () => {
    expectTypeOf<'missing_address'>().toExtend<ErrorCode>();
    expectTypeOf<'something_new'>().toExtend<ErrorCode>();
    expectTypeOf<ErrorBody['code']>().toExtend<string>();
    expectTypeOf<components['schemas']['KnownErrorCode']>().toEqualTypeOf<
      | 'missing_address'
      | 'missing_image_reference'
      | 'evidence_required'
      | 'rendertoken_limit_exceeded'
      | 'rate_limited'
    >();
  });

  test('rate-limited responses carry the error body', () => {
    type RateLimited = operations['listOrders']['responses'][429]['content']['application/json'];
    expectTypeOf<RateLimited>().toEqualTypeOf<ErrorBody>();
  });
});

describe('constants and webhooks', () => {
  test('OPERATIONS is keyed by operationId', () => {
    expectTypeOf<OperationId>().toEqualTypeOf<keyof typeof OPERATIONS>();
    expectTypeOf<(typeof OPERATIONS)['createOrder']>().toEqualTypeOf<{
      readonly method: 'post';
      readonly path: '/orders';
    }>();
    expectTypeOf<'createOrder'>().toExtend<keyof operations>();
  });

  test('the legacy callback query is typed', () => {
    type Query = NonNullable<webhooks['orderUpdated']['get']['parameters']['query']>;
    expectTypeOf<Query['environment']>().toEqualTypeOf<'prod' | 'test'>();
    expectTypeOf<Query['order_reference_v2']>().toEqualTypeOf<`Order_${string}`>();
    expectTypeOf<Query['custom_reference']>().toEqualTypeOf<string | undefined>();
  });
});
