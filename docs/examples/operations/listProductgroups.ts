// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// #endregion

const { productgroups } = await client.get('/productgroups');
for (const group of productgroups) console.log(group.reference);
