// Callback handlers whose query is typed: Express's Request<Params, ResBody, ReqBody, ReqQuery>, an object type
// written on the parameter, an interface of the file.
import type { Request, Response } from 'express';

import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

export async function orderUpdated(
  req: Request<Record<string, string>, unknown, unknown, { order_reference: string; order_reference_v2: string; custom_reference?: string }>,
  res: Response,
) {
  const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(req.query.order_reference_v2) } } })).order;
  res.json({ reference: order.reference, custom: req.query.custom_reference });
}

export async function onCallback(req: { query: { order_reference: string; order_reference_v2: string } }) {
  const code = req.query.order_reference_v2;
  const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(code) } } })).order;
  return order.reference as string;
}

interface CallbackQuery {
  order_reference?: string;
  order_reference_v2?: string;
}

export async function logged(req: { query: CallbackQuery }) {
  const { order_reference } = req.query;
  console.log('order updated', order_reference);
  const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(req.query.order_reference_v2) } } })).order;
  return order.reference as string;
}
