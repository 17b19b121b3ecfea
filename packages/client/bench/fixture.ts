// What the client's benches call: a sandbox in process with one order to GET, and that GET's answer
// recorded, for a transport that answers without the sandbox's own work.
import { createSandbox, type SandboxOptions } from '@partner-print/sandbox';
import { createClient } from '../src/index.ts';

/**
 * A sandbox holding one order. By default it announces a quota no run can exhaust: it still sends
 * rate-limit headers (the scheduler learns them) but never throttles, so a bench measures the client's
 * work, not waiting for tokens.
 */
export async function benchSandbox(
  rateLimits: SandboxOptions['rateLimits'] = { default: { q: 1_000_000_000, w: 60 } },
) {
  const sandbox = createSandbox({ rateLimits });
  const key = sandbox.keys.primary;
  const { baseUrl } = sandbox;
  const made = await createClient({
    secretKey: key,
    baseUrl,
    fetch: (request) => sandbox.fetch(request),
    rateLimit: false,
  }).createOrder({
    storeReference: sandbox.seed.stores.combined,
    shippingKind: 'combined',
    orderlines: [{ productReference: sandbox.seed.products.nonPrint, quantity: 1 }],
  });
  const orderReference = made.order.reference;
  /** The sandbox's answer to GET /orders/{orderReference}: a fresh copy of it per call. */
  const recordAnswer = async (): Promise<() => Response> => {
    const answer = await sandbox.fetch(
      new Request(`${baseUrl}/orders/${orderReference}`, { headers: { 'X-Service-Secret-Key': key } }),
    );
    const body = await answer.text();
    const { status } = answer;
    const headers = [...answer.headers];
    return () => new Response(body, { status, headers });
  };
  return { sandbox, key, baseUrl, orderReference, recordAnswer };
}

/**
 * The bench's GET on a prepared answer: a transport that answers every request with a fresh copy of the
 * sandbox's own answer to it (the sandbox closed), so a count holds only the client's work.
 */
export async function preparedGet() {
  const { sandbox, key, baseUrl, orderReference, recordAnswer } = await benchSandbox();
  const answer = await recordAnswer();
  sandbox.close();
  const transport = (_request: Request) => Promise.resolve(answer());
  return {
    key,
    baseUrl,
    transport,
    params: { path: { orderReference } },
    path: '/orders/{orderReference}' as const,
  };
}
