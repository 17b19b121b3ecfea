// Phone-case previews for the shop's design tool, the artwork upload, and the sample order with the shop's logo.
const V1 = 'https://api.partner-print.example/v1';
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
  const res = await fetch(`${V1}/images`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ image: base64 }) });
  const uploaded = await res.json();
  return uploaded.reference;
}

/** The logo, uploaded once for the shop's templates. */
export async function uploadLogo(): Promise<string> {
  const res = await fetch(`${V1}/images`, {
    method: 'POST',
    headers: HEADERS,
    // The design tool's export is a data URL.
    body: JSON.stringify({ image: LOGO }),
  });
  return (await res.json()).reference;
}

/** A preview of the logo on a phone case. */
export async function preview(sku: string) {
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
  const res = await fetch(`${V1}/render`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ composition_reference: compositionReference, image_reference: imageReference }),
  });
  return res.json();
}

/** A new store's sample: a preview first, then the order, the logo on both lines. */
export async function sampleWithPreview(storeId: string): Promise<string> {
  const shown = await fetch(`${V1}/render`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ scene_reference: STUDIO, perspective_reference: FRONT, sku: 'CASE-IP15-CLR', image: LOGO }),
  });
  await shown.json();
  const res = await fetch(`${V1}/orders`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      store_code: 'ACME1',
      shipping_kind: 'combined',
      partner_reference: `sample-${storeId}`, // one sample per store
      orderlines: [
        { sku: 'CASE-IP15-CLR', quantity: 1, image: LOGO },
        { sku: 'CASE-IP15-CLRP001', quantity: 2, image: LOGO },
      ],
    }),
  });
  const order = await res.json();
  return order.reference;
}
