// #region sample
import { GoneError, NotFoundError } from '@partner-print/client';
// #endregion
import type { Example } from '../harness.ts';

export const run: Example = async ({ client, world }) => {
  const sceneReference = world.seed.scenes.studio;
  const productReference = world.seed.products.print;
  const perspectiveReference = world.seed.perspectives.studioFront;
  // #region sample
  try {
    const { composition } = await client.get('/lookup-composition', {
      params: { query: { sceneReference, productReference, perspectiveReference } },
    });
    console.log(composition.reference, 'costs', composition.tokenCost, 'rendertokens per render');
  } catch (error) {
    if (error instanceof NotFoundError) {
      console.log('this combination does not exist'); // 404
    } else if (error instanceof GoneError) {
      console.log('it exists but is no longer available (deprecated)'); // 410
    } else {
      throw error;
    }
  }
  // #endregion
  return 'ok';
};
