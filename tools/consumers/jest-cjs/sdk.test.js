// A default Jest project: CommonJS test file, no transform, no ESM flags. Jest's module loader does not use
// Node's require(esm), so this requires the packages' CommonJS build.
const { createClient, NetworkError, PartnerPrintError, TimeoutError } = require('@partner-print/client');
const lite = require('@partner-print/client/lite');
const { createSandbox } = require('@partner-print/sandbox');

test('every entry point requires', () => {
  const entries = {
    '@partner-print/client': createClient,
    '@partner-print/client/lite': lite.createClient,
    '@partner-print/client/redis': require('@partner-print/client/redis').RedisOrderClaims,
    '@partner-print/client/telemetry': require('@partner-print/client/telemetry').telemetryScope,
    '@partner-print/client/errors': require('@partner-print/client/errors').isPartnerPrintError,
    '@partner-print/sandbox': createSandbox,
    '@partner-print/sandbox/node': require('@partner-print/sandbox/node').startSandboxServer,
    '@partner-print/callback': require('@partner-print/callback').parseOrderUpdatedCallback,
    '@partner-print/callback/node': require('@partner-print/callback/node').toNodeListener,
    '@partner-print/callback/redis': require('@partner-print/callback/redis').createRedisCoalescer,
    '@partner-print/migrate': require('@partner-print/migrate').convertV1Order,
    '@partner-print/migrate/node': require('@partner-print/migrate/node').runCli,
    '@partner-print/ratelimit': require('@partner-print/ratelimit').createScheduler,
    '@partner-print/ratelimit/redis': require('@partner-print/ratelimit/redis').RedisStore,
    '@partner-print/render': require('@partner-print/render').renderMockup,
    '@partner-print/render/redis': require('@partner-print/render/redis').RedisRenderStore,
  };
  for (const [entry, fn] of Object.entries(entries)) expect([entry, typeof fn]).toEqual([entry, 'function']);
  expect(require('@partner-print/openapi').OPERATIONS.createOrder).toBeDefined();
  expect(require('@partner-print/openapi/wire')).toBeDefined();
  // The errors entry holds the main entry's own classes, not copies.
  expect(require('@partner-print/client/errors').NetworkError).toBe(NetworkError);
});

describe('the client against the in-process sandbox', () => {
  let sandbox;
  beforeEach(() => {
    sandbox = createSandbox();
  });
  afterEach(() => {
    jest.useRealTimers();
    sandbox.close();
  });
  const clientOf = (options = {}) =>
    createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      fetch: (request) => sandbox.fetch(request),
      ...options,
    });

  test('GET, createOrder and the lite client', async () => {
    const client = clientOf({ clock: sandbox.clock });
    const { products } = await client.get('/products');
    expect(products.length).toBeGreaterThan(0);
    const { order } = await client.createOrder({
      storeReference: sandbox.seed.stores.combined,
      shippingKind: 'combined',
      customIdentifier: 'jest-order-1',
      orderlines: [{ productReference: sandbox.seed.products.nonPrint, quantity: 1 }],
    });
    const listed = [];
    for await (const o of client.paginate('/orders')) listed.push(o.reference);
    expect(listed).toContain(order.reference);
    const small = lite.createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      fetch: sandbox.fetch,
    });
    expect((await lite.collect(small, '/products', undefined, { max: 1 })).length).toBe(1);
  });

  // The client README ("Tests on fake timers"): Jest's fake timers, nextTick and queueMicrotask left real.
  test("a 503's backoff waits on Jest's fake timers", async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    sandbox.control.injectFault({ path: '/products', method: 'GET', kind: 'status', status: 503, count: 1 });
    const retries = [];
    const client = clientOf({ retry: { baseDelayMs: 1000 }, hooks: { retry: (e) => retries.push(e) } });
    let settled = false;
    const call = client.get('/products').finally(() => {
      settled = true;
    });
    await jest.advanceTimersByTimeAsync(0);
    expect(retries.map((e) => e.status)).toEqual([503]);
    const { delayMs } = retries[0];
    expect(delayMs).toBeGreaterThanOrEqual(0);
    expect(delayMs).toBeLessThan(1000);
    if (delayMs >= 1) {
      await jest.advanceTimersByTimeAsync(delayMs - 1);
      expect(settled).toBe(false);
    }
    await jest.advanceTimersByTimeAsync(1);
    const { products } = await call;
    expect(products.length).toBeGreaterThan(0);
  });

  test("timeoutMs ends a hanging call on Jest's fake timers", async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    const hanging = (request) =>
      new Promise((_, reject) =>
        request.signal.addEventListener('abort', () => reject(request.signal.reason)),
      );
    const client = clientOf({ fetch: hanging, retry: false, timeoutMs: 30_000 });
    let error;
    const call = client.get('/products').catch((e) => {
      error = e;
    });
    await jest.advanceTimersByTimeAsync(29_999);
    expect(error).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    await call;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(PartnerPrintError);
    expect(error).not.toBeInstanceOf(NetworkError);
  });
});
