import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const { renderReference } = await world.render();
  // #region sample
  // Poll every 60 seconds until the render is completed or
  // failed.
  const { render } = await client.get('/renders/{renderReference}', {
    params: { path: { renderReference } },
  });
  console.log(render.status, render.thumbhash ?? '(no placeholder yet)');
  // #endregion
  return render;
};
