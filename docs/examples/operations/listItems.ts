import type { Example } from '../harness.ts';

export const run: Example = async ({ client }) => {
  // #region sample
  // Warehouse stock; only relevant when you store stock with
  // the service.
  const { items } = await client.get('/items');
  for (const item of items) {
    console.log(item.sku, item.logicalQuantity, item.physicalQuantity);
  }
  // #endregion
  return items;
};
