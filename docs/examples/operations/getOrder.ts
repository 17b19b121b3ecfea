// #region setup
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// One of your orders, e.g. the one "Create an order" made.
const orderReference = process.env.ORDER_REFERENCE as `Order_${string}`;
// #endregion

const { order } = await client.get('/orders/{orderReference}', {
  params: { path: { orderReference } },
});
console.log(order.reference, order.status, order.shipments);
