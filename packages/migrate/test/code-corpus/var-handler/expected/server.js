// An older Express app written with `var` throughout: each name is declared once in its function and never
// reassigned, so it reads as a `const` would (the order look-up by the callback's reference is rewritten), except
// `ref`, reassigned when the query lacks it, whose read stays marked.
import express from 'express';

import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

// TODO(partner-print v2): the V1 base URL is still used by code this tool did not rewrite. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
var V1 = 'https://api.partner-print.example/v1';
// TODO(partner-print v2): a V1 credential header is still sent; V2 takes one secret key (X-Service-Secret-Key), which the V2 client sends. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
var auth = { 'X-Partner-Code': process.env.PP_PARTNER_CODE || '', 'X-Api-Key': process.env.PP_API_KEY || '' };

/**
 * @param {{ query: Record<string, string> }} req
 * @param {{ json(body: unknown): void }} res
 */
async function orderUpdated(req, res) {
  var code = req.query.order_reference_v2;
  var order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(code) } } })).order;
  res.json({ reference: order.reference });
}

/**
 * @param {{ query: Record<string, string> }} req
 * @param {{ json(body: unknown): void }} res
 */
async function orderChecked(req, res) {
  // TODO(partner-print v2): read order_reference_v2 (the Order_ reference V2 calls take: GET /orders/{orderReference}) where this value goes to a V2 call; order_reference stays the V1 order code (<store_code>-<number>), of V2 orders too, and this value is used otherwise (logged, stored, compared, passed on, sent to a V1 call): keep it where the V1 code is meant. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  var ref = req.query.order_reference;
  if (!ref) ref = req.query.partner_reference;
  // TODO(partner-print v2): V1 call left as it is: its identifier may be a V1 order code (<store_code>-<number>), and V2 has no look-up by V1 order code (the custom-identifier look-up would find another order): use the Order_ reference V2 gives (its POST /orders answer, the callback's order_reference_v2) and a mapping of V1 codes for older orders; a partner reference goes through v1.orderReferenceByPartnerReference. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  var response = await fetch(V1 + '/orders/' + ref, { headers: auth });
  var order = await response.json();
  res.json({ reference: order.order_reference });
}

var app = express();
app.get('/partner-print/order-updated', orderUpdated);
app.get('/partner-print/order-checked', orderChecked);
app.listen(3000);
