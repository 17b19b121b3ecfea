'use strict';
const { createClient } = require('@partner-print/client');
const { createV1Adapter } = require('@partner-print/migrate');

// TODO(partner-print v2): the V2 base URL is read from process.env.PP_URL, as the V1 one was: where it is set, it must now hold the V2 base URL (ending in /v2) of the same environment (production or test); with a /v1 URL left in it, createClient throws V1CredentialsError. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: process.env.PP_URL || 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

/** @param {Record<string, unknown>} order */
async function createOrder(order) {
  const data = (await partnerPrint.createOrder(await partnerPrintV1.toV2Order(order))).order;
  return data.reference;
}

/** @param {string} ref */
async function getOrder(ref) {
  const data = (await partnerPrint.get('/orders/{orderReference}', { params: { path: { orderReference: await partnerPrintV1.orderReference(ref) } } })).order;
  // TODO(partner-print v2): reads `status`: in V2 an order's status is an object whose fields the reference does not show; V1 status values do not carry over. — https://partner-print.github.io/sdk/#/guide-migrating-from-v1
  return { status: data.status, tracking: data.tracking_code };
}

module.exports = { createOrder, getOrder };
