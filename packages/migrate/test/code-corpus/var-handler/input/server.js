// An older Express app written with `var` throughout: each name is declared once in its function and never
// reassigned, so it reads as a `const` would (the order look-up by the callback's reference is rewritten), except
// `ref`, reassigned when the query lacks it, whose read stays marked.
import express from 'express';

var V1 = 'https://api.partner-print.example/v1';
var auth = { 'X-Partner-Code': process.env.PP_PARTNER_CODE || '', 'X-Api-Key': process.env.PP_API_KEY || '' };

/**
 * @param {{ query: Record<string, string> }} req
 * @param {{ json(body: unknown): void }} res
 */
async function orderUpdated(req, res) {
  var code = req.query.order_reference;
  var response = await fetch(V1 + '/orders/' + code, { headers: auth });
  if (!response.ok) throw new Error('order lookup failed: ' + response.status);
  var order = await response.json();
  res.json({ reference: order.order_reference });
}

/**
 * @param {{ query: Record<string, string> }} req
 * @param {{ json(body: unknown): void }} res
 */
async function orderChecked(req, res) {
  var ref = req.query.order_reference;
  if (!ref) ref = req.query.partner_reference;
  var response = await fetch(V1 + '/orders/' + ref, { headers: auth });
  var order = await response.json();
  res.json({ reference: order.order_reference });
}

var app = express();
app.get('/partner-print/order-updated', orderUpdated);
app.get('/partner-print/order-checked', orderChecked);
app.listen(3000);
