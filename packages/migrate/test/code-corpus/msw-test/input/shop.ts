const V1_API = 'https://api.partner-print.example/v1';

export async function sendToPrint(id: string, sku: string): Promise<string> {
  const response = await fetch(`${V1_API}/orders`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Partner-Code': 'ACME', 'X-Api-Key': process.env.PP_API_KEY ?? '' },
    body: JSON.stringify({ store_code: 'ACME1', shipping_kind: 'combined', partner_reference: id, orderlines: [{ sku, quantity: 1 }] }),
  });
  const order = await response.json();
  return order.reference;
}
