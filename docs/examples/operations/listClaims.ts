// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// #endregion

// Open claims plus claims closed in the last 14 days;
// `closedAfter` moves that window.
for await (const claim of client.paginate('/claims')) {
  console.log(claim.reference, claim.status, claim.orderReference);
}
