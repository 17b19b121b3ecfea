import fetch from 'node-fetch';

const V1 = 'https://api.partner-print.example/v1';

/** @param {Record<string, unknown>} order */
export async function createOrder(order) {
  const res = await fetch(`${V1}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-partner-code': process.env.PP_PARTNER_CODE, 'x-api-key': process.env.PP_API_KEY },
    body: JSON.stringify(order),
  });
  if (!res.ok) throw new Error(`create failed with ${res.status}`);
  const created = await res.json();
  return created.order_reference;
}
