'use strict';
const { createClient } = require('@partner-print/client');
const { createV1Adapter } = require('@partner-print/migrate');

// The nightly job's settings (Partner Print credentials among them) are in the .env file next to it.
require('dotenv').config();

const partnerPrint = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: 'https://api.partner-print.example/v2' });
const partnerPrintV1 = createV1Adapter(partnerPrint, { stores: { 'ACME1': 'Store_tGE0NHjohySteoIVhpOEDzxjkU' } });

/** @param {Record<string, unknown>} order */
async function submit(order) {
  const res = (await partnerPrint.createOrder(await partnerPrintV1.toV2Order(order))).order;
  return (res).reference;
}

module.exports = { submit };
