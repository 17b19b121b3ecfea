// Callback handlers reading the query with a fallback written out, on a request that types another object with an
// order_reference key too (the body a proxy forwards): only the query's type gets order_reference_v2.
import type { Request, Response } from 'express';

import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

export async function forwarded(
  req: Request<Record<string, string>, unknown, { order_reference: string; note: string }, { order_reference?: string; order_reference_v2?: string }>,
  res: Response,
) {
  const ref = req.query.order_reference_v2 || 'unknown';
  const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(ref) } } })).order;
  res.json({ reference: order.reference, note: req.body.note, forwarded: req.body.order_reference });
}

export async function defaulted(req: { query: { order_reference?: string; order_reference_v2?: string }; body: { order_reference: string } }) {
  const { order_reference_v2: code = '' } = req.query;
  const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(code) } } })).order;
  return [order.reference as string, req.body.order_reference];
}
