import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const { claimReference } = await world.claim();
  // #region sample
  const { claim } = await client.get('/claims/{claimReference}', {
    params: { path: { claimReference } },
  });
  console.log(claim.status); // pending, resolved, rejected or retracted
  if (claim.decision) console.log('decided', claim.decision.decided, claim.decision.comment);
  // #endregion
  return claim;
};
