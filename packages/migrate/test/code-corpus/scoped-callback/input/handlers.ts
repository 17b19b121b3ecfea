// Callback handlers reading the query with a fallback written out, on a request that types another object with an
// order_reference key too (the body a proxy forwards): only the query's type gets order_reference_v2.
import type { Request, Response } from 'express';

const V1 = 'https://api.partner-print.example/v1';
const auth = { 'X-Partner-Code': process.env.PP_PARTNER_CODE ?? '', 'X-Api-Key': process.env.PP_API_KEY ?? '' };

export async function forwarded(
  req: Request<Record<string, string>, unknown, { order_reference: string; note: string }, { order_reference?: string }>,
  res: Response,
) {
  const ref = req.query.order_reference || 'unknown';
  const order = await (await fetch(`${V1}/orders/${ref}`, { headers: auth })).json();
  res.json({ reference: order.order_reference, note: req.body.note, forwarded: req.body.order_reference });
}

export async function defaulted(req: { query: { order_reference?: string }; body: { order_reference: string } }) {
  const { order_reference: code = '' } = req.query;
  const order = await (await fetch(`${V1}/orders/${code}`, { headers: auth })).json();
  return [order.order_reference as string, req.body.order_reference];
}
