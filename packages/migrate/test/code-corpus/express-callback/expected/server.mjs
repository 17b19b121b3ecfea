import express from 'express';

// TODO(partner-print v2): the V1 base URL is still used by code this tool did not rewrite. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
const V1 = 'https://api.partner-print.example/v1';
// TODO(partner-print v2): a V1 credential header is still sent; V2 takes one secret key (X-Service-Secret-Key), which the V2 client sends. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
const auth = { 'X-Partner-Code': process.env.PP_PARTNER_CODE ?? '', 'X-Api-Key': process.env.PP_API_KEY ?? '' };

export const statuses = new Map();

/**
 * Partner Print calls this when an order changes; we store the new status.
 * @param {import('express').Request} req
 * @param {import('express').Response} res
 */
export async function orderUpdated(req, res) {
  // TODO(partner-print v2): read order_reference_v2 (the Order_ reference V2 calls take: GET /orders/{orderReference}) where this value goes to a V2 call; order_reference stays the V1 order code (<store_code>-<number>), of V2 orders too, and this value is used otherwise (logged, stored, compared, passed on, sent to a V1 call): keep it where the V1 code is meant. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  const reference = req.query.order_reference;
  // TODO(partner-print v2): V1 call left as it is: it reads `status` of the V1 order answer, a string such as 'shipped'; in V2 an order's status is an object whose fields the reference does not show, so a comparison, a switch, a string method or whatever it is passed to would get an object. V2 answers GET /orders/{orderReference} with { order }: reference for order_reference, status as an object (its fields not shown), and shipment references; move this code to those by hand. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  const response = await fetch(`${V1}/orders/${reference}`, { headers: auth });
  if (!response.ok) throw new Error(`order ${reference}: ${response.status}`);
  const order = await response.json();
  statuses.set(req.query.custom_reference, order.status);
  res.sendStatus(204);
}

const app = express();
app.get('/partner-print/order-updated', orderUpdated);
app.listen(3000);
