import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

export async function sendToPrint(id: string, sku: string): Promise<string> {
  const order = (await partnerPrint.createOrder({ storeReference: 'Store_tGE0NHjohySteoIVhpOEDzxjkU', shippingKind: 'combined', customIdentifier: id, orderlines: [{ productReference: await partnerPrintV1.productReference(sku), quantity: 1 }] })).order;
  return order.reference;
}
