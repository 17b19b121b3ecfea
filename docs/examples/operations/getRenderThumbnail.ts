import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const { renderReference } = await world.render();
  // #region sample
  // With `wait: false` a 202 comes back as a pending result
  // instead of waiting.
  const result = await client.download(
    '/renders/{renderReference}/thumbnail',
    { params: { path: { renderReference } } },
    { wait: false },
  );
  if (result.pending) console.log(`not ready; ask again in ${result.retryAfter} s`);
  else console.log(result.contentType, result.data.byteLength);
  // #endregion
  return result;
};
