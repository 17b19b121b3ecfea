// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// One of your claims, e.g. the one "Create a package-missing claim" filed.
const claimReference = process.env.CLAIM_REFERENCE as `Claim_${string}`;
// #endregion

const { claim } = await client.get('/claims/{claimReference}', {
  params: { path: { claimReference } },
});
console.log(claim.status); // pending, resolved, rejected or retracted
if (claim.decision) console.log('decided', claim.decision.decided, claim.decision.comment);
