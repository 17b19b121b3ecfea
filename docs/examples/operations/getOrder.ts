import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const { orderReference } = await world.shippedOrder();
  // #region sample
  const { order } = await client.get('/orders/{orderReference}', {
    params: { path: { orderReference } },
  });
  console.log(order.reference, order.status, order.shipments);
  // #endregion
  return order;
};
