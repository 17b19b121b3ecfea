// The sample order a new store gets when it signs up: fixed products, sent once per store. The tote was
// retired in 2024 (skus did not resolve it): it is still looked up where the code runs.
const V1_API = 'https://api.partner-print.example/v1';
const WELCOME_MUG = 'MUG-11OZ-WHITE';
// The store's placeholder artwork (a 1×1 PNG) until it uploads its own.
const WELCOME_ARTWORK = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export async function sendSampleOrder(storeId: string): Promise<string> {
  const response = await fetch(`${V1_API}/orders`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Partner-Code': 'ACME', 'X-Api-Key': process.env.PP_API_KEY ?? '' },
    body: JSON.stringify({
      store_code: 'ACME1',
      shipping_kind: 'combined',
      partner_reference: `sample-${storeId}`,
      orderlines: [
        { sku: WELCOME_MUG, quantity: 1, image: WELCOME_ARTWORK },
        { sku: 'TOTE-NATURAL-OLD', quantity: 2 },
      ],
    }),
  });
  const order = await response.json();
  return order.reference;
}
