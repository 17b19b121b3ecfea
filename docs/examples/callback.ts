// The legacy order-updated callback, end to end against the embedded sandbox:
// parse a callback URL, serve a handler on 127.0.0.1 with node:http, let the sandbox ship an order
// and call it, and see a failing handler retried five (virtual) minutes later.
// Run: pnpm tsx docs/examples/callback.ts
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  buildCallbackUrl,
  createOrderUpdatedHandler,
  parseOrderUpdatedCallback,
} from '@partner-print/callback';
import { toNodeListener } from '@partner-print/callback/node';
import { createClient } from '@partner-print/client';
import { createSandbox } from '@partner-print/sandbox';

// 1. Parsing: strict, never throws, the partner's own parameters come back as `extra`.
const url = buildCallbackUrl('https://shop.example/hooks/print?tenant=eu', {
  environment: 'test',
  orderReference: 'ACME-100001',
  orderReferenceV2: 'Order_01JABCDEFGHJKMNPQRSTVWXYZ0',
  storeCode: 'ACME',
  customReference: 'shop-1001',
});
console.log(url);
const parsed = parseOrderUpdatedCallback(url);
if (parsed.ok)
  console.log(parsed.value.orderReferenceV2, parsed.value.orderReferenceParts, parsed.value.extra);
const bad = parseOrderUpdatedCallback(url.replace('Order_', 'Order_..%2F'));
if (!bad.ok) console.log(bad.errors);

// 2. A handler served on loopback, called by the sandbox.
const sandbox = createSandbox();
const client = createClient({
  secretKey: sandbox.keys.primary,
  baseUrl: sandbox.baseUrl,
  fetch: (request: Request) => sandbox.fetch(request),
});
let failuresLeft = 1; // the first notification fails, to show the service's retry
const handler = createOrderUpdatedHandler({
  client,
  environment: 'test',
  async onOrderUpdated(order, notification) {
    if (failuresLeft-- > 0) throw new Error('database unavailable');
    console.log(`order ${order.reference} (${notification.orderReference}) is now`, order.status);
  },
  onError: (error, { stage }) => console.log(`handler failed at ${stage}: ${(error as Error).message}`),
});
const server = createServer(toNodeListener(handler));
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const { port } = server.address() as AddressInfo;
sandbox.control.setCallbackUrl(
  sandbox.seed.stores.combined,
  `http://127.0.0.1:${port}/hooks/print?tenant=eu`,
);

const { order } = await client.post('/orders', {
  body: {
    order: {
      storeReference: sandbox.seed.stores.combined,
      shippingKind: 'combined',
      customIdentifier: 'shop-1001',
      orderlines: [{ productReference: sandbox.seed.products.nonPrint, quantity: 1 }],
    },
  },
});
await sandbox.control.runDueDeliveries(); // "created": fails once, answered 500
sandbox.control.ship(order.reference);
await sandbox.control.runDueDeliveries(); // "shipped": handled, answered 204
// The failed "created" delivery is retried and succeeds; the handler fetches the order again and
// sees its current state (shipped), not what it was when the notification was first sent.
await sandbox.control.advance(5 * 60_000);
for (const d of sandbox.control.deliveries()) {
  console.log(d.change, d.state, d.attempts.map((a) => `${a.at} → ${a.status}`).join(', '));
}

server.closeAllConnections();
server.close();
sandbox.close();
