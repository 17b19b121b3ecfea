import { createSandbox } from '@partner-print/sandbox';
import { createClient } from './src/index.ts';

const sandbox = createSandbox({ rateLimits: false });
const key = sandbox.keys.primary;
const { baseUrl } = sandbox;
const transport = (r: Request) => sandbox.fetch(r);
const c = createClient({ secretKey: key, baseUrl, fetch: transport, rateLimit: false });
const ref = (
  await c.createOrder({
    storeReference: sandbox.seed.stores.combined,
    shippingKind: 'combined',
    orderlines: [{ productReference: sandbox.seed.products.nonPrint, quantity: 1 }],
  })
).order.reference;
const params = { path: { orderReference: ref } };
for (let i = 0; i < 8000; i++) await c.GET('/orders/{orderReference}', { params });
