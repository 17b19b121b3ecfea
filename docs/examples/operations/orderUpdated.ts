// #region setup
import { buildCallbackUrl, createOrderUpdatedHandler, type Order } from '@partner-print/callback';
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// Your own store of orders (a database table in production).
const orders = new Map<string, Order>();
// #endregion

// The endpoint behind the store's "API Callback URL": a
// web-standard (Request) => Promise<Response>, also usable
// as a Workers-style `{ fetch }` module.
const handle = createOrderUpdatedHandler({
  client,
  environment: 'test', // the other environment gets a 4xx, no fetch
  async onOrderUpdated(order) {
    // `order` is the current order, fetched by
    // `order_reference_v2`: the notification only says that
    // it changed. Store it idempotently; the same order can
    // be notified several times.
    orders.set(order.reference, order);
  },
});
export default { fetch: handle };

// Try it: the notification the service sends for one of
// your orders (ORDER_REFERENCE) of the store STORE_CODE.
const storeCode = process.env.STORE_CODE ?? '';
const url = buildCallbackUrl('https://shop.example/partner-print/callback?token=abc', {
  environment: 'test',
  orderReference: `${storeCode}-1`,
  orderReferenceV2: process.env.ORDER_REFERENCE ?? '',
  storeCode,
});
const response = await handle(new Request(url));
console.log(response.status, [...orders.keys()]);
