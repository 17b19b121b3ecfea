// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// A render of yours, e.g. the one "Create a render" made.
const renderReference = process.env.RENDER_REFERENCE as `Render_${string}`;
// #endregion

// With `wait: false` a 202 comes back as a pending result
// instead of waiting.
const result = await client.download(
  '/renders/{renderReference}/thumbnail',
  { params: { path: { renderReference } } },
  { wait: false },
);
if (result.pending) console.log(`not ready; ask again in ${result.retryAfter} s`);
else console.log(result.contentType, result.data.byteLength);
