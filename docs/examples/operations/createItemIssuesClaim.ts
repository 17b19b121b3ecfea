// #region setup
import { readFile } from 'node:fs/promises';
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// A shipped order of yours, its shipment, and a photo.
const orderReference = process.env.ORDER_REFERENCE as `Order_${string}`;
const shipmentReference = process.env.SHIPMENT_REFERENCE as `Shipment_${string}`;
const photo = await readFile('photo.png');
// #endregion

const { claimcategories } = await client.get('/claimcategories');
// "Package missing" is not valid for item issues; this
// category requires evidence.
const category = claimcategories.find((c) => c.evidenceRequired && !/package missing/i.test(c.name));
if (!category) throw new Error('no category that requires evidence');

const evidenceReference = await client.uploadEvidence(photo);
const { claim } = await client.post('/claim-item-issues', {
  body: {
    claim: {
      shipmentReference,
      orderReference,
      comment: 'The print on one case is smeared.', // at most 1000 characters
      claimlines: [
        {
          orderlineIndex: 0,
          quantity: 1, // not more than shipped, open claims included
          claimcategoryReference: category.reference,
          evidenceReferences: [evidenceReference], // 0 to 3; at least 1 here (evidence_required)
        },
      ],
    },
  },
});
console.log(claim.reference); // Claim_…, pending
