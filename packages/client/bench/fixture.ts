// What the client's benches call: a sandbox in process with one order to GET, and that GET's answer
// recorded, for a transport that answers without the sandbox's own work.

import { createClient } from '@partner-print/client';
import type { paths } from '@partner-print/openapi';
import { createScheduler } from '@partner-print/ratelimit';
import { createSandbox, type SandboxOptions } from '@partner-print/sandbox';
import createFetchClient from 'openapi-fetch';

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
    orderReference,
    transport,
    params: { path: { orderReference } },
    path: '/orders/{orderReference}' as const,
  };
}

/**
 * The variants the per-call tools (alloc.ts, instructions.ts) compare, each a GET of one order on `transport`:
 * bare openapi-fetch, openapi-fetch through the scheduler, and the client with rate limiting off (telemetry
 * off, or at its default as `pnpm bench client` makes it) or on (telemetry off).
 */
export function getVariants(
  { key, baseUrl, orderReference }: { key: string; baseUrl: string; orderReference: `Order_${string}` },
  transport: (request: Request) => Promise<Response>,
): Record<string, () => () => Promise<unknown>> {
  const params = { path: { orderReference } };
  const path = '/orders/{orderReference}' as const;
  const headers = { 'X-Service-Secret-Key': key };
  const bare = (fetch: typeof transport) => () => {
    const c = createFetchClient<paths>({ baseUrl, fetch, headers });
    return () => c.GET(path, { params });
  };
  const client = (options: { rateLimit?: false; telemetry?: false }) => () => {
    const c = createClient({ secretKey: key, baseUrl, fetch: transport, ...options });
    return () => c.get(path, { params });
  };
  return {
    bare: bare(transport),
    scheduler: () => bare(createScheduler({ fetch: transport }).fetch)(),
    off: client({ rateLimit: false, telemetry: false }),
    offTelemetry: client({ rateLimit: false }),
    on: client({ telemetry: false }),
  };
}
