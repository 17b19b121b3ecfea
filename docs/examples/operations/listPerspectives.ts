import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const sceneReference = world.seed.scenes.studio;
  // #region sample
  const { perspectives } = await client.get('/perspectives', { params: { query: { sceneReference } } });
  for (const p of perspectives) {
    console.log(p.reference, p.name, `${p.output.widthPx}x${p.output.heightPx}`, p.output.format);
  }
  // #endregion
  return perspectives;
};
