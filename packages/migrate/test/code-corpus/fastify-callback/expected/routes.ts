import type { FastifyInstance } from 'fastify';

import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

export default async function routes(app: FastifyInstance) {
  app.get('/callbacks/partner-print', async (request, reply) => {
    const { order_reference_v2: order_reference, custom_reference } = request.query as Record<string, string>;
    const data = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(order_reference) } } })).order;
    // TODO(partner-print v2): reads `status`: in V2 an order's status is an object whose fields the reference does not show; V1 status values do not carry over. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
    app.log.info({ custom_reference, status: data.status }, 'print order updated');
    return reply.code(204).send();
  });
}
