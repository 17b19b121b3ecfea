import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  type CombinedOrderRequest,
  GoneError,
  NotFoundError,
  RateLimitedError,
  RendertokenLimitError,
  V1CredentialsError,
  ValidationError,
} from '../src/index.ts';
import { ADDRESS, ref, samplePng, sandboxClient } from './helpers.ts';

const HOUR = 3_600_000;

describe('uploads against the sandbox', () => {
  it('uploads images and evidence as raw bytes; the same bytes give the same reference', async () => {
    const { client, sandbox } = sandboxClient();
    const png = samplePng(40, 30, 1);
    const image = await client.uploadImage(png);
    expect(image).toMatch(/^Image_[0-9A-Za-z]{26}$/);
    await expect(client.uploadImage(new Blob([png]))).resolves.toBe(image);
    await expect(client.uploadImage(new Blob([png]).stream())).resolves.toBe(image);
    expect(sandbox.control.upload(image)).toMatchObject({
      kind: 'image',
      format: 'png',
      width: 40,
      height: 30,
    });
    await expect(client.uploadEvidence(png.slice().buffer)).resolves.toMatch(/^Evidence_/);
  });

  it('refuses a non-image before any request is made', async () => {
    const { client, attempts } = sandboxClient();
    const gif = new TextEncoder().encode('GIF89a\x01\x00\x01\x00');
    await expect(client.uploadImage(gif)).rejects.toMatchObject({ code: 'unsupported_image_format' });
    expect(attempts).toHaveLength(0);
  });
});

describe('orders against the sandbox', () => {
  it('creates dropship and combined orders, reads and looks them up', async () => {
    const { client, seed } = sandboxClient();
    const image = await client.uploadImage(samplePng());
    const dropship = await client.createOrder({
      storeReference: seed.stores.dropship,
      shippingKind: 'dropship',
      customIdentifier: 'shop-1001',
      dropshipAddress: ADDRESS,
      orderlines: [{ productReference: seed.products.print, imageReference: image, quantity: 2 }],
    });
    expect(dropship.order.reference).toMatch(/^Order_/);
    const combined = await client.createOrder({
      storeReference: seed.stores.combined,
      shippingKind: 'combined',
      orderlines: [{ productReference: seed.products.nonPrint, quantity: 1 }],
    });
    expect(combined.order.reference).toMatch(/^Order_/);

    await expect(client.lookupOrderReference('shop-1001')).resolves.toBe(dropship.order.reference);
    await expect(client.lookupOrderReference('never-used')).resolves.toBeNull();
    const read = await client.get('/orders/{orderReference}', {
      params: { path: { orderReference: dropship.order.reference } },
    });
    expect(read.order.reference).toBe(dropship.order.reference);
  });

  it('reports missing_address and missing_image_reference as ValidationError', async () => {
    const { client, seed } = sandboxClient();
    const noAddress = await client
      .createOrder({
        storeReference: seed.stores.dropship,
        shippingKind: 'dropship',
        orderlines: [{ productReference: seed.products.nonPrint, quantity: 1 }],
      } as never)
      .catch((e: unknown) => e);
    expect(noAddress).toBeInstanceOf(ValidationError);
    expect(noAddress).toMatchObject({ code: 'missing_address', operation: 'createOrder', method: 'POST' });

    const noImage = await client
      .post('/orders', {
        body: {
          order: {
            storeReference: seed.stores.combined,
            shippingKind: 'combined',
            orderlines: [{ productReference: seed.products.print, quantity: 1 }],
          },
        },
      })
      .catch((e: unknown) => e);
    expect(noImage).toBeInstanceOf(ValidationError);
    expect(noImage).toMatchObject({ code: 'missing_image_reference' });
  });

  it('reconciles a dropped order creation through its customIdentifier, but never with another order', async () => {
    const { client, seed, sandbox } = sandboxClient();
    const order = (quantity: number, customIdentifier: string): CombinedOrderRequest => ({
      storeReference: seed.stores.combined,
      shippingKind: 'combined',
      customIdentifier,
      orderlines: [{ productReference: seed.products.nonPrint, quantity }],
    });
    // Stored, then the connection drops: the lookup finds it and the same order comes back.
    sandbox.control.injectFault({ method: 'POST', path: '/v2/orders', kind: 'drop-after' });
    const { order: created } = await client.createOrder(order(1, 'cart-42'));
    expect(await client.collect('/orders')).toHaveLength(1);
    // The identifier is used again for other content and the request is lost before it is stored:
    // the existing order is not passed off as the new one.
    sandbox.control.injectFault({ method: 'POST', path: '/v2/orders', kind: 'drop-before' });
    const error = await client.createOrder(order(5, 'cart-42')).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'IdentifierConflictError', code: 'identifier_conflict' });
    expect((error as Error).message).toContain(created.reference);
    expect(await client.collect('/orders')).toHaveLength(1);
  });

  it('pages through every order, including an empty last page, never reusing a cursor', async () => {
    const { client, seed, attempts } = sandboxClient({}, { pageSize: 3 });
    const created: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { order } = await client.createOrder({
        storeReference: seed.stores.combined,
        shippingKind: 'combined',
        customIdentifier: `page-${i}`,
        orderlines: [{ productReference: seed.products.nonPrint, quantity: 1 }],
      });
      created.push(order.reference);
    }
    attempts.length = 0;
    const seen: string[] = [];
    for await (const order of client.paginate('/orders')) seen.push(order.reference);
    expect(seen.sort()).toEqual([...created].sort());
    // 3 + 3 + an empty last page with nextCursor null
    const cursors = attempts.map((a) => new URL(a.url).searchParams.get('cursor'));
    expect(cursors).toHaveLength(3);
    expect(cursors[0]).toBeNull();
    expect(new Set(cursors).size).toBe(3);

    await expect(client.collect('/orders', undefined, { max: 4 })).resolves.toHaveLength(4);
  });
});

