import type { Example } from '../harness.ts';

export const run: Example = async ({ client }) => {
  // #region sample
  const { claimcategories } = await client.get('/claimcategories');
  for (const category of claimcategories) {
    console.log(category.reference, category.name, category.evidenceRequired ? '(evidence required)' : '');
  }
  // #endregion
  return claimcategories;
};
