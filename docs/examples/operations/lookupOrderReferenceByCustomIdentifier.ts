import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const { customIdentifier } = await world.order();
  // #region sample
  const { orderReference } = await client.get('/utilities/lookup-order-reference-by-custom-identifier', {
    params: { query: { customIdentifier } },
  });
  console.log(customIdentifier, '→', orderReference);
  // or: await client.lookupOrderReference(customIdentifier),
  // which resolves to null when absent
  // #endregion
  return orderReference;
};
