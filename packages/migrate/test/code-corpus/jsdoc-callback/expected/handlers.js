// @ts-check
// Callback handlers of a JavaScript app checked by its JSDoc types: Express's Request<…, ReqQuery> in a @param, a
// @typedef with @property tags, an object type over several lines, and a cast of the query.
import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

/**
 * The order-updated callback.
 * @param {import('express').Request<Record<string, string>, unknown, unknown, { order_reference: string; order_reference_v2: string; custom_reference?: string }>} req
 * @param {import('express').Response} res
 */
export async function orderUpdated(req, res) {
  const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(req.query.order_reference_v2) } } })).order;
  res.json({ reference: order.reference, custom: req.query.custom_reference });
}

/**
 * @typedef {Object} CallbackQuery
 * @property {string} order_reference The V1 order code.
 * @property {string} order_reference_v2
 * @property {string} [custom_reference]
 */

/** @param {{ query: CallbackQuery }} req */
export async function logged(req) {
  const { order_reference } = req.query;
  console.log('order updated', order_reference);
  const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(req.query.order_reference_v2) } } })).order;
  return order.reference;
}

/**
 * @param {{
 *   query: {
 *     order_reference?: string;
 *     order_reference_v2?: string;
 *     shop: string;
 *   };
 * }} req
 */
export async function byShop(req) {
  const ref = req.query.order_reference_v2 ?? '';
  const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(ref) } } })).order;
  return [req.query.shop, order.reference];
}

/** @param {{ query: unknown }} req */
export async function cast(req) {
  const code = /** @type {{ order_reference: string, order_reference_v2: string }} */ (req.query).order_reference_v2;
  const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(code) } } })).order;
  return order.reference;
}
