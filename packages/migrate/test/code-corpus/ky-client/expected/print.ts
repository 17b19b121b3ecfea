import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

export async function orderNow(reference: string, sku: string) {
  const created = (await partnerPrint.createOrder({ storeReference: 'Store_tGE0NHjohySteoIVhpOEDzxjkU', shippingKind: 'combined', customIdentifier: reference, orderlines: [{ productReference: await partnerPrintV1.productReference(sku), quantity: 1 }] })).order;
  return created.reference;
}

export async function statusOf(reference: string) {
  const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(reference) } } })).order;
  // TODO(partner-print v2): reads `status`: in V2 an order's status is an object whose fields the reference does not show; V1 status values do not carry over. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  return order.status;
}
