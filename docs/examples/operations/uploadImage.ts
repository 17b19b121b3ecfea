// #region setup
import { readFile } from 'node:fs/promises';
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// The raw bytes of a JPEG or PNG file (Uint8Array,
// ArrayBuffer, Blob, ReadableStream or a Node.js stream).
const png = await readFile('design.png');
// #endregion

// The signature is checked before anything is sent.
const imageReference = await client.uploadImage(png);
console.log(imageReference); // Image_…, the same reference for the same bytes
