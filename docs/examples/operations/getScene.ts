import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const sceneReference = world.seed.scenes.studio;
  // #region sample
  const { scene } = await client.get('/scenes/{sceneReference}', {
    params: { path: { sceneReference } },
  });
  console.log(scene.name, scene.allowsProductPerspectives, scene.compatibleProductgroups, scene.perspectives);
  // #endregion
  return scene;
};
