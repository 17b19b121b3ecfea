// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
const perspectiveReference = process.env.PERSPECTIVE_REFERENCE as `Perspective_${string}`;
// #endregion

const { perspective } = await client.get('/perspectives/{perspectiveReference}', {
  params: { path: { perspectiveReference } },
});
// A scene perspective lists scenes (products: null); a
// product perspective lists products (scenes: null).
console.log(perspective.name, perspective.scenes, perspective.products);
