import type { DemoStep } from './context.ts';

export const pageOrders: DemoStep = {
  title: 'Page through the orders',
  async run({ client, log, requests }) {
    const before = requests();
    let count = 0;
    for await (const order of client.paginate('/orders')) {
      count++;
      log(
        `${count}. ${order.reference} ${order.shipments?.length ? `(${order.shipments.length} shipment)` : ''}`,
      );
    }
    log(`${count} orders in ${requests() - before} requests: paginate follows nextCursor until it is null`);
  },
};
