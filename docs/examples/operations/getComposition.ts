import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const compositionReference = world.seed.compositions.available;
  // #region sample
  const { composition } = await client.get('/compositions/{compositionReference}', {
    params: { path: { compositionReference } },
  });
  console.log(composition.tokenCost);
  // #endregion
  return composition;
};
