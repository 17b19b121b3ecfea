import { inspect } from 'node:util';
import { OPERATIONS } from '@partner-print/openapi';
import { createScheduler } from '@partner-print/ratelimit';
import { createSandbox, type SandboxOptions } from '@partner-print/sandbox';
import { describe, expect, it } from 'vitest';
import { createClient as createFullClient } from '../src/index.ts';
import {
  AmbiguousOutcomeError,
  type ClientEvent,
  collect,
  createClient,
  createOrder,
  type DropshipOrderRequest,
  download,
  type LiteClientOptions,
  lookupOrderReference,
  NotFoundError,
  paginate,
  uploadEvidence,
  uploadImage,
  ValidationError,
} from '../src/lite.ts';
import { ADDRESS, samplePng, sandboxClientOf, withSignal } from './helpers.ts';

const liteClient = (options: Partial<LiteClientOptions> = {}, sandboxOptions: SandboxOptions = {}) =>
  sandboxClientOf(createClient, options, sandboxOptions);

describe('@partner-print/client/lite', () => {
  it('is the same typed client, without helper methods and without a default scheduler', async () => {
    const { client, sandbox } = liteClient();
    expect(client.scheduler).toBeUndefined();
    for (const helper of ['paginate', 'collect', 'uploadImage', 'download', 'createOrder'])
      expect(helper in client).toBe(false);
    const { data, response } = await client.GET('/rendertokens');
    expect(response.status).toBe(200);
    expect(data?.rendertokens.limit).toBeGreaterThan(0);
    await expect(client.get('/products')).resolves.toHaveProperty('products');
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(sandbox.keys.primary);
  });

  it('uploads, creates and reconciles orders, pages and looks up with the standalone helpers', async () => {
    const { client, seed, sandbox } = liteClient({}, { pageSize: 2 });
    const png = samplePng(20, 10, 3);
    const image = await uploadImage(client, png);
    expect(image).toMatch(/^Image_/);
    await expect(uploadImage(client, new Blob([png]))).resolves.toBe(image);
    await expect(uploadEvidence(client, png)).resolves.toMatch(/^Evidence_/);
    await expect(uploadImage(client, new TextEncoder().encode('GIF89a'))).rejects.toBeInstanceOf(
      ValidationError,
    );

    const order = (customIdentifier: string): DropshipOrderRequest => ({
      storeReference: seed.stores.dropship,
      shippingKind: 'dropship',
      customIdentifier,
      dropshipAddress: ADDRESS,
      orderlines: [{ productReference: seed.products.print, imageReference: image, quantity: 1 }],
    });
    const first = await createOrder(client, order('lite-1'));
    // Stored, then the connection drops: reconciled through the lookup, exactly one order.
    sandbox.control.injectFault({ method: 'POST', path: '/v2/orders', kind: 'drop-after' });
    const second = await createOrder(client, order('lite-2'));
    await createOrder(client, order('lite-3'));
    await expect(lookupOrderReference(client, 'lite-2')).resolves.toBe(second.order.reference);
    await expect(lookupOrderReference(client, 'nobody')).resolves.toBeNull();

    const seen: string[] = [];
    for await (const o of paginate(client, '/orders')) seen.push(o.reference);
    expect(seen).toHaveLength(3);
    expect(seen).toContain(first.order.reference);
    await expect(collect(client, '/orders', undefined, { max: 2 })).resolves.toHaveLength(2);

    // Without a customIdentifier an ambiguous failure is not repeated.
    sandbox.control.injectFault({ method: 'POST', path: '/v2/orders', kind: 'drop-after' });
    const { customIdentifier: _, ...anonymous } = order('x');
    await expect(createOrder(client, anonymous)).rejects.toBeInstanceOf(AmbiguousOutcomeError);
  });

  it('downloads render media after 202 + Retry-After', async () => {
    const { client, seed, sandbox } = liteClient({}, { renderProcessingMs: 60_000 });
    const image = await uploadImage(client, samplePng());
    const { render } = await client.post('/renders', {
      body: { render: { compositionReference: seed.compositions.available, imageReference: image } },
    });
    const init = { params: { path: { renderReference: render.reference } } };
    await expect(
      download(client, '/renders/{renderReference}/media', init, { wait: false }),
    ).resolves.toEqual({
      pending: true,
      retryAfter: 60,
    });
    const started = sandbox.clock.now();
    const media = await download(client, '/renders/{renderReference}/media', init);
    expect([...media.data.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(sandbox.clock.now() - started).toBe(60_000);
  });

  it('names operations by METHOD /path without the table, by operationId with it', async () => {
    const bare = liteClient();
    const unknown = { params: { path: { orderReference: 'Order_00000000000000000000000000' } } } as const;
    const error = await bare.client.get('/orders/{orderReference}', unknown).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ operation: undefined, method: 'GET' });
    expect((error as Error).message).toMatch(/^GET \/orders\/Order_0+ failed with 404/);
    expect(bare.attempts[0]!.operation).toBeUndefined();

    const events: ClientEvent[] = [];
    const { client } = liteClient({ operations: OPERATIONS, hooks: { response: (e) => events.push(e) } });
    const again = await client.get('/orders/{orderReference}', unknown).catch((e: unknown) => e);
    expect(again).toMatchObject({ operation: 'getOrder' });
    expect((again as Error).message).toMatch(/^getOrder failed with 404/);
    expect(events[0]!.operation).toBe('getOrder');
  });

  it('uses a scheduler passed as rateLimit, beneath the retry layer', async () => {
    const sandbox = createSandbox({ jitter: 0, rateLimits: { default: { q: 4, w: 60 } } });
    const scheduler = createScheduler({
      fetch: (request: Request) => sandbox.fetch(request),
      clock: sandbox.clock,
    });
    const attempts: ClientEvent[] = [];
    const client = createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      clock: sandbox.clock,
      rateLimit: scheduler,
      hooks: { request: (e) => attempts.push(e) },
    });
    expect(client.scheduler).toBe(scheduler);
    const before = sandbox.clock.now();
    await Promise.all(Array.from({ length: 9 }, () => client.get('/rendertokens')));
    expect(attempts).toHaveLength(9); // no 429 had to be retried
    expect(sandbox.clock.now()).toBeGreaterThan(before); // the scheduler waited for tokens
    expect(scheduler.stats().policies.default).toMatchObject({ quota: 4 });
  });

  it('the standalone helpers take clients of either entry and refuse anything else', async () => {
    const sandbox = createSandbox({ jitter: 0 });
    const full = createFullClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      fetch: withSignal(sandbox),
      rateLimit: false,
    });
    await expect(uploadImage(full, samplePng())).resolves.toBe(await full.uploadImage(samplePng()));
    const stranger = { GET: () => {} } as unknown as Parameters<typeof uploadImage>[0];
    await expect(uploadImage(stranger, samplePng())).rejects.toThrow(TypeError);
    await expect(collect(stranger, '/orders')).rejects.toThrow('expected a client made by createClient');
  });
});
