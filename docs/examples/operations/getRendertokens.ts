// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// #endregion

const { rendertokens } = await client.get('/rendertokens');
console.log(`${rendertokens.remaining} of ${rendertokens.limit} left until ${rendertokens.resets}`);
