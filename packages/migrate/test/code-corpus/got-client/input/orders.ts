import got from 'got';

const v1 = got.extend({
  prefixUrl: 'https://api.partner-print.example/v1',
  headers: { 'X-Partner-Code': process.env.PARTNER_CODE, 'X-Api-Key': process.env.API_KEY },
});

export async function placeOrder(id: string, sku: string, quantity: number): Promise<string> {
  const order = await v1
    .post('orders', {
      json: { store_code: 'ACME1', shipping_kind: 'combined', partner_reference: id, orderlines: [{ sku, quantity }] },
    })
    .json<{ reference: string }>();
  return order.reference;
}

export async function orderState(reference: string) {
  const order = await v1.get(`orders/${reference}`).json<{ status: string }>();
  return order.status;
}

export async function renderPreview(image: string) {
  return v1.post('render', { json: { image } }).json();
}
