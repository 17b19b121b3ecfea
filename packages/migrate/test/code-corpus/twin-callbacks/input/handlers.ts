// Two callback handlers of one file, each binding its own `code` to the callback's order_reference: one fetches the
// order by it, the other only logs it (the V1 code the support team searches by). Each is judged on its own uses.
import type { Request, Response } from 'express';

const V1 = 'https://api.partner-print.example/v1';
const auth = { 'X-Partner-Code': process.env.PP_PARTNER_CODE ?? '', 'X-Api-Key': process.env.PP_API_KEY ?? '' };

type Query = { order_reference: string };

export async function orderUpdated(req: Request<Record<string, string>, unknown, unknown, Query>, res: Response) {
  const code = req.query.order_reference;
  const order = await (await fetch(`${V1}/orders/${code}`, { headers: auth })).json();
  res.json({ reference: order.order_reference });
}

export function orderLogged(req: { query: { order_reference: string } }, res: Response) {
  const code = req.query.order_reference;
  console.log('order updated', code);
  res.sendStatus(204);
}
