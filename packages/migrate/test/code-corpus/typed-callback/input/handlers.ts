// Callback handlers whose query is typed: Express's Request<Params, ResBody, ReqBody, ReqQuery>, an object type
// written on the parameter, an interface of the file.
import type { Request, Response } from 'express';

const V1 = 'https://api.partner-print.example/v1';
const auth = { 'X-Partner-Code': process.env.PP_PARTNER_CODE ?? '', 'X-Api-Key': process.env.PP_API_KEY ?? '' };

export async function orderUpdated(
  req: Request<Record<string, string>, unknown, unknown, { order_reference: string; custom_reference?: string }>,
  res: Response,
) {
  const order = await (await fetch(`${V1}/orders/${req.query.order_reference}`, { headers: auth })).json();
  res.json({ reference: order.order_reference, custom: req.query.custom_reference });
}

export async function onCallback(req: { query: { order_reference: string } }) {
  const code = req.query.order_reference;
  const order = await (await fetch(`${V1}/orders/${code}`, { headers: auth })).json();
  return order.order_reference as string;
}

interface CallbackQuery {
  order_reference?: string;
}

export async function logged(req: { query: CallbackQuery }) {
  const { order_reference } = req.query;
  console.log('order updated', order_reference);
  const order = await (await fetch(`${V1}/orders/${order_reference}`, { headers: auth })).json();
  return order.order_reference as string;
}
