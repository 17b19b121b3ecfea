// The @partner-print/client README's examples, runnable: `npx tsx docs/examples/client-quickstart.ts`.
// Against the real service, use your secret key and base URL instead of the sandbox's.
import { pathToFileURL } from 'node:url';
import { createClient, isPartnerPrintError, RateLimitedError, ValidationError } from '@partner-print/client';
import { createSandbox } from '@partner-print/sandbox';
import { samplePng } from './steps/sample-image.ts';

export async function quickstart(log: (line: string) => void = console.log): Promise<void> {
  const sandbox = createSandbox();
  const { stores, products } = sandbox.seed;

  // 1. A client. baseUrl must end in /v2; the key is sent only as X-Service-Secret-Key.
  const client = createClient({
    secretKey: sandbox.keys.primary, // process.env.PARTNER_PRINT_SECRET_KEY in real code
    baseUrl: sandbox.baseUrl, // e.g. the production or test base URL, ending in /v2
    fetch: (request) => sandbox.fetch(request), // omit to use globalThis.fetch
    clock: sandbox.clock, // omit for real time
    hooks: {
      response: (e) => log(`  ${e.method} ${new URL(e.url).pathname} → ${e.status} (${e.operation})`),
    },
  });

  // 2. Upload an image: raw JPEG/PNG bytes (Uint8Array, ArrayBuffer, Blob, ReadableStream or a Node.js stream).
  const imageReference = await client.uploadImage(samplePng());

  // 3. Create an order. With a customIdentifier, a lost answer is reconciled, never duplicated.
  const { order } = await client.createOrder({
    storeReference: stores.combined,
    shippingKind: 'combined',
    customIdentifier: 'shop-order-42',
    orderlines: [{ productReference: products.print, imageReference, quantity: 1 }],
  });
  log(`created ${order.reference}`);

  // 4. Typed calls: get/post return data or throw; GET/POST return { data, error, response }.
  const { order: read } = await client.get('/orders/{orderReference}', {
    params: { path: { orderReference: order.reference } },
  });
  const { data, error } = await client.GET('/rendertokens');
  log(`order ${read.reference}; ${data?.rendertokens.remaining ?? error} rendertokens left`);

  // 5. Every item of a list endpoint, following nextCursor.
  for await (const o of client.paginate('/orders')) log(`order ${o.reference}`);

  // 6. Errors are classes with status, code, operation, retryAfter…
  try {
    await client.post('/orders', {
      body: {
        order: {
          storeReference: stores.combined,
          shippingKind: 'combined',
          orderlines: [{ productReference: products.print, quantity: 1 }],
        },
      },
    });
  } catch (e) {
    if (e instanceof ValidationError) log(`refused: ${e.code} (${e.status}) in ${e.operation}`);
    else if (e instanceof RateLimitedError) log(`slow down for ${e.retryAfter} s`);
    else if (isPartnerPrintError(e)) log(`failed: ${e.message}`);
    else throw e;
  }
  sandbox.close();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await quickstart();
