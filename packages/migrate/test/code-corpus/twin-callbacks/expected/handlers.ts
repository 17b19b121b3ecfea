// Two callback handlers of one file, each binding its own `code` to the callback's order_reference: one fetches the
// order by it, the other only logs it (the V1 code the support team searches by). Each is judged on its own uses.
import type { Request, Response } from 'express';

import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

type Query = { order_reference: string; order_reference_v2: string };

export async function orderUpdated(req: Request<Record<string, string>, unknown, unknown, Query>, res: Response) {
  const code = req.query.order_reference_v2;
  const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(code) } } })).order;
  res.json({ reference: order.reference });
}

export function orderLogged(req: { query: { order_reference: string } }, res: Response) {
  // TODO(partner-print v2): read order_reference_v2 (the Order_ reference V2 calls take: GET /orders/{orderReference}) where this value goes to a V2 call; order_reference stays the V1 order code (<store_code>-<number>), of V2 orders too, and this value is used otherwise (logged, stored, compared, passed on, sent to a V1 call): keep it where the V1 code is meant. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  const code = req.query.order_reference;
  console.log('order updated', code);
  res.sendStatus(204);
}
