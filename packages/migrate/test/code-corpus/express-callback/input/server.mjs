import express from 'express';

const V1 = 'https://api.partner-print.example/v1';
const auth = { 'X-Partner-Code': process.env.PP_PARTNER_CODE ?? '', 'X-Api-Key': process.env.PP_API_KEY ?? '' };

export const statuses = new Map();

/**
 * Partner Print calls this when an order changes; we store the new status.
 * @param {import('express').Request} req
 * @param {import('express').Response} res
 */
export async function orderUpdated(req, res) {
  const reference = req.query.order_reference;
  const response = await fetch(`${V1}/orders/${reference}`, { headers: auth });
  if (!response.ok) throw new Error(`order ${reference}: ${response.status}`);
  const order = await response.json();
  statuses.set(req.query.custom_reference, order.status);
  res.sendStatus(204);
}

const app = express();
app.get('/partner-print/order-updated', orderUpdated);
app.listen(3000);
