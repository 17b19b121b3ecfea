// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// A V1 item SKU of yours.
const legacyItemSku = process.env.LEGACY_ITEM_SKU ?? '';
// #endregion

// Deprecated: removed in V3. Translate your SKUs once and
// store the references.
const { productReference } = await client.get('/utilities/lookup-product-by-legacy-sku', {
  params: { query: { legacyItemSku } },
});
console.log(legacyItemSku, '→', productReference);
