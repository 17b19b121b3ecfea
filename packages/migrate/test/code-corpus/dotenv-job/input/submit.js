'use strict';
const fetch = require('node-fetch');
// The nightly job's settings (Partner Print credentials among them) are in the .env file next to it.
require('dotenv').config();

const API = 'https://api.partner-print.example/v1';

/** @param {Record<string, unknown>} order */
async function submit(order) {
  const res = await fetch(`${API}/orders`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Partner-Code': process.env.PP_PARTNER_CODE,
      'X-API-Key': process.env.PP_API_KEY,
    },
    body: JSON.stringify(order),
  });
  if (!res.ok) throw new Error(`order failed: ${res.status}`);
  return (await res.json()).reference;
}

module.exports = { submit };
