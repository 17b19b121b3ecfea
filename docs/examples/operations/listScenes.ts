import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const productgroupReference = world.seed.productgroups.phoneCases;
  // #region sample
  const { scenes } = await client.get('/scenes', { params: { query: { productgroupReference } } });
  for (const scene of scenes) console.log(scene.reference, scene.name);
  // #endregion
  return scenes;
};
