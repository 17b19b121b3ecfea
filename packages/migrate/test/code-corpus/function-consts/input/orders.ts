// Two functions, each with its own `url` and `headers` constants of the same names: the order creation is rewritten,
// the status look-up stays on V1 (a V1 order code, a status read). The rewritten function's constants go with its
// call; the other's stay, marked, as its call still sends them.
export async function createOrder(body: unknown) {
  const url = 'https://api.partner-print.example/v1';
  const headers = {
    'X-Partner-Code': process.env.PP_PARTNER_CODE ?? '',
    'X-Api-Key': process.env.PP_API_KEY ?? '',
    'Content-Type': 'application/json',
  };
  const res = await fetch(`${url}/orders`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`create failed: ${res.status}`);
  return (await res.json()).order_reference;
}

export async function orderStatus(ref: string) {
  const url = 'https://api.partner-print.example/v1';
  const headers = {
    'X-Partner-Code': process.env.PP_PARTNER_CODE ?? '',
    'X-Api-Key': process.env.PP_API_KEY ?? '',
  };
  const res = await fetch(`${url}/orders/${ref}`, { headers });
  if (!res.ok) throw new Error(`status failed: ${res.status}`);
  return (await res.json()).status;
}
