// Partner Print V1 integration: a thin fetch wrapper used by the shop's order pipeline.
const PARTNER_PRINT_URL = 'https://api.partner-print.example/v1';

const credentials = {
  'X-Partner-Code': process.env.PARTNER_PRINT_PARTNER_CODE ?? '',
  'X-API-Key': process.env.PARTNER_PRINT_API_KEY ?? '',
};

async function request(path: string, init: RequestInit = {}) {
  const res = await fetch(`${PARTNER_PRINT_URL}${path}`, {
    ...init,
    headers: { 'Content-Type': 'application/json', ...credentials, ...init.headers },
  });
  if (!res.ok) throw new Error(`Partner Print answered ${res.status} for ${path}`);
  return res.json();
}

export interface ShopOrder {
  id: string;
  lines: Array<{ sku: string; quantity: number }>;
}

/** Sends a paid shop order to print; returns the print order's reference. */
export async function sendToPrint(order: ShopOrder): Promise<string> {
  const created = await request('/orders', {
    method: 'POST',
    body: JSON.stringify({
      store_code: 'ACME1',
      shipping_kind: 'combined',
      partner_reference: order.id,
      orderlines: order.lines.map((l) => ({ sku: l.sku, quantity: l.quantity })),
    }),
  });
  return created.reference;
}

/** The print order's status, for the shop's order page. */
export async function printStatus(reference: string) {
  const order = await request(`/orders/${encodeURIComponent(reference)}`);
  return order.status;
}

/** Stock attributes for the product pages (no V2 equivalent). */
export async function stockAttributes() {
  return request('/stock-attributes');
}
