// The demo's callback step: a local endpoint on 127.0.0.1 receives the sandbox's legacy
// order-updated callback for the shipped order, fetches the order by its V2 reference (the
// notification only says *that* it changed) and acknowledges once it has handled it.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Order } from '@partner-print/callback';
import {
  createOrderUpdatedHandler,
  type OrderFetcher,
  type OrderUpdatedNotification,
} from '@partner-print/callback';
import { toNodeListener } from '@partner-print/callback/node';
import type { Reference } from '@partner-print/openapi/wire';
import type { Sandbox } from '@partner-print/sandbox';

/** What the callback step needs from the demo. */
export interface CallbackStepContext {
  /** The demo's client (createClient); only its GET /orders/{orderReference} is used. */
  client: OrderFetcher<Order>;
  /** The embedded sandbox: its control API ships the order and delivers the callback. */
  sandbox: Pick<Sandbox, 'control'>;
  /** An `Order_…` reference from an earlier step, with lines still to ship. */
  orderReference: Reference<'Order'>;
  /** The order's store (whose "API Callback URL" is set); read from the order when omitted. */
  storeReference?: string;
  /** What to ship (sandbox ShipOptions); every unshipped line when omitted. */
  ship?: Parameters<Sandbox['control']['ship']>[1];
  log?: (line: string) => void;
}

export async function callbackStep(ctx: CallbackStepContext): Promise<void> {
  const log = ctx.log ?? ((line: string) => console.log(line));
  const { control } = ctx.sandbox;
  const received: Array<{ order: Order; notification: OrderUpdatedNotification }> = [];

  const handler = createOrderUpdatedHandler({
    client: ctx.client,
    environment: 'test', // the sandbox is the test environment
    onOrderUpdated: (order, notification) => {
      received.push({ order, notification });
    },
    onWarnings: (warnings) => {
      for (const w of warnings) log(`  callback warning: ${w.message}`);
    },
  });
  const server = createServer(toNodeListener(handler));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const storeReference =
    ctx.storeReference ??
    String(
      (
        await ctx.client.get('/orders/{orderReference}', {
          params: { path: { orderReference: ctx.orderReference } },
        })
      ).order.storeReference,
    );
  const configured = `http://127.0.0.1:${port}/partner-print/order-updated?source=demo`;
  control.setCallbackUrl(storeReference, configured);
  log(`  callback endpoint ${configured}`);
  try {
    const { shipmentReference } = control.ship(ctx.orderReference, ctx.ship);
    log(`  sandbox shipped ${ctx.orderReference} as ${shipmentReference}`);
    await control.runDueDeliveries();

    const delivery = control
      .deliveries()
      .filter((d) => d.orderReference === ctx.orderReference && d.change === 'shipped')
      .at(-1);
    if (!delivery) throw new Error('the sandbox delivered no callback for the shipment');
    log(`  sandbox called GET ${delivery.url}`);
    log(`  answered ${delivery.attempts.map((a) => a.status).join(', ')} (${delivery.state})`);

    const last = received.filter((r) => r.notification.orderReferenceV2 === ctx.orderReference).at(-1);
    if (!last) throw new Error('the handler did not receive the callback');
    const { notification, order } = last;
    log(
      `  notification: ${notification.environment} order ${notification.orderReference} ` +
        `(${notification.orderReferenceV2}) of store ${notification.storeCode}` +
        (notification.customReference ? `, custom reference ${notification.customReference}` : ''),
    );
    log(
      `  fetched order ${order.reference}: status ${JSON.stringify(order.status)}, ` +
        `shipments ${(order.shipments ?? []).map((s) => s.reference).join(', ') || 'none'}`,
    );
  } finally {
    control.setCallbackUrl(storeReference, '');
    server.closeAllConnections();
    server.close();
  }
}

/** The step as the demo's walkthrough lists it (`{ title, run(ctx) }` with the demo's context). */
export const callbackDemoStep = {
  title: 'Receive the legacy order-updated callback on 127.0.0.1 when an order ships',
  run(ctx: {
    client: OrderFetcher<Order>;
    sandbox: Pick<Sandbox, 'control'>;
    seed: { stores: { combined: string } };
    log: (line: string) => void;
    state: { combinedOrder?: Reference<'Order'> };
  }): Promise<void> {
    if (!ctx.state.combinedOrder)
      throw new Error('the callback step needs the combined order of an earlier step');
    return callbackStep({
      client: ctx.client,
      sandbox: ctx.sandbox,
      orderReference: ctx.state.combinedOrder,
      storeReference: ctx.seed.stores.combined,
      // Only the screen protector (line 1) ships here; the next step ships the rest.
      ship: { lines: [{ orderlineIndex: 1, quantity: 1 }] },
      log: (line) => ctx.log(line.trimStart()),
    });
  },
};
