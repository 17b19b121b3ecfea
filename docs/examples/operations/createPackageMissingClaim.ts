// #region setup
import { readFile } from 'node:fs/promises';
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// A shipment of yours at least 48 hours old, and a photo.
const shipmentReference = process.env.SHIPMENT_REFERENCE as `Shipment_${string}`;
const photo = await readFile('photo.png');
// #endregion

// The shipment must be at least 48 hours old, within the
// 100-day warranty, without claims, and its order must not
// have been replaced. 0 to 3 evidence references.
const evidenceReference = await client.uploadEvidence(photo);
const { claim } = await client.post('/claim-package-missing', {
  body: { claim: { shipmentReference, evidenceReferences: [evidenceReference] } },
});
console.log(claim.reference); // Claim_…, pending
