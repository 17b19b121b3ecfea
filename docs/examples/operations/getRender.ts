// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// A render of yours, e.g. the one "Create a render" made.
const renderReference = process.env.RENDER_REFERENCE as `Render_${string}`;
// #endregion

// Poll every 60 seconds until the render is completed or
// failed.
const { render } = await client.get('/renders/{renderReference}', {
  params: { path: { renderReference } },
});
console.log(render.status, render.thumbhash ?? '(no placeholder yet)');
