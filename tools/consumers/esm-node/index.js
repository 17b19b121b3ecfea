import assert from 'node:assert/strict';
import * as callback from '@partner-print/callback';
import { toNodeListener } from '@partner-print/callback/node';
import { AuthenticationError, createClient, PartnerPrintError } from '@partner-print/client';
import * as errors from '@partner-print/client/errors';
import * as lite from '@partner-print/client/lite';
import { convertV1Order, createSkuResolver } from '@partner-print/migrate';
import { createFileSkuCache, runCli } from '@partner-print/migrate/node';
import { OPERATIONS, REFERENCE_PREFIXES } from '@partner-print/openapi';
import { createScheduler, MemoryStore, parseRateLimitHeaders } from '@partner-print/ratelimit';
import { RedisStore } from '@partner-print/ratelimit/redis';
import { nextRendertokenReset, renderMockup } from '@partner-print/render';
import { createSandbox } from '@partner-print/sandbox';
import { startSandboxServer } from '@partner-print/sandbox/node';

for (const [name, value] of Object.entries({
  toNodeListener,
  createFileSkuCache,
  runCli,
  createScheduler,
  MemoryStore,
  RedisStore,
  renderMockup,
  createSandbox,
  convertV1Order,
  createSkuResolver,
  parse: callback.parseOrderUpdatedCallback,
})) {
  assert.equal(typeof value, 'function', `${name} is not a function`);
}
assert.ok(OPERATIONS.createOrder);
assert.ok(Object.keys(REFERENCE_PREFIXES).length > 0);
assert.ok(AuthenticationError.prototype instanceof PartnerPrintError);
// The errors entry holds the main entry's own classes, not copies.
assert.equal(errors.AuthenticationError, AuthenticationError);
assert.ok(nextRendertokenReset(new Date('2026-10-24T12:00:00Z')) instanceof Date);

// The Node server on 127.0.0.1 and the client over real HTTP.
const server = await startSandboxServer({ port: 0, host: '127.0.0.1' });
try {
  const client = createClient({ secretKey: server.sandbox.keys.primary, baseUrl: server.url });
  const { products } = await client.get('/products');
  assert.ok(products.length > 0);
  const small = lite.createClient({ secretKey: server.sandbox.keys.primary, baseUrl: server.url });
  assert.equal((await lite.collect(small, '/products', undefined, { max: 1 })).length, 1);
  const res = await fetch(`${server.url}/products`, {
    headers: { 'X-Service-Secret-Key': server.sandbox.keys.primary },
  });
  assert.ok(parseRateLimitHeaders(res.headers).policies.length > 0);
  await res.body?.cancel();
} finally {
  await server.close();
}
console.log('esm-node: ok');
