import type { DemoStep } from './context.ts';

export const lookupOrder: DemoStep = {
  title: 'Look an order up by its custom identifier',
  async run({ client, log }) {
    const reference = await client.lookupOrderReference('demo-1001');
    log(`demo-1001 → ${reference}`);
    if (!reference) throw new Error('demo-1001 was not found');
    const { order } = await client.get('/orders/{orderReference}', {
      params: { path: { orderReference: reference } },
    });
    log(`GET /orders/${order.reference}: status ${JSON.stringify(order.status)}`);
    log(`unknown identifiers give null: ${await client.lookupOrderReference('no-such-order')}`);
  },
};
