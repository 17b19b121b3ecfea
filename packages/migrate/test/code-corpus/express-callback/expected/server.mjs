import express from 'express';

import { createClient } from '@partner-print/client';
import { createV1Adapter } from '@partner-print/migrate';
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

export const statuses = new Map();

/**
 * Partner Print calls this when an order changes; we store the new status.
 * @param {import('express').Request} req
 * @param {import('express').Response} res
 */
export async function orderUpdated(req, res) {
 const reference = req.query.order_reference_v2;
 const order = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(reference) } } })).order;
 // TODO(partner-print v2): reads `status`: in V2 an order's status is an object whose fields the reference does not show; V1 status values do not carry over. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
 statuses.set(req.query.custom_reference, order.status);
 res.sendStatus(204);
}

const app = express();
app.get('/partner-print/order-updated', orderUpdated);
app.listen(3000);
