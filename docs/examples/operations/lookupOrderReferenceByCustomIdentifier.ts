// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// The customIdentifier you gave the order (your shop's order number).
const customIdentifier = process.env.CUSTOM_IDENTIFIER ?? 'shop-order-10042';
// #endregion

const { orderReference } = await client.get('/utilities/lookup-order-reference-by-custom-identifier', {
  params: { query: { customIdentifier } },
});
console.log(customIdentifier, '→', orderReference);
// or: await client.lookupOrderReference(customIdentifier),
// which resolves to null when absent
