import axios from 'axios';

// One axios instance for the V1 API, with the credentials as default headers.
const partnerPrint = axios.create({
  baseURL: 'https://api.partner-print.example/v1',
  headers: {
    'x-partner-code': process.env.PP_PARTNER_CODE,
    'x-api-key': process.env.PP_API_KEY,
  },
  timeout: 10_000,
});

export async function submitOrder(cart: { id: string; sku: string; qty: number }) {
  const payload = {
    store_code: 'ACME1',
    shipping_kind: 'combined',
    partner_reference: `cart-${cart.id}`,
    orderlines: [{ sku: cart.sku, quantity: cart.qty }],
  };
  const { data } = await partnerPrint.post('/orders', payload);
  return data.reference as string;
}

export async function fetchOrder(reference: string) {
  const response = await partnerPrint.get(`/orders/${reference}`);
  return { reference: response.data.reference as string, status: response.data.status };
}

export async function findByPartnerReference(partnerReference: string) {
  const { data: order } = await partnerPrint.get(`/orders?partner_reference=${encodeURIComponent(partnerReference)}`);
  return order.status;
}

export async function listStock() {
  const { data } = await partnerPrint.get('/stock');
  return data;
}
