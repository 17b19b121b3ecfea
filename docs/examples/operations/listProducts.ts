import type { Example } from '../harness.ts';

export const run: Example = async ({ client }) => {
  // #region sample
  for await (const product of client.paginate('/products')) {
    console.log(product.reference, product.legacyItemSKU);
  }
  // #endregion
  return client.collect('/products', {}, { max: 5 });
};
