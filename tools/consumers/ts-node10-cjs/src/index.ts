// TypeScript's node10 resolution (`module: commonjs` and no moduleResolution: NestJS's default tsconfig and many
// older services): it reads no `exports`, so a subpath entry's types come from the package's `typesVersions`
// and the root's from its top-level `types`. Every entry point of every package is imported and one value of
// each used; none may be `any` (a declaration that fails to resolve under skipLibCheck degrades to `any`).
// Then the emitted CommonJS runs on node, which resolves through `exports` to each package's CommonJS build,
// and the client does one GET against the in-process sandbox.
import assert = require('node:assert/strict');

import { parseOrderUpdatedCallback } from '@partner-print/callback';
import { toNodeListener } from '@partner-print/callback/node';
import { createRedisCoalescer } from '@partner-print/callback/redis';
import { createClient, type PartnerPrintClient } from '@partner-print/client';
import { NotFoundError } from '@partner-print/client/errors';
import { createClient as createLiteClient } from '@partner-print/client/lite';
import { RedisOrderClaims } from '@partner-print/client/redis';
import { telemetryOf } from '@partner-print/client/telemetry';
import { convertV1Order } from '@partner-print/migrate';
import { runCli } from '@partner-print/migrate/node';
import { OPERATIONS } from '@partner-print/openapi';
import { isReference } from '@partner-print/openapi/wire';
import { createScheduler } from '@partner-print/ratelimit';
import { RedisStore } from '@partner-print/ratelimit/redis';
import { renderMockup } from '@partner-print/render';
import { RedisRenderStore } from '@partner-print/render/redis';
import { createSandbox } from '@partner-print/sandbox';
import { startSandboxServer } from '@partner-print/sandbox/node';

// One value of every entry, each line an expected error: the value is no number, so TypeScript rejects it,
// unless its import did not resolve (or a declaration it needs did not, under skipLibCheck): then it is `any`,
// the directive unused, an error too. At run time the object holds the values themselves.
const values: Record<string, number> = {
  // @ts-expect-error: not a number
  '@partner-print/callback': parseOrderUpdatedCallback,
  // @ts-expect-error: not a number
  '@partner-print/callback/node': toNodeListener,
  // @ts-expect-error: not a number
  '@partner-print/callback/redis': createRedisCoalescer,
  // @ts-expect-error: not a number
  '@partner-print/client': createClient,
  // @ts-expect-error: not a number
  '@partner-print/client/errors': NotFoundError,
  // @ts-expect-error: not a number
  '@partner-print/client/lite': createLiteClient,
  // @ts-expect-error: not a number
  '@partner-print/client/redis': RedisOrderClaims,
  // @ts-expect-error: not a number
  '@partner-print/client/telemetry': telemetryOf,
  // @ts-expect-error: not a number
  '@partner-print/migrate': convertV1Order,
  // @ts-expect-error: not a number
  '@partner-print/migrate/node': runCli,
  // @ts-expect-error: not a number
  '@partner-print/openapi': OPERATIONS,
  // @ts-expect-error: not a number
  '@partner-print/openapi/wire': isReference,
  // @ts-expect-error: not a number
  '@partner-print/ratelimit': createScheduler,
  // @ts-expect-error: not a number
  '@partner-print/ratelimit/redis': RedisStore,
  // @ts-expect-error: not a number
  '@partner-print/render': renderMockup,
  // @ts-expect-error: not a number
  '@partner-print/render/redis': RedisRenderStore,
  // @ts-expect-error: not a number
  '@partner-print/sandbox': createSandbox,
  // @ts-expect-error: not a number
  '@partner-print/sandbox/node': startSandboxServer,
};

// A value the types know: the reference guard narrows, the operation table has createOrder.
const method: 'post' = OPERATIONS.createOrder.method;
const reference: unknown = 'Order_x';
if (isReference('Order', reference)) {
  const narrowed: `Order_${string}` = reference;
  void narrowed;
}

async function main(): Promise<void> {
  for (const [entry, value] of Object.entries(values as Record<string, unknown>)) {
    // node resolves through `exports`: the `require` condition, the CommonJS build.
    assert.match(require.resolve(entry), /\/dist\/.+\.cjs$/, entry);
    assert.ok(value, entry);
    if (entry !== '@partner-print/openapi') assert.equal(typeof value, 'function', entry);
  }
  assert.equal(method, 'post');
  const sandbox = createSandbox();
  const client: PartnerPrintClient = createClient({
    secretKey: sandbox.keys.primary,
    baseUrl: sandbox.baseUrl,
    fetch: (request) => sandbox.fetch(request),
    clock: sandbox.clock,
  });
  const { products } = await client.get('/products');
  const first: string | undefined = products[0]?.reference;
  assert.ok(first, 'a product');
  sandbox.close();
  console.log(`ts-node10-cjs: ok (${products.length} products)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
