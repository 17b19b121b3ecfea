// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// #endregion

for await (const product of client.paginate('/products')) {
  console.log(product.reference, product.legacyItemSKU);
}
