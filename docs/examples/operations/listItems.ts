// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// #endregion

// Warehouse stock; only relevant when you store stock with
// the service.
const { items } = await client.get('/items');
for (const item of items) {
  console.log(item.sku, item.logicalQuantity, item.physicalQuantity);
}
