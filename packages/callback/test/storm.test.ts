import { Agent, request } from 'node:http';
import { createClient } from '@partner-print/client';
import { afterEach, expect, it } from 'vitest';
import { createOrderUpdatedHandler } from '../src/index.ts';
import { serveOnLoopback, setup } from './helpers.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const NOTIFICATIONS = 1000;
const ORDERS = 10;

it('a storm of 1,000 notifications for 10 orders over loopback costs at most two fetches per order per burst', async () => {
  const { sandbox, createOrder } = setup();
  cleanups.push(() => sandbox.close());

  // The order GETs of the handler's client stay in flight until the whole burst has arrived:
  // a slow upstream while the storm hits, the case coalescing is for.
  const fetches = new Map<string, number>();
  let gate: Promise<void> = Promise.resolve();
  const client = createClient({
    secretKey: sandbox.keys.primary,
    baseUrl: sandbox.baseUrl,
    retry: false,
    fetch: async (req: Request) => {
      const match = /\/orders\/(Order_[0-9A-Za-z]+)$/.exec(new URL(req.url).pathname);
      if (match) {
        fetches.set(match[1]!, (fetches.get(match[1]!) ?? 0) + 1);
        await gate;
      }
      return sandbox.fetch(req);
    },
  });
  const handled = new Map<string, number>();
  const handler = createOrderUpdatedHandler({
    client,
    environment: 'test',
    onOrderUpdated: (order) => {
      handled.set(order.reference, (handled.get(order.reference) ?? 0) + 1);
    },
  });
  let arrived = 0;
  let allArrived!: () => void;
  const server = await serveOnLoopback((req) => {
    if (++arrived === NOTIFICATIONS) allArrived();
    return handler(req);
  });
  cleanups.push(server.close);
  sandbox.control.setCallbackUrl(sandbox.seed.stores.combined, `${server.origin}/hooks/print?tenant=eu`);

  const references: string[] = [];
  for (let i = 0; i < ORDERS; i++) references.push(await createOrder(`storm-${i}`));
  await sandbox.control.runDueDeliveries(); // the "created" notifications, one per order
  const urls = new Map(sandbox.control.deliveries().map((d) => [d.orderReference, d.url]));
  expect(urls.size).toBe(ORDERS);
  fetches.clear();
  handled.clear();

  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  cleanups.push(() => agent.destroy());
  const get = (url: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(url, { agent }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });

  for (let burst = 1; burst <= 2; burst++) {
    arrived = 0;
    let open!: () => void;
    gate = new Promise<void>((r) => {
      open = r;
    });
    const arrivedAll = new Promise<void>((r) => {
      allArrived = r;
    });
    const statuses = Promise.all(
      Array.from({ length: NOTIFICATIONS }, (_, i) => get(urls.get(references[i % ORDERS]!)!)),
    );
    await arrivedAll;
    open();
    expect((await statuses).every((s) => s === 204)).toBe(true);
    for (const reference of references) {
      expect(fetches.get(reference)).toBeGreaterThanOrEqual(burst);
      expect(fetches.get(reference)).toBeLessThanOrEqual(2 * burst);
      expect(handled.get(reference)).toBe(fetches.get(reference));
    }
  }
  const total = [...fetches.values()].reduce((a, b) => a + b, 0);
  expect(total).toBeLessThanOrEqual(2 * 2 * ORDERS);
}, 120_000);
