// @ts-check
// Callback handlers of a JavaScript app checked by its JSDoc types: Express's Request<…, ReqQuery> in a @param, a
// @typedef with @property tags, an object type over several lines, and a cast of the query.
const V1 = 'https://api.partner-print.example/v1';
const auth = { 'X-Partner-Code': process.env.PP_PARTNER_CODE ?? '', 'X-Api-Key': process.env.PP_API_KEY ?? '' };

/**
 * The order-updated callback.
 * @param {import('express').Request<Record<string, string>, unknown, unknown, { order_reference: string; custom_reference?: string }>} req
 * @param {import('express').Response} res
 */
export async function orderUpdated(req, res) {
  const order = await (await fetch(`${V1}/orders/${req.query.order_reference}`, { headers: auth })).json();
  res.json({ reference: order.order_reference, custom: req.query.custom_reference });
}

/**
 * @typedef {Object} CallbackQuery
 * @property {string} order_reference The V1 order code.
 * @property {string} [custom_reference]
 */

/** @param {{ query: CallbackQuery }} req */
export async function logged(req) {
  const { order_reference } = req.query;
  console.log('order updated', order_reference);
  const order = await (await fetch(`${V1}/orders/${order_reference}`, { headers: auth })).json();
  return order.order_reference;
}

/**
 * @param {{
 *   query: {
 *     order_reference?: string;
 *     shop: string;
 *   };
 * }} req
 */
export async function byShop(req) {
  const ref = req.query.order_reference ?? '';
  const order = await (await fetch(`${V1}/orders/${ref}`, { headers: auth })).json();
  return [req.query.shop, order.order_reference];
}

/** @param {{ query: unknown }} req */
export async function cast(req) {
  const code = /** @type {{ order_reference: string }} */ (req.query).order_reference;
  const order = await (await fetch(`${V1}/orders/${code}`, { headers: auth })).json();
  return order.order_reference;
}