describe('claims against the sandbox', () => {
  async function shippedOrder() {
    const ctx = sandboxClient();
    const { client, seed, sandbox } = ctx;
    const image = await client.uploadImage(samplePng(16, 16, 7));
    const { order } = await client.createOrder({
      storeReference: seed.stores.combined,
      shippingKind: 'combined',
      customIdentifier: 'claim-me',
      orderlines: [{ productReference: seed.products.print, imageReference: image, quantity: 3 }],
    });
    const shipmentReference = ref('Shipment', sandbox.control.ship(order.reference).shipmentReference);
    await sandbox.control.advance(49 * HOUR);
    return { ...ctx, order: order.reference, shipment: shipmentReference };
  }

  it('files an item-issues claim with evidence, sees it decided; evidence_required without', async () => {
    const { client, seed, sandbox, order, shipment } = await shippedOrder();
    const categories = await client.collect('/claimcategories');
    expect(categories.find((c) => c.reference === seed.claimcategories.damaged)?.evidenceRequired).toBe(true);

    const claimline = {
      orderlineIndex: 0,
      quantity: 1,
      claimcategoryReference: seed.claimcategories.damaged,
    };
    const missing = await client
      .post('/claim-item-issues', {
        body: {
          claim: {
            shipmentReference: shipment,
            orderReference: order,
            claimlines: [{ ...claimline, evidenceReferences: [] }],
          },
        },
      })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ValidationError);
    expect(missing).toMatchObject({ code: 'evidence_required', operation: 'createItemIssuesClaim' });

    const evidence = await client.uploadEvidence(samplePng(20, 20, 9));
    const { claim } = await client.post('/claim-item-issues', {
      body: {
        claim: {
          shipmentReference: shipment,
          orderReference: order,
          comment: 'Cracked case',
          claimlines: [{ ...claimline, evidenceReferences: [evidence] }],
        },
      },
    });
    sandbox.control.decideClaim(claim.reference, { outcome: 'replacement', comment: 'Sorry!' });
    const detail = await client.get('/claims/{claimReference}', {
      params: { path: { claimReference: claim.reference } },
    });
    expect(detail.claim.status).toBe('resolved');
    expect(detail.claim.decision).not.toBeNull();
  });

  it('retracts a pending package-missing claim (204, no body)', async () => {
    const { client, shipment } = await shippedOrder();
    const { claim } = await client.post('/claim-package-missing', {
      body: { claim: { shipmentReference: shipment, evidenceReferences: [] } },
    });
    const retracted = await client.post('/claims/{claimReference}/retract', {
      params: { path: { claimReference: claim.reference } },
    });
    expect(retracted).toBeUndefined();
    const listed = await client.collect('/claims');
    expect(listed.find((c) => c.reference === claim.reference)?.status).toBe('retracted');
    // Retracting again is refused: no longer pending.
    await expect(
      client.post('/claims/{claimReference}/retract', {
        params: { path: { claimReference: claim.reference } },
      }),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('rendering against the sandbox', () => {
  it('404 and 410 from lookup-composition', async () => {
    const { client, seed } = sandboxClient();
    const ok = await client.get('/lookup-composition', {
      params: {
        query: {
          sceneReference: seed.scenes.studio,
          productReference: seed.products.print,
          perspectiveReference: seed.perspectives.studioFront,
        },
      },
    });
    expect(ok.composition.reference).toBe(seed.compositions.available);
    const gone = await client
      .get('/lookup-composition', {
        params: {
          query: {
            sceneReference: seed.scenes.lifestyle,
            productReference: seed.products.print,
            perspectiveReference: seed.perspectives.lifestyleWide,
          },
        },
      })
      .catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(GoneError);
    expect(gone).toMatchObject({ status: 410, operation: 'lookupComposition' });
    const missing = await client
      .get('/lookup-composition', {
        params: {
          query: {
            sceneReference: seed.scenes.lifestyle,
            productReference: seed.products.nonPrint,
            perspectiveReference: seed.perspectives.studioFront,
          },
        },
      })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
  });

  it('downloads render media after 202 + Retry-After, or reports it pending', async () => {
    const { client, seed, sandbox } = sandboxClient({}, { renderProcessingMs: 90_000 });
    const image = await client.uploadImage(samplePng());
    const { render } = await client.post('/renders', {
      body: { render: { compositionReference: seed.compositions.available, imageReference: image } },
    });
    const init = { params: { path: { renderReference: render.reference } } };
    const pending = await client.download('/renders/{renderReference}/media', init, { wait: false });
    expect(pending).toEqual({ pending: true, retryAfter: 90 });

    const started = sandbox.clock.now();
    const media = await client.download('/renders/{renderReference}/media', init);
    expect(media.contentType).toBe('image/png');
    expect([...media.data.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(sandbox.clock.now() - started).toBe(90_000); // waited in virtual time
    const thumb = await client.download('/renders/{renderReference}/thumbnail', init, { as: 'blob' });
    expect(thumb.data.size).toBeGreaterThan(0);
  });

  it('downloads product media as a stream', async () => {
    const { client, seed } = sandboxClient();
    const products = await client.collect('/products');
    const product = products.find((p) => p.reference === seed.products.print) as unknown as {
      media: Array<{ filename: string }>;
    };
    const filename = product.media[0]!.filename;
    const media = await client.download(
      '/products/{productReference}/media/{filename}',
      { params: { path: { productReference: seed.products.print, filename } } },
      { as: 'stream' },
    );
    const bytes = new Uint8Array(await new Response(media.data).arrayBuffer());
    expect(bytes[0]).toBe(0x89);
  });

  it('rendertoken_limit_exceeded: RendertokenLimitError with resetsAt, not retried', async () => {
    const { client, seed, sandbox, attempts } = sandboxClient();
    const image = await client.uploadImage(samplePng());
    sandbox.control.setRendertokenLimit(0);
    attempts.length = 0;
    const error = (await client
      .post('/renders', {
        body: { render: { compositionReference: seed.compositions.available, imageReference: image } },
      })
      .catch((e: unknown) => e)) as RendertokenLimitError;
    expect(error).toBeInstanceOf(RendertokenLimitError);
    expect(error.code).toBe('rendertoken_limit_exceeded');
    expect(error.resetsAt?.toISOString()).toBe('2026-11-22T23:00:00.000Z'); // Monday 00:00 Amsterdam
    expect(attempts).toHaveLength(1);
  });
});

describe('rate limits, authentication and V1 against the sandbox', () => {
  it('rate_limited: RateLimitedError with Retry-After and the rate-limit headers when retries are off', async () => {
    const { client } = sandboxClient(
      { retry: false, rateLimit: false },
      { rateLimits: { default: { q: 2, w: 60 } } },
    );
    await client.get('/rendertokens');
    await client.get('/rendertokens');
    const error = (await client.get('/rendertokens').catch((e: unknown) => e)) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.code).toBe('rate_limited');
    expect(error.retryAfter).toBeGreaterThan(0);
    expect(error.rateLimit?.policy).toContain('"default"');
    expect(error.rateLimit?.limit).toContain('r=0');
  });

  it('rate_limited: waits Retry-After (virtual time) and succeeds with retries on', async () => {
    const { client, sandbox, attempts } = sandboxClient(
      { rateLimit: false },
      { rateLimits: { default: { q: 2, w: 60 } } },
    );
    const before = sandbox.clock.now();
    for (let i = 0; i < 3; i++) await client.get('/rendertokens');
    expect(attempts).toHaveLength(4);
    expect(sandbox.clock.now() - before).toBeGreaterThanOrEqual(30_000);
  });

  it('the scheduler beneath the retry layer paces requests to the live policy by default', async () => {
    const { client, attempts, sandbox } = sandboxClient({}, { rateLimits: { default: { q: 5, w: 60 } } });
    expect(client.scheduler).toBeDefined();
    const before = sandbox.clock.now();
    const results = await Promise.all(Array.from({ length: 12 }, () => client.get('/rendertokens')));
    expect(results).toHaveLength(12);
    expect(attempts).toHaveLength(12); // no attempt had to be repeated by the retry layer
    expect(sandbox.clock.now()).toBeGreaterThan(before); // the scheduler waited (virtual time) for tokens
    expect(client.scheduler!.stats().policies.default).toMatchObject({ quota: 5, windowSeconds: 60 });
  });

  it('rateLimit: false leaves no scheduler', () => {
    expect(sandboxClient({ rateLimit: false }).client.scheduler).toBeUndefined();
  });

  it('401 with a wrong key: AuthenticationError that does not show the key', async () => {
    const { sandbox } = sandboxClient();
    const { client } = sandboxClient({ secretKey: 'sk_wrong_key_value_1234567890' });
    const error = (await client.get('/rendertokens').catch((e: unknown) => e)) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.status).toBe(401);
    expect(JSON.stringify(error)).not.toContain('sk_wrong_key_value_1234567890');
    expect(sandbox.keys.primary).not.toBe('sk_wrong_key_value_1234567890');
  });

  it('404 on an unknown order', async () => {
    const { client } = sandboxClient();
    await expect(
      client.get('/orders/{orderReference}', {
        params: { path: { orderReference: 'Order_00000000000000000000000000' } },
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('V1 credential headers fail before reaching the service', async () => {
    const { client, attempts } = sandboxClient();
    await expect(
      client.get('/orders', { headers: { 'X-Partner-Code': 'ACME', 'X-Api-Key': 'v1' } }),
    ).rejects.toBeInstanceOf(V1CredentialsError);
    expect(attempts).toHaveLength(0);
  });
});
