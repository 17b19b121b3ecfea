// The packages are ESM only. Node >= 20.19 (and >= 22.12) can require() an ES module graph without
// top-level await, so CommonJS code can use them synchronously.
const assert = require('node:assert/strict');
const { createClient } = require('@partner-print/client');
const lite = require('@partner-print/client/lite');
const { createSandbox } = require('@partner-print/sandbox');
const { startSandboxServer } = require('@partner-print/sandbox/node');
const { parseOrderUpdatedCallback } = require('@partner-print/callback');
const { toNodeListener } = require('@partner-print/callback/node');
const { convertV1Order } = require('@partner-print/migrate');
const { runCli } = require('@partner-print/migrate/node');
const { OPERATIONS } = require('@partner-print/openapi');
const { createScheduler } = require('@partner-print/ratelimit');
const { RedisStore } = require('@partner-print/ratelimit/redis');
const { renderMockup } = require('@partner-print/render');

for (const fn of [
  createClient,
  lite.createClient,
  lite.paginate,
  createSandbox,
  startSandboxServer,
  parseOrderUpdatedCallback,
  toNodeListener,
  convertV1Order,
  runCli,
  createScheduler,
  RedisStore,
  renderMockup,
]) {
  assert.equal(typeof fn, 'function');
}
assert.ok(OPERATIONS.createOrder);

const sandbox = createSandbox();
const client = createClient({
  secretKey: sandbox.keys.primary,
  baseUrl: sandbox.baseUrl,
  fetch: (request) => sandbox.fetch(request),
  clock: sandbox.clock,
});
client.get('/products').then(({ products }) => {
  assert.ok(products.length > 0);
  console.log('cjs-require: ok');
});
