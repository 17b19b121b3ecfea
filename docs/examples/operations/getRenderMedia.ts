// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// A render of yours, e.g. the one "Create a render" made.
const renderReference = process.env.RENDER_REFERENCE as `Render_${string}`;
// #endregion

// Waits through 202 + Retry-After while the render is not
// complete.
const media = await client.download('/renders/{renderReference}/media', {
  params: { path: { renderReference } },
});
console.log(media.contentType, media.data.byteLength, 'bytes');
