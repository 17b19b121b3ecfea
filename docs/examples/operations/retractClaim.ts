import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const { claimReference } = await world.claim();
  // #region sample
  // Only while the claim is pending; permanent and
  // irreversible. Answers 204 with no body.
  await client.post('/claims/{claimReference}/retract', {
    params: { path: { claimReference } },
  });
  // #endregion
  return (await client.get('/claims/{claimReference}', { params: { path: { claimReference } } })).claim
    .status;
};
