import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const compositionReference = world.seed.compositions.available;
  const imageReference = await world.image();
  // #region sample
  // Every POST costs the composition's tokenCost, even for a
  // pair you rendered before: keep the render reference.
  // (@partner-print/render's renderMockup does this for you.)
  const { rendertokens } = await client.get('/rendertokens');
  const { composition } = await client.get('/compositions/{compositionReference}', {
    params: { path: { compositionReference } },
  });
  if (rendertokens.remaining < composition.tokenCost)
    throw new Error(`no tokens until ${rendertokens.resets}`);

  const { render } = await client.post('/renders', {
    body: { render: { compositionReference, imageReference } },
  });
  console.log(render.reference); // Render_…, pending
  // #endregion
  return render.reference;
};
