import type { DemoStep } from './context.ts';

export const droppedConnection: DemoStep = {
  title: 'Create an order through a dropped connection (no duplicate)',
  async run({ client, sandbox, seed, log, requests, state }) {
    // The sandbox stores the next order, then drops the connection before answering.
    sandbox.control.injectFault({ path: '/orders', method: 'POST', kind: 'drop-after' });
    const before = requests();
    const { order } = await client.createOrder({
      storeReference: seed.stores.combined,
      shippingKind: 'combined',
      customIdentifier: 'demo-1003',
      orderlines: [{ productReference: seed.products.print, imageReference: state.image!, quantity: 1 }],
    });
    log(`the answer to POST /orders was lost; createOrder asked the custom-identifier lookup instead`);
    // createOrder looks the identifier up before posting (nothing yet), posts (the answer is lost), looks it up
    // again (found) and reads that order to check it has the same content before taking it as its own.
    log(
      `demo-1003 → ${order.reference} after ${requests() - before} requests (lookup, POST, lookup, GET of the order found), created once`,
    );
    sandbox.control.injectFault({ path: '/orders', method: 'POST', kind: 'drop-after' });
    const error = await client
      .createOrder({
        storeReference: seed.stores.combined,
        shippingKind: 'combined',
        orderlines: [{ productReference: seed.products.nonPrint, quantity: 1 }],
      })
      .catch((e: Error) => e);
    log(`without a customIdentifier the outcome cannot be checked: ${(error as Error).name}`);
    log('(this one was in fact stored: an AmbiguousOutcomeError means "look before you retry")');
  },
};
