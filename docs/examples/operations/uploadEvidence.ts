// #region setup
import { readFile } from 'node:fs/promises';
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// A photo of the problem (JPEG or PNG).
const photo = await readFile('photo.png');
// #endregion

// Upload evidence right before filing the claim: unused
// evidence is deleted after 1 day.
const evidenceReference = await client.uploadEvidence(photo);
console.log(evidenceReference); // Evidence_…
