import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
const partnerPrint2 = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint2, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

export async function submitOrder(cart: { id: string; sku: string; qty: number }) {
  const data = (await partnerPrint2.createOrder({ storeReference: 'Store_tGE0NHjohySteoIVhpOEDzxjkU', shippingKind: 'combined', customIdentifier: `cart-${cart.id}`, orderlines: [{ productReference: await partnerPrintV1.productReference(cart.sku), quantity: cart.qty }] })).order;
  return data.reference as string;
}

export async function fetchOrder(reference: string) {
  const response = (await partnerPrint2.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(reference) } } })).order;
  // TODO(partner-print v2): reads `status`: in V2 an order's status is an object whose fields the reference does not show; V1 status values do not carry over. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  return { reference: response.reference as string, status: response.status };
}

export async function findByPartnerReference(partnerReference: string) {
  const order = (await partnerPrint2.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(partnerReference) } } })).order;
  // TODO(partner-print v2): reads `status`: in V2 an order's status is an object whose fields the reference does not show; V1 status values do not carry over. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  return order.status;
}

export async function listStock() {
  const data = {
    products: await partnerPrint2.collect('/products'),
    productgroups: await partnerPrint2.collect('/productgroups'),
    items: await partnerPrint2.collect('/items')
  };
  // TODO(partner-print v2): uses the V1 stock list as a whole: V2 splits it into products, productgroups and warehouse items (here the three lists, { products, productgroups, items }), whose entries are not V1 stock entries. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  return data;
}
