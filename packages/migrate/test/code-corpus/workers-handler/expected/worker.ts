import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
// TODO(partner-print v2): the V1 API key was passed in where the calls ran (`env.PP_API_KEY`); this client reads one secret key, from process.env.PARTNER_PRINT_SECRET_KEY, when the module loads: every caller now shares that key (one per organization), and it must be set there (a Workers runtime has no process.env without nodejs_compat). — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });
export interface Env {
  PP_PARTNER_CODE: string;
  PP_API_KEY: string;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname !== '/partner-print/callback') return new Response('not found', { status: 404 });
    const reference = url.searchParams.get('order_reference_v2');
    const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(reference) } } })).order;
    // TODO(partner-print v2): reads `status`: in V2 an order's status is an object whose fields the reference does not show; V1 status values do not carry over. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
    return Response.json({ reference, status: order.status });
  },
};
