// A browser-style app: every package's main entry, bundled by esbuild with platform=browser (a Node
// built-in anywhere in the graph would fail the build), then run.
import { createOrderUpdatedHandler } from '@partner-print/callback';
import { createClient } from '@partner-print/client';
import * as lite from '@partner-print/client/lite';
import { convertV1Order, createSkuResolver } from '@partner-print/migrate';
import { OPERATIONS } from '@partner-print/openapi';
import { parseRateLimitHeaders } from '@partner-print/ratelimit';
import { RedisStore } from '@partner-print/ratelimit/redis';
import { nextRendertokenReset } from '@partner-print/render';
import { createSandbox } from '@partner-print/sandbox';

const sandbox = createSandbox();
const client = createClient({
  secretKey: sandbox.keys.primary,
  baseUrl: sandbox.baseUrl,
  fetch: (request) => sandbox.fetch(request),
  clock: sandbox.clock,
});
const { products } = await client.get('/products');
const resolver = createSkuResolver(client);
const converted = await convertV1Order(
  {
    store_reference: sandbox.seed.stores.combined,
    shipping_kind: 'combined',
    orderlines: [{ sku: sandbox.seed.legacySkus.nonPrint, quantity: 1 }],
  },
  { resolveSku: (sku) => resolver.resolve(sku) },
);
const handler = createOrderUpdatedHandler({ client, environment: 'test', onOrderUpdated: () => {} });
const refused = await handler(new Request('https://hooks.example.test/?environment=test'));
const small = lite.createClient({
  secretKey: sandbox.keys.primary,
  baseUrl: sandbox.baseUrl,
  fetch: (request) => sandbox.fetch(request),
});
const liteProducts = await lite.collect(small, '/products', undefined, { max: 1 });
const checks = {
  products: products.length > 0,
  lite: liteProducts.length === 1,
  converted: converted.ok,
  refused: refused.status === 400,
  operations: OPERATIONS.createOrder.method === 'post',
  headers: parseRateLimitHeaders(new Headers()).policies.length === 0,
  redisStore: typeof RedisStore === 'function',
  reset: nextRendertokenReset(new Date('2026-10-24T12:00:00Z')).toISOString() === '2026-10-25T23:00:00.000Z',
};
const failed = Object.entries(checks).filter(([, ok]) => !ok);
if (failed.length > 0) throw new Error(`bundler-esbuild: failed ${failed.map(([k]) => k).join(', ')}`);
console.log('bundler-esbuild: ok');
