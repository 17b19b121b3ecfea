// app/api/partner-print/callback/route.ts (Next.js App Router)
import { type NextRequest, NextResponse } from 'next/server';

import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

export async function GET(req: NextRequest) {
  const ref = req.nextUrl.searchParams.get('order_reference_v2');
  if (!ref) return NextResponse.json({ error: 'order_reference missing' }, { status: 400 });
  const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(ref) } } })).order;
  // TODO(partner-print v2): reads `status`: in V2 an order's status is an object whose fields the reference does not show; V1 status values do not carry over. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  return NextResponse.json({ status: order.status });
}
