// Partner Print V1: the shop in production orders in production, every other build in the test environment.
import 'dotenv/config';

const PP_BASE =
  process.env.NODE_ENV === 'production'
    ? 'https://api.partner-print.example/v1'
    : 'https://api.test.partner-print.example/v1';

const headers = {
  'Content-Type': 'application/json',
  'X-Partner-Code': process.env.PP_PARTNER_CODE ?? '',
  'X-API-Key': process.env.PP_API_KEY ?? '',
};

/** Sends a paid shop order to print; returns the print order's reference. */
export async function placeOrder(order: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${PP_BASE}/orders`, { method: 'POST', headers, body: JSON.stringify(order) });
  if (!res.ok) throw new Error(`order failed: ${res.status}`);
  const data = await res.json();
  return data.order_reference;
}

/** The print order's status, for the shop's order page. */
export async function printStatus(reference: string) {
  const res = await fetch(`${PP_BASE}/orders/${reference}`, { headers });
  if (!res.ok) throw new Error(`status failed: ${res.status}`);
  const order = await res.json();
  return order.status;
}
