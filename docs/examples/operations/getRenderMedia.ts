import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const { renderReference } = await world.completedRender();
  // #region sample
  // Waits through 202 + Retry-After while the render is not
  // complete.
  const media = await client.download('/renders/{renderReference}/media', {
    params: { path: { renderReference } },
  });
  console.log(media.contentType, media.data.byteLength, 'bytes');
  // #endregion
  return media.data;
};
