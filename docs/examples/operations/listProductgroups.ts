import type { Example } from '../harness.ts';

export const run: Example = async ({ client }) => {
  // #region sample
  const { productgroups } = await client.get('/productgroups');
  for (const group of productgroups) console.log(group.reference);
  // #endregion
  return productgroups;
};
