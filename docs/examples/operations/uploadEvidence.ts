import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const photo = world.png(8);
  // #region sample
  // Upload evidence right before filing the claim: unused
  // evidence is deleted after 1 day.
  const evidenceReference = await client.uploadEvidence(photo);
  console.log(evidenceReference); // Evidence_…
  // #endregion
  return evidenceReference;
};
