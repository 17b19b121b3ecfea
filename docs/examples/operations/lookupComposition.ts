// #region setup
import { createClient, GoneError, NotFoundError } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
const sceneReference = process.env.SCENE_REFERENCE as `Scene_${string}`;
const productReference = process.env.PRODUCT_REFERENCE as `Product_${string}`;
const perspectiveReference = process.env.PERSPECTIVE_REFERENCE as `Perspective_${string}`;
// #endregion

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
