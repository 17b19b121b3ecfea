// Every package's public types, as a TypeScript application would use them. Copied into the src/ of
// each TypeScript consumer project by run.ts, so the node16, node10 and bundler projects check the same code.
import {
  createOrderUpdatedHandler,
  type Order,
  type OrderUpdatedHandler,
  type OrderUpdatedNotification,
  parseOrderUpdatedCallback,
} from '@partner-print/callback';
import {
  createClient,
  type DropshipOrderRequest,
  NotFoundError,
  type OrderlineRequest,
  type OrderRequest,
  type OrderResult,
  type PartnerPrintClient,
  PartnerPrintError,
  RateLimitedError,
} from '@partner-print/client';
import {
  createClient as createLiteClient,
  type PartnerPrintBaseClient,
  paginate,
} from '@partner-print/client/lite';
import {
  type ConversionResult,
  convertV1Order,
  createSkuResolver,
  type SkuResolution,
} from '@partner-print/migrate';
import { type components, KNOWN_ERROR_CODES, OPERATIONS, type paths } from '@partner-print/openapi';
import {
  createScheduler,
  type ParsedRateLimitHeaders,
  parseRateLimitHeaders,
  type Scheduler,
} from '@partner-print/ratelimit';
import { type RedisScriptClient, RedisStore } from '@partner-print/ratelimit/redis';
import { type RenderMockupResult, renderMockup } from '@partner-print/render';
import { createSandbox, type Sandbox } from '@partner-print/sandbox';

const sandbox: Sandbox = createSandbox();
const client: PartnerPrintClient = createClient({
  secretKey: sandbox.keys.primary,
  baseUrl: sandbox.baseUrl,
  fetch: (request) => sandbox.fetch(request),
  clock: sandbox.clock,
});

type ProductList = paths['/products']['get']['responses'][200]['content']['application/json'];
export async function listProducts(): Promise<ProductList['products']> {
  const { products } = await client.get('/products');
  return products;
}

export async function firstOrder(
  reference: `Order_${string}`,
): Promise<components['schemas']['Order'] | undefined> {
  try {
    const { order } = await client.get('/orders/{orderReference}', {
      params: { path: { orderReference: reference } },
    });
    return order;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    if (error instanceof RateLimitedError || error instanceof PartnerPrintError) throw error;
    throw error;
  }
}

// @ts-expect-error: the path is not in the API
void client.get('/no-such-path');

// Orders as the published declarations type them: both shipping kinds, at least one orderline.
export async function placeOrders(lines: readonly OrderlineRequest[]): Promise<OrderResult[]> {
  const [first, ...rest] = lines;
  if (!first) return [];
  const dropship: DropshipOrderRequest = {
    storeReference: sandbox.seed.stores.dropship,
    shippingKind: 'dropship',
    customIdentifier: 'consumer-1',
    dropshipAddress: { firstname: 'Ada', city: 'Utrecht', countryCode: 'NL' },
    orderlines: [first, ...rest],
  };
  const combined: OrderRequest = {
    storeReference: sandbox.seed.stores.combined,
    shippingKind: 'combined',
    orderlines: [first],
  };
  // @ts-expect-error: a dropship order needs dropshipAddress
  void client.createOrder({ storeReference: 'Store_x', shippingKind: 'dropship', orderlines: [first] });
  // @ts-expect-error: at least one orderline
  void client.createOrder({ storeReference: 'Store_x', shippingKind: 'combined', orderlines: [] });
  return [await client.createOrder(dropship), await client.createOrder(combined)];
}

const scheduler: Scheduler = createScheduler({
  // Annotated: `fetch` is typed `FetchLike | typeof fetch`, a union that gives no contextual parameter type.
  fetch: (request: Request) => sandbox.fetch(request),
});
const limits: ParsedRateLimitHeaders = parseRateLimitHeaders(new Headers());
export const handler: OrderUpdatedHandler = createOrderUpdatedHandler({
  client,
  environment: 'test',
  onOrderUpdated: (order: Order, notification: OrderUpdatedNotification) => {
    const reference: string = order.reference;
    const env: 'prod' | 'test' = notification.environment;
    void reference;
    void env;
  },
});
const parsed = parseOrderUpdatedCallback('https://example.test/?environment=test');
if (parsed.ok) {
  const n: OrderUpdatedNotification = parsed.value;
  void n;
}

export async function mockup(image: Uint8Array): Promise<RenderMockupResult> {
  return renderMockup(client, {
    sceneReference: sandbox.seed.scenes.studio,
    productReference: sandbox.seed.products.print,
    perspectiveReference: sandbox.seed.perspectives.studioFront,
    image,
    clock: sandbox.clock,
  });
}

export async function migrate(v1: unknown): Promise<ConversionResult> {
  const resolver = createSkuResolver(client);
  const one: SkuResolution = await resolver.resolve('SKU-1');
  void one;
  return convertV1Order(v1, { resolveSku: (sku) => resolver.resolve(sku) });
}

const codes: readonly string[] = KNOWN_ERROR_CODES;
const small: PartnerPrintBaseClient = createLiteClient({
  secretKey: 'k',
  baseUrl: 'https://example.test/v2',
});
export async function firstClaim(): Promise<string | undefined> {
  for await (const claim of paginate(small, '/claims')) return claim.reference;
  return undefined;
}
export const redisStore = (redis: RedisScriptClient) => new RedisStore({ client: redis });
export const used = { scheduler, limits, handler, codes, create: OPERATIONS.createOrder.method };
