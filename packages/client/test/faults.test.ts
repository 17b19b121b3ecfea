import { createSandbox, type Sandbox } from '@partner-print/sandbox';
import { describe, expect, it } from 'vitest';
import { createClient, type Fetch } from '../src/index.ts';
import { typedSeed, withSignal } from './helpers.ts';

type Fault = 'drop-after' | 'status-503' | 'timeout';

/** Deterministic pseudo-random numbers (mulberry32), so a failing run can be repeated. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The sandbox's fetch with a fault on `rate` of all requests, through the sandbox's own fault API
 * (control.injectFault, taken by the very next matching request), except "the answer never comes
 * after the order was stored", which the sandbox does not offer and this wrapper adds.
 */
function faulty(sandbox: Sandbox, fault: Fault, rate: number, seed: number) {
  const next = random(seed);
  const stats = { requests: 0, faults: 0 };
  const send = withSignal(sandbox);
  const fetch: Fetch = (request, init) => {
    stats.requests++;
    if (next() >= rate) return send(request, init);
    stats.faults++;
    const target = { path: new URL(request.url).pathname, method: request.method };
    if (fault === 'drop-after') sandbox.control.injectFault({ ...target, kind: 'drop-after' });
    else if (fault === 'status-503') sandbox.control.injectFault({ ...target, kind: 'status', status: 503 });
    else if (stats.faults % 2) sandbox.control.injectFault({ ...target, kind: 'latency', latencyMs: 60_000 });
    else return send(request, init).then(() => new Promise<Response>(() => {})); // stored, no answer
    return send(request, init);
  };
  return { fetch, stats };
}

async function pool<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

const ORDERS = 1000;

describe.each<[Fault, number]>([
  ['drop-after', 1],
  ['status-503', 2],
  ['timeout', 3],
])('%s on 10% of requests', (fault, seed) => {
  it(`${ORDERS} createOrder calls with customIdentifiers make exactly ${ORDERS} orders`, {
    timeout: 120_000,
  }, async () => {
    const sandbox = createSandbox({ rateLimits: false, pageSize: 250 });
    const { fetch, stats } = faulty(sandbox, fault, 0.1, seed);
    let lookups = 0;
    const client = createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      fetch,
      clock: sandbox.clock,
      timeoutMs: fault === 'timeout' ? 25 : 5_000,
      // The default elapsed budget (60 s): on the sandbox's virtual clock the 25 flows' waits overlap as on a
      // real clock (they used to add up, so each flow needed an hour).
      retry: { attempts: 6 },
      hooks: {
        request: (e) => {
          if (e.operation === 'lookupOrderReferenceByCustomIdentifier' && e.attempt === 1) lookups++;
        },
      },
    });
    const { stores, products } = typedSeed(sandbox.seed);
    const created = await pool(ORDERS, 25, (i) =>
      client.createOrder({
        storeReference: stores.combined,
        shippingKind: 'combined',
        customIdentifier: `${fault}-${i}`,
        orderlines: [{ productReference: products.nonPrint, quantity: 1 }],
      }),
    );

    // Count what the service holds, through a client without faults.
    const checker = createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      fetch: (r) => sandbox.fetch(r),
      clock: sandbox.clock,
    });
    const orders = (await checker.collect('/orders')) as Array<{
      reference: string;
      customIdentifier?: string;
    }>;
    const identifiers = orders.map((o) => o.customIdentifier);
    expect(orders).toHaveLength(ORDERS);
    expect(new Set(identifiers).size).toBe(ORDERS);
    expect(new Set(orders.map((o) => o.reference))).toEqual(new Set(created.map((c) => c.order.reference)));
    for (let i = 0; i < ORDERS; i += 97)
      await expect(checker.lookupOrderReference(`${fault}-${i}`)).resolves.toBe(created[i]!.order.reference);

    expect(stats.faults).toBeGreaterThan(ORDERS * 0.08);
    expect(lookups).toBeGreaterThan(0);
  });
});
