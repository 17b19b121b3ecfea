import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  await world.order();
  await world.order();
  // #region sample
  // Newest first; paginate follows nextCursor until it is
  // null.
  for await (const order of client.paginate('/orders')) {
    console.log(order.reference);
  }
  // #endregion
  return client.collect('/orders', {}, { max: 5 });
};
