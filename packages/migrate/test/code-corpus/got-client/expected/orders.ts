import got from 'got';

import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

// TODO(partner-print v2): the V1 base URL is still used by code this tool did not rewrite. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
const v1 = got.extend({
  prefixUrl: 'https://api.partner-print.example/v1',
  headers: { 'X-Partner-Code': process.env.PARTNER_CODE, 'X-Api-Key': process.env.API_KEY },
});

export async function placeOrder(id: string, sku: string, quantity: number): Promise<string> {
  const order = (await partnerPrint.createOrder({ storeReference: 'Store_tGE0NHjohySteoIVhpOEDzxjkU', shippingKind: 'combined', customIdentifier: id, orderlines: [{ productReference: await partnerPrintV1.productReference(sku), quantity: quantity }] })).order;
  return order.reference;
}

export async function orderState(reference: string) {
  // TODO(partner-print v2): V1 call left as it is: its identifier may be a V1 order code (<store_code>-<number>), and V2 has no look-up by V1 order code (the custom-identifier look-up would find another order): use the Order_ reference V2 gives (its POST /orders answer, the callback's order_reference_v2) and a mapping of V1 codes for older orders; a partner reference goes through v1.orderReferenceByPartnerReference. Besides, it reads `status` of the V1 order answer, a string such as 'shipped'; in V2 an order's status is an object whose fields the reference does not show, so a comparison, a switch, a string method or whatever it is passed to would get an object. V2 answers GET /orders/{orderReference} with { order }: reference for order_reference, status as an object (its fields not shown), and shipment references; move this code to those by hand. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  const order = await v1.get(`orders/${reference}`).json<{ status: string }>();
  return order.status;
}

export async function renderPreview(image: string) {
  // TODO(partner-print v2): V1 call left as it is: a V2 render needs a composition (a scene, a product and a perspective); the body does not name scene_reference or perspective_reference. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  return v1.post('render', { json: { image } }).json();
}
