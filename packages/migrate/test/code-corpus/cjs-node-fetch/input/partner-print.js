'use strict';
const fetch = require('node-fetch');

const BASE_URL = process.env.PP_URL || 'https://api.partner-print.example/v1';
const HEADERS = {
  'Content-Type': 'application/json',
  'X-Partner-Code': process.env.PP_PARTNER_CODE,
  'X-API-Key': process.env.PP_API_KEY,
};

/** @param {Record<string, unknown>} order */
async function createOrder(order) {
  const res = await fetch(`${BASE_URL}/orders`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify(order),
  });
  if (!res.ok) {
    throw new Error(`V1 order failed: ${res.status}`);
  }
  const data = await res.json();
  return data.order_reference;
}

/** @param {string} ref */
async function getOrder(ref) {
  const data = await (await fetch(BASE_URL + '/orders/' + ref, { headers: HEADERS })).json();
  return { status: data.status, tracking: data.tracking_code };
}

module.exports = { createOrder, getOrder };
