import axios from 'axios';

import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
const partnerPrint2 = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint2, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

// One axios instance for the V1 API, with the credentials as default headers.
// TODO(partner-print v2): the V1 base URL is still used by code this tool did not rewrite. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
const partnerPrint = axios.create({
  baseURL: 'https://api.partner-print.example/v1',
  headers: {
    'x-partner-code': process.env.PP_PARTNER_CODE,
    'x-api-key': process.env.PP_API_KEY,
  },
  timeout: 10_000,
});

export async function submitOrder(cart: { id: string; sku: string; qty: number }) {
  const data = (await partnerPrint2.createOrder({ storeReference: 'Store_tGE0NHjohySteoIVhpOEDzxjkU', shippingKind: 'combined', customIdentifier: `cart-${cart.id}`, orderlines: [{ productReference: await partnerPrintV1.productReference(cart.sku), quantity: cart.qty }] })).order;
  return data.reference as string;
}

export async function fetchOrder(reference: string) {
  // TODO(partner-print v2): V1 call left as it is: its identifier may be a V1 order code (<store_code>-<number>), and V2 has no look-up by V1 order code (the custom-identifier look-up would find another order): use the Order_ reference V2 gives (its POST /orders answer, the callback's order_reference_v2) and a mapping of V1 codes for older orders; a partner reference goes through v1.orderReferenceByPartnerReference. Besides, it reads `status` of the V1 order answer, a string such as 'shipped'; in V2 an order's status is an object whose fields the reference does not show, so a comparison, a switch, a string method or whatever it is passed to would get an object. V2 answers GET /orders/{orderReference} with { order }: reference for order_reference, status as an object (its fields not shown), and shipment references; move this code to those by hand. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  const response = await partnerPrint.get(`/orders/${reference}`);
  return { reference: response.data.reference as string, status: response.data.status };
}

export async function findByPartnerReference(partnerReference: string) {
  // TODO(partner-print v2): V1 call left as it is: it reads `status` of the V1 order answer, a string such as 'shipped'; in V2 an order's status is an object whose fields the reference does not show, so a comparison, a switch, a string method or whatever it is passed to would get an object. V2 answers GET /orders/{orderReference} with { order }: reference for order_reference, status as an object (its fields not shown), and shipment references; move this code to those by hand. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  const { data: order } = await partnerPrint.get(`/orders?partner_reference=${encodeURIComponent(partnerReference)}`);
  return order.status;
}

export async function listStock() {
  // TODO(partner-print v2): V1 call left as it is: it uses the V1 stock list as a whole (destructured, indexed, its length, returned or passed on), and V2 has no one list of that shape. V1 GET /stock maps to GET /products, GET /productgroups and GET /items (`client.collect(…)` of each): move this code to the list it needs by hand. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  const { data } = await partnerPrint.get('/stock');
  return data;
}
