// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// #endregion

const { claimcategories } = await client.get('/claimcategories');
for (const category of claimcategories) {
  console.log(category.reference, category.name, category.evidenceRequired ? '(evidence required)' : '');
}
