import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const legacyItemSku = world.seed.legacySkus.printNew;
  // #region sample
  // Deprecated: removed in V3. Translate your SKUs once and
  // store the references.
  const { productReference } = await client.get('/utilities/lookup-product-by-legacy-sku', {
    params: { query: { legacyItemSku } },
  });
  console.log(legacyItemSku, '→', productReference);
  // #endregion
  return productReference;
};
