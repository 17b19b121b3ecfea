import type { Example } from '../harness.ts';

export const run: Example = async ({ client }) => {
  // #region sample
  const { rendertokens } = await client.get('/rendertokens');
  console.log(`${rendertokens.remaining} of ${rendertokens.limit} left until ${rendertokens.resets}`);
  // #endregion
  return rendertokens;
};
