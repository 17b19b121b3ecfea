// Phone-case previews for the shop's design tool, the artwork upload, and the sample order with the shop's logo.
import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
import { renderMockup } from '@partner-print/render';
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });
// TODO(partner-print v2): the V1 base URL is still used by code this tool did not rewrite. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
const V1 = 'https://api.partner-print.example/v1';
// TODO(partner-print v2): a V1 credential header is still sent; V2 takes one secret key (X-Service-Secret-Key), which the V2 client sends. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
const HEADERS = {
  'Content-Type': 'application/json',
  'X-Partner-Code': 'ACME',
  'X-Api-Key': process.env.PP_API_KEY ?? '',
};
// The shop's logo as the design tool exports it (a data URL of a 1×1 PNG).
const LOGO = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
// The studio scene, seen from the front (from the render catalog).
const STUDIO = 'Scene_oUjnCIrT2eYIKAF93gaPIDCiGT';
const FRONT = 'Perspective_WcFNAmyAf6fP1maRj7klJIrbol';

/** The customer's artwork, base64 from the browser. */
export async function uploadArtwork(base64: string): Promise<string> {
  const uploaded = await partnerPrintV1.uploadImage(base64);
  return uploaded;
}

/** The logo, uploaded once for the shop's templates. */
export async function uploadLogo(): Promise<string> {
  // The design tool's export is a data URL.
  const res = await partnerPrint.uploadImage(Uint8Array.from(atob(LOGO.slice(22)), (c) => c.charCodeAt(0)));
  return res;
}

/** A preview of the logo on a phone case. */
export async function preview(sku: string) {
  // TODO(partner-print v2): V1 call left as it is: it uses the V1 render answer as a whole (returned, passed on, spread), whose shape the reference does not show; renderMockup gives { render (reference, status, …), media, thumbnail, placeholder, imageReference, tokensSpent }: move this code to those by hand. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  const res = await fetch(`${V1}/render`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      scene_reference: STUDIO,
      perspective_reference: FRONT,
      // The legacy SKU: V1 renders took the product by SKU.
      sku,
      image: LOGO, // the shop's logo until the customer uploads art
    }),
  });
  const render = await res.json();
  return render;
}

/** A preview by composition, as the old catalog page built it. */
export async function previewComposition(compositionReference: string, imageReference: string) {
  // TODO(partner-print v2): V1 call left as it is: it names a composition_reference: renderMockup finds the composition by scene, product and perspective, which a composition reference alone does not name. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  const res = await fetch(`${V1}/render`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ composition_reference: compositionReference, image_reference: imageReference }),
  });
  return res.json();
}

/** A new store's sample: a preview first, then the order, the logo on both lines. */
export async function sampleWithPreview(storeId: string): Promise<string> {
  const logoImage = await partnerPrint.uploadImage(Uint8Array.from(atob(LOGO.slice(22)), (c) => c.charCodeAt(0)));
  const shown = await renderMockup(partnerPrint, { sceneReference: STUDIO, productReference: await partnerPrintV1.productReference('CASE-IP15-CLR'), perspectiveReference: FRONT, image: logoImage });
  // one sample per store
  const order = (await partnerPrint.createOrder({ storeReference: 'Store_tGE0NHjohySteoIVhpOEDzxjkU', shippingKind: 'combined', customIdentifier: `sample-${storeId}`, orderlines: [{ productReference: await partnerPrintV1.productReference('CASE-IP15-CLR'), quantity: 1, imageReference: logoImage }, { productReference: await partnerPrintV1.productReference('CASE-IP15-CLRP001'), quantity: 2, imageReference: logoImage }] })).order;
  return order.reference;
}
