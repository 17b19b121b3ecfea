// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// A product with media, and the name of one of its files.
const productReference = process.env.PRODUCT_REFERENCE as `Product_${string}`;
const filename = process.env.MEDIA_FILENAME ?? '';
// #endregion

// Counts against the `downloads` rate-limit bucket as well
// as `default`.
const file = await client.download('/products/{productReference}/media/{filename}', {
  params: { path: { productReference, filename } },
});
console.log(file.contentType, file.data.byteLength); // data: Uint8Array (or { as: 'blob' | 'stream' })
