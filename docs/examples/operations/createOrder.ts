// #region setup
import { readFile } from 'node:fs/promises';
import { createClient } from '@partner-print/client';

const client = createClient({
  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',
  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',
});
// Your store, the print product and the design (JPEG or PNG) to print on it.
const storeReference = process.env.STORE_REFERENCE as `Store_${string}`;
const productReference = process.env.PRODUCT_REFERENCE as `Product_${string}`;
const imageReference = await client.uploadImage(await readFile('design.png'));
// Your shop's order number: the order's customIdentifier.
const shopOrderNumber = process.env.SHOP_ORDER_NUMBER ?? '10042';
// #endregion

// createOrder never creates a duplicate: after a timeout or
// dropped connection it finds the order by its
// customIdentifier instead of posting again.
const { order } = await client.createOrder({
  storeReference,
  shippingKind: 'dropship',
  customIdentifier: `shop-order-${shopOrderNumber}`,
  dropshipAddress: {
    firstname: 'Ada',
    lastname: 'Lovelace',
    streetname: 'Keizersgracht',
    housenumber: '1',
    zipcode: '1015 CJ',
    city: 'Amsterdam',
    countryCode: 'NL',
    email: 'ada@example.com',
  },
  orderlines: [{ productReference, imageReference, quantity: 2 }],
});
console.log(order.reference); // Order_…
