// app/api/partner-print/callback/route.ts (Next.js App Router)
import { type NextRequest, NextResponse } from 'next/server';

const PP_V1 = 'https://api.partner-print.example/v1';

export async function GET(req: NextRequest) {
  const ref = req.nextUrl.searchParams.get('order_reference');
  if (!ref) return NextResponse.json({ error: 'order_reference missing' }, { status: 400 });
  const res = await fetch(`${PP_V1}/orders/${ref}`, {
    headers: { 'X-Partner-Code': process.env.PP_PARTNER_CODE!, 'X-Api-Key': process.env.PP_API_KEY! },
  });
  const order = await res.json();
  return NextResponse.json({ status: order.status });
}
