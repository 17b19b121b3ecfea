import ky from 'ky';

const api = ky.create({
  prefixUrl: 'https://api.partner-print.example/v1',
  headers: { 'X-Store-Code': 'ACME1', 'X-Partner-Key': process.env.PP_PARTNER_KEY ?? '' },
});

export async function orderNow(reference: string, sku: string) {
  const created = await api
    .post('orders', { json: { store_code: 'ACME1', shipping_kind: 'combined', partner_reference: reference, orderlines: [{ sku, quantity: 1 }] } })
    .json<{ reference: string }>();
  return created.reference;
}

export async function statusOf(reference: string) {
  const order = await api.get(`orders/${reference}`).json<{ status: string }>();
  return order.status;
}
