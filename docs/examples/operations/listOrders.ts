// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// #endregion

// Newest first; paginate follows nextCursor until it is
// null.
for await (const order of client.paginate('/orders')) {
  console.log(order.reference, order.status);
}
