import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '@partner-print/client';
import { isReference, type Reference, type ReferencePrefix } from '@partner-print/openapi/wire';
import { createSandbox, type Sandbox } from '@partner-print/sandbox';
import type { OrderUpdatedHandler } from '../src/index.ts';
import { toNodeListener } from '../src/node/index.ts';

export const MINUTE = 60_000;

/** A seeded reference (a plain string in the sandbox's seed) as the typed reference the client takes. */
export function ref<P extends ReferencePrefix>(prefix: P, value: string): Reference<P> {
  if (!isReference(prefix, value, 'unreserved')) throw new TypeError(`not a ${prefix}_ reference`);
  return value;
}

/** Serves `handler` with node:http on 127.0.0.1 (ephemeral port); `close()` stops it. */
export async function serveOnLoopback(
  handler: OrderUpdatedHandler | ((request: Request) => Promise<Response>),
) {
  const server = createServer(toNodeListener(handler));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

export function setup(options: Parameters<typeof createSandbox>[0] = {}) {
  const sandbox: Sandbox = createSandbox({ rateLimits: false, ...options });
  const client = createClient({
    secretKey: sandbox.keys.primary,
    baseUrl: sandbox.baseUrl,
    fetch: (request: Request) => sandbox.fetch(request),
  });
  /** A combined order of one non-print product (no image needed) in the seeded combined store. */
  const createOrder = async (customIdentifier?: string) => {
    const { order } = await client.post('/orders', {
      body: {
        order: {
          storeReference: ref('Store', sandbox.seed.stores.combined),
          shippingKind: 'combined',
          ...(customIdentifier ? { customIdentifier } : {}),
          orderlines: [{ productReference: ref('Product', sandbox.seed.products.nonPrint), quantity: 1 }],
        },
      },
    });
    return order.reference;
  };
  return { sandbox, client, createOrder };
}
