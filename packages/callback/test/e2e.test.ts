import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOrderUpdatedHandler, type Order, type OrderUpdatedNotification } from '../src/index.ts';
import { MINUTE, ref, serveOnLoopback, setup } from './helpers.ts';

// The first two tests wait for the handler's real 1 s coalescing window twice each (about 2 s of real time);
// a starved run must not fail them on vitest's default 5 s: they bound no duration.
const REAL_WINDOWS_TIMEOUT = 30_000;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Setup = ReturnType<typeof setup>;

/** Serves `handler` on 127.0.0.1 as the combined store's callback URL (`/hooks/print` and `query`), until the test ends. */
async function serveAsCallback(
  sandbox: Setup['sandbox'],
  handler: Parameters<typeof serveOnLoopback>[0],
  query = '',
) {
  const server = await serveOnLoopback(handler);
  cleanups.push(server.close);
  sandbox.control.setCallbackUrl(sandbox.seed.stores.combined, `${server.origin}/hooks/print${query}`);
}

/** Creates an order, ships it and runs the deliveries then due: its reference. */
async function shipNew(
  sandbox: Setup['sandbox'],
  createOrder: Setup['createOrder'],
  customIdentifier?: string,
) {
  const reference = await createOrder(customIdentifier);
  sandbox.control.ship(reference);
  await sandbox.control.runDueDeliveries();
  return reference;
}

