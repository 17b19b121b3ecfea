// Partner Print V1: the shop in production orders in production, every other build in the test environment.
import 'dotenv/config';

import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';

const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: process.env.NODE_ENV === 'production' ? 'https://api.partner-print.example/v2' : 'https://api.test.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

/** Sends a paid shop order to print; returns the print order's reference. */
export async function placeOrder(order: Record<string, unknown>): Promise<string> {
  const data = (await partnerPrint.createOrder(await partnerPrintV1.toV2Order(order))).order;
  return data.reference;
}

/** The print order's status, for the shop's order page. */
export async function printStatus(reference: string) {
  const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(reference) } } })).order;
  // TODO(partner-print v2): reads `status`: in V2 an order's status is an object whose fields the reference does not show; V1 status values do not carry over. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  return order.status;
}
