// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// A pending claim of yours.
const claimReference = process.env.CLAIM_REFERENCE as `Claim_${string}`;
// #endregion

// Only while the claim is pending; permanent and
// irreversible. Answers 204 with no body.
await client.post('/claims/{claimReference}/retract', {
  params: { path: { claimReference } },
});
console.log(claimReference, 'retracted');
