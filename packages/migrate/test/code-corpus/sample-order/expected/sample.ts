// The sample order a new store gets when it signs up: fixed products, sent once per store. The tote was
// retired in 2024 (skus did not resolve it): it is still looked up where the code runs.
import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });
// The store's placeholder artwork (a 1×1 PNG) until it uploads its own.
const WELCOME_ARTWORK = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export async function sendSampleOrder(storeId: string): Promise<string> {
  const welcomeArtworkImage = await partnerPrint.uploadImage(Uint8Array.from(atob(WELCOME_ARTWORK), (c) => c.charCodeAt(0)));
  const order = (await partnerPrint.createOrder({ storeReference: 'Store_tGE0NHjohySteoIVhpOEDzxjkU', shippingKind: 'combined', customIdentifier: `sample-${storeId}`, orderlines: [{ productReference: 'Product_01HZX3M8Q6V2K9T4N7R5B1C0DE', quantity: 1, imageReference: welcomeArtworkImage }, { productReference: await partnerPrintV1.productReference('TOTE-NATURAL-OLD'), quantity: 2 }] })).order;
  return order.reference;
}
