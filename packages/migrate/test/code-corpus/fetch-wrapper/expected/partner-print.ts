// Partner Print V1 integration: a thin fetch wrapper used by the shop's order pipeline.
import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });
// TODO(partner-print v2): the V1 base URL is still used by code this tool did not rewrite. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
const PARTNER_PRINT_URL = 'https://api.partner-print.example/v1';

// TODO(partner-print v2): a V1 credential header is still sent; V2 takes one secret key (X-Service-Secret-Key), which the V2 client sends. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
const credentials = {
  'X-Partner-Code': process.env.PARTNER_PRINT_PARTNER_CODE ?? '',
  'X-API-Key': process.env.PARTNER_PRINT_API_KEY ?? '',
};

async function request(path: string, init: RequestInit = {}) {
  // TODO(partner-print v2): a request wrapper on the V1 base URL; its calls with a known path are rewritten, the others are marked. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  const res = await fetch(`${PARTNER_PRINT_URL}${path}`, {
    ...init,
    headers: { 'Content-Type': 'application/json', ...credentials, ...init.headers },
  });
  if (!res.ok) throw new Error(`Partner Print answered ${res.status} for ${path}`);
  return res.json();
}

export interface ShopOrder {
  id: string;
  lines: Array<{ sku: string; quantity: number }>;
}

/** Sends a paid shop order to print; returns the print order's reference. */
export async function sendToPrint(order: ShopOrder): Promise<string> {
  const created = (await partnerPrint.createOrder(await partnerPrintV1.toV2Order({
    store_code: 'ACME1',
    shipping_kind: 'combined',
    partner_reference: order.id,
    orderlines: order.lines.map((l) => ({ sku: l.sku, quantity: l.quantity })),
  }))).order;
  return created.reference;
}

/** The print order's status, for the shop's order page. */
export async function printStatus(reference: string) {
  // TODO(partner-print v2): V1 call left as it is: its identifier may be a V1 order code (<store_code>-<number>), and V2 has no look-up by V1 order code (the custom-identifier look-up would find another order): use the Order_ reference V2 gives (its POST /orders answer, the callback's order_reference_v2) and a mapping of V1 codes for older orders; a partner reference goes through v1.orderReferenceByPartnerReference. Besides, it reads `status` of the V1 order answer, a string such as 'shipped'; in V2 an order's status is an object whose fields the reference does not show, so a comparison, a switch, a string method or whatever it is passed to would get an object. V2 answers GET /orders/{orderReference} with { order }: reference for order_reference, status as an object (its fields not shown), and shipment references; move this code to those by hand. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  const order = await request(`/orders/${encodeURIComponent(reference)}`);
  return order.status;
}

/** Stock attributes for the product pages (no V2 equivalent). */
export async function stockAttributes() {
  // TODO(partner-print v2): V1 call left as it is: V1 stock-attributes has no equivalent in V2. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  return request('/stock-attributes');
}
