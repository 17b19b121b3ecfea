import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const perspectiveReference = world.seed.perspectives.studioFront;
  // #region sample
  const { perspective } = await client.get('/perspectives/{perspectiveReference}', {
    params: { path: { perspectiveReference } },
  });
  // A scene perspective lists scenes (products: null); a
  // product perspective lists products (scenes: null).
  console.log(perspective.name, perspective.scenes, perspective.products);
  // #endregion
  return perspective;
};
