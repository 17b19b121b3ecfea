import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

/** @param {Record<string, unknown>} order */
export async function createOrder(order) {
  const created = (await partnerPrint.createOrder(await partnerPrintV1.toV2Order(order))).order;
  return created.reference;
}