describe('legacy callback end to end over loopback', () => {
  it(
    'the sandbox ships an order, calls the handler on 127.0.0.1, and the handler fetches the order',
    async () => {
      const { sandbox, client, createOrder } = setup();
      cleanups.push(() => sandbox.close());
      const received: Array<{ order: Order; notification: OrderUpdatedNotification }> = [];
      const getSpy = vi.spyOn(client, 'get');
      const handler = createOrderUpdatedHandler({
        client,
        environment: 'test',
        onOrderUpdated: (order, notification) => {
          received.push({ order, notification });
        },
      });
      await serveAsCallback(sandbox, handler, '?tenant=eu');

      const reference = await createOrder('shop-1001');
      await sandbox.control.runDueDeliveries();
      const before = received.length; // a creation notification, if the sandbox sends one

      const { shipmentReference } = sandbox.control.ship(reference);
      await sandbox.control.runDueDeliveries();

      expect(received.length).toBeGreaterThan(before);
      const last = received.at(-1)!;
      expect(last.notification).toMatchObject({
        environment: 'test',
        orderReferenceV2: reference,
        storeCode: sandbox.seed.storeCodes.combined,
        customReference: 'shop-1001',
        extra: [['tenant', 'eu']],
      });
      expect(last.notification.orderReferenceParts?.storeCode).toBe(sandbox.seed.storeCodes.combined);
      // The content comes from the fetched order, not from the notification.
      expect(last.order.reference).toBe(reference);
      expect(last.order.shipments?.map((s) => s.reference)).toContain(shipmentReference);
      expect(getSpy).toHaveBeenCalledWith(
        '/orders/{orderReference}',
        expect.objectContaining({ params: { path: { orderReference: reference } } }),
      );

      const deliveries = sandbox.control.deliveries().filter((d) => d.orderReference === reference);
      expect(deliveries.length).toBeGreaterThan(0);
      for (const d of deliveries) {
        expect(d.state).toBe('delivered');
        expect(d.attempts.map((a) => a.status)).toEqual([204]);
      }
    },
    REAL_WINDOWS_TIMEOUT,
  );

  it(
    'a handler that answers 500 is retried by the sandbox 5 virtual minutes later',
    async () => {
      const { sandbox, client, createOrder } = setup();
      cleanups.push(() => sandbox.close());
      let failing = true;
      const handled: string[] = [];
      const onError = vi.fn();
      const handler = createOrderUpdatedHandler({
        client,
        environment: 'test',
        onError,
        onOrderUpdated: (order) => {
          if (failing) throw new Error('database unavailable');
          handled.push(order.reference);
        },
      });
      await serveAsCallback(sandbox, handler);

      const reference = await shipNew(sandbox, createOrder);
      const pending = sandbox.control.deliveries().filter((d) => d.orderReference === reference);
      expect(pending.length).toBeGreaterThan(0);
      for (const d of pending) {
        expect(d.state).toBe('pending');
        expect(d.attempts.map((a) => a.status)).toEqual([500]);
        expect(Date.parse(d.nextAttemptAt!) - Date.parse(d.attempts[0]!.at)).toBe(5 * MINUTE);
      }
      expect(onError.mock.calls[0]![1].stage).toBe('handle');

      failing = false;
      await sandbox.control.advance(4 * MINUTE);
      expect(handled).toEqual([]); // not yet due
      await sandbox.control.advance(1 * MINUTE);
      expect(handled.length).toBeGreaterThan(0);
      expect(new Set(handled)).toEqual(new Set([reference]));
      for (const d of sandbox.control.deliveries().filter((x) => x.orderReference === reference)) {
        expect(d.state).toBe('delivered');
        expect(d.attempts.map((a) => a.status)).toEqual([500, 204]);
      }
    },
    REAL_WINDOWS_TIMEOUT,
  );

  it('refuses a callback for the other environment (4xx), so the sandbox keeps it pending', async () => {
    const { sandbox, client, createOrder } = setup();
    cleanups.push(() => sandbox.close());
    const onOrderUpdated = vi.fn();
    const getSpy = vi.spyOn(client, 'get');
    const handler = createOrderUpdatedHandler({ client, environment: 'prod', onOrderUpdated });
    await serveAsCallback(sandbox, handler);
    const reference = await shipNew(sandbox, createOrder);
    const statuses = sandbox.control
      .deliveries()
      .filter((d) => d.orderReference === reference)
      .flatMap((d) => d.attempts.map((a) => a.status));
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 422)).toBe(true);
    expect(onOrderUpdated).not.toHaveBeenCalled();
    expect(getSpy).not.toHaveBeenCalled();
  });

  it('reads an integrator order and a configured URL whose own query collides, without warnings', async () => {
    const { sandbox, client } = setup();
    cleanups.push(() => sandbox.close());
    const received: OrderUpdatedNotification[] = [];
    const onWarnings = vi.fn();
    const handler = createOrderUpdatedHandler({
      client,
      environment: 'test',
      windowMs: 0, // what the notification carries does not depend on a window
      onWarnings,
      onOrderUpdated: (_order, notification) => {
        received.push(notification);
      },
    });
    const server = await serveOnLoopback(handler);
    cleanups.push(server.close);
    sandbox.control.setCallbackUrl(
      sandbox.seed.stores.integrated,
      `${server.origin}/hooks/print?tenant=eu&store_code=MINE&environment=prod&tag=a%20b&tag=c`,
    );
    const { order } = await client.post('/orders', {
      body: {
        order: {
          storeReference: ref('Store', sandbox.seed.stores.integrated),
          shippingKind: 'dropship',
          dropshipAddress: {
            firstname: 'Ada',
            lastname: 'Lovelace',
            streetname: 'Damrak',
            housenumber: '1',
            zipcode: '1012 LG',
            city: 'Amsterdam',
            countryCode: 'NL',
          },
          orderlines: [{ productReference: ref('Product', sandbox.seed.products.nonPrint), quantity: 1 }],
        },
      },
    });
    sandbox.control.ship(order.reference);
    await sandbox.control.runDueDeliveries();
    expect(received.length).toBeGreaterThan(0);
    const last = received.at(-1)!;
    expect(last.environment).toBe('test'); // the service's value won the collision
    expect(last.storeCode).toBe(sandbox.seed.storeCodes.integrated);
    expect(last.viaStoreCode).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]*$/);
    expect(last.extra).toEqual([
      ['tenant', 'eu'],
      ['tag', 'a b'],
      ['tag', 'c'],
    ]);
    expect(onWarnings).not.toHaveBeenCalled();
  });

  it('reads back a custom reference that needs percent-encoding, exactly as the order has it', async () => {
    const { sandbox, client, createOrder } = setup();
    cleanups.push(() => sandbox.close());
    const received: OrderUpdatedNotification[] = [];
    const handler = createOrderUpdatedHandler({
      client,
      environment: 'test',
      windowMs: 0, // what the notification carries does not depend on a window
      onOrderUpdated: (_order, notification) => {
        received.push(notification);
      },
    });
    await serveAsCallback(sandbox, handler, '?a=%26&b=%2B');
    const customIdentifier = 'Shop #1 & Co/é+x=y?%20';
    await shipNew(sandbox, createOrder, customIdentifier);
    expect(received.length).toBeGreaterThan(0);
    for (const n of received) {
      expect(n.customReference).toBe(customIdentifier);
      expect(n.extra).toEqual([
        ['a', '&'],
        ['b', '+'],
      ]);
    }
  });
});
