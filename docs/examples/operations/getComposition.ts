// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
const compositionReference = process.env.COMPOSITION_REFERENCE as `Composition_${string}`;
// #endregion

const { composition } = await client.get('/compositions/{compositionReference}', {
  params: { path: { compositionReference } },
});
console.log(composition.tokenCost);
