import assert from 'node:assert/strict';
import { test } from 'node:test';
import nock from 'nock';
import { createOrder } from './orders.mjs';

const V1 = 'https://api.partner-print.example/v1';

test('creates the order through V1', async () => {
  const scope = nock(V1)
    .matchHeader('x-partner-code', 'ACME')
    .post('/orders')
    .reply(201, { order_reference: 'ACME1-1001', status: 'received' });
  assert.equal(await createOrder({ store_code: 'ACME1', partner_reference: 'web-1' }), 'ACME1-1001');
  scope.done();
});
