// CommonJS on Node: require() gets each package's CommonJS build (the `require` condition of its exports).
// The same program can also import() the ESM build: two copies of the packages, one per format. What holds
// across them is asserted at the end (the root README, "Module formats").
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
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
for (const entry of [
  '@partner-print/client',
  '@partner-print/client/lite',
  '@partner-print/client/redis',
  '@partner-print/client/telemetry',
  '@partner-print/client/errors',
  '@partner-print/sandbox',
  '@partner-print/sandbox/node',
  '@partner-print/callback',
  '@partner-print/callback/node',
  '@partner-print/callback/redis',
  '@partner-print/migrate',
  '@partner-print/migrate/node',
  '@partner-print/openapi',
  '@partner-print/openapi/wire',
  '@partner-print/ratelimit',
  '@partner-print/ratelimit/redis',
  '@partner-print/render',
  '@partner-print/render/redis',
]) {
  assert.match(require.resolve(entry), /\/dist\/.+\.cjs$/, entry);
  // Each entry as a program's first require, in a process of its own: the order of the CommonJS build's chunks
  // then depends on the entry, and a cycle between them shows (the requires above start with the client root).
  const alone = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(entry)})`], {
    encoding: 'utf8',
  });
  assert.equal(alone.status, 0, `${entry} required first:\n${alone.stderr}`);
}

(async () => {
  const { products } = await client.get('/products');
  assert.ok(products.length > 0);

  // Both formats in one program: an error of the CommonJS copy is an instance of the ESM copy's classes.
  const esm = await import('@partner-print/client');
  assert.notEqual(esm.createClient, createClient);
  const wrongKey = createClient({ ...sandboxOptions(sandbox), secretKey: 'not-the-key', retry: false });
  const error = await wrongKey.get('/products').catch((e) => e);
  assert.ok(error instanceof esm.AuthenticationError && error instanceof esm.PartnerPrintError);
  assert.ok(!(error instanceof esm.NotFoundError));
  // A client of one copy is taken by the other copy's standalone helpers and telemetryOf (a Symbol.for key on
  // the global object).
  const esmLite = await import('@partner-print/client/lite');
  const listed = [];
  for await (const product of esmLite.paginate(client, '/products')) listed.push(product);
  assert.deepEqual(listed, products);
  const esmTelemetry = await import('@partner-print/client/telemetry');
  const quiet = createClient({
    ...sandboxOptions(sandbox),
    secretKey: sandbox.keys.primary,
    telemetry: false,
  });
  assert.equal(esmTelemetry.telemetryOf(quiet), false);
  // Render's per-client state is shared (a Symbol.for key on the global object): both copies' renderMockup
  // on one client pay for one render.
  const esmRender = await import('@partner-print/render');
  let renders = 0;
  const counting = createClient({
    ...sandboxOptions(sandbox),
    secretKey: sandbox.keys.primary,
    fetch: (request) => {
      if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/renders')) renders++;
      return sandbox.fetch(request);
    },
  });
  const png =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  const composition = {
    sceneReference: sandbox.seed.scenes.studio,
    productReference: sandbox.seed.products.print,
    perspectiveReference: sandbox.seed.perspectives.studioFront,
    image: await counting.uploadImage(Buffer.from(png, 'base64')),
    clock: sandbox.clock,
  };
  await Promise.all([renderMockup(counting, composition), esmRender.renderMockup(counting, composition)]);
  assert.equal(renders, 1);
  console.log('cjs-require: ok');
})().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});

function sandboxOptions(s) {
  return { baseUrl: s.baseUrl, fetch: (request) => s.fetch(request), clock: s.clock };
}
