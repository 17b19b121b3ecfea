import { describe, expect, it } from 'vitest';
import {
  AmbiguousOrderError,
  AmbiguousOutcomeError,
  ConfigurationError,
  createClient,
  createOrder,
  IdentifierConflictError,
  lookupOrderReference,
  type OrderClaims,
  type OrderRequest,
  PartnerPrintError,
  sameOrderContent,
  ValidationError,
} from '../src/index.ts';
import { withSignal } from './helpers.ts';
import { orderSetup, storedIdentifiers } from './orders-faults.ts';

describe('createOrder is idempotent by customIdentifier', () => {
  it('a plain repeat returns the first order, marked not created, with one lookup and no POST', async () => {
    const { client, checker, order, stats } = orderSetup();
    const first = await createOrder(client, order('cart-1'));
    expect(first.created).toBe(true);
    expect(stats).toMatchObject({ posts: 1, lookups: 1 });
    const again = await createOrder(client, order('cart-1'));
    expect(again).toEqual({ order: first.order, created: false });
    // Another client (another run of the job): the lookup finds it and the content is compared.
    const rerun = await createOrder(checker, order('cart-1'));
    expect(rerun).toEqual({ order: first.order, created: false });
    expect(stats.posts).toBe(1);
    expect(await storedIdentifiers(checker)).toEqual(['cart-1']);
  });

  it('a repeat right after creation is answered from memory even while the lookup lags', async () => {
    const { client, checker, order, stats } = orderSetup({ lookupLagMs: 60_000 });
    await createOrder(client, order('lagging'));
    expect(await lookupOrderReference(client, 'lagging')).toBeNull(); // the lag is real
    await expect(createOrder(client, order('lagging'))).resolves.toMatchObject({ created: false });
    expect(stats.posts).toBe(1);
    expect(await storedIdentifiers(checker)).toHaveLength(1);
  });

  it('an identifier with other content is an IdentifierConflictError naming the order; nothing is posted', async () => {
    const { client, checker, order, stats } = orderSetup();
    const { order: first } = await createOrder(client, order('cart-2', 1));
    // The same client (from memory) and another one (the lookup and the content decide).
    for (const c of [client, checker]) {
      const error = await createOrder(c, order('cart-2', 5)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IdentifierConflictError);
      expect(error).toBeInstanceOf(PartnerPrintError);
      expect(error).toMatchObject({
        code: 'identifier_conflict',
        customIdentifier: 'cart-2',
        orderReference: first.reference,
      });
      expect((error as Error).message).toContain(first.reference);
    }
    expect(stats.posts).toBe(1);
    expect(await storedIdentifiers(checker)).toEqual(['cart-2']);
  });

  it('lookupFirst: false posts without looking up (the caller guarantees fresh identifiers)', async () => {
    const { client, order, stats } = orderSetup();
    await expect(createOrder(client, order('fresh-1'), { lookupFirst: false })).resolves.toMatchObject({
      created: true,
    });
    expect(stats).toMatchObject({ posts: 1, lookups: 0 });
  });

  it('concurrent calls with one identifier share one flight: 1 lookup, 1 POST, one created', async () => {
    const { client, checker, order, stats } = orderSetup();
    const results = await Promise.all(Array.from({ length: 16 }, () => createOrder(client, order('same'))));
    expect(new Set(results.map((r) => r.order.reference)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(stats).toMatchObject({ posts: 1, lookups: 1 });
    expect(await storedIdentifiers(checker)).toEqual(['same']);
  });

  it('a concurrent call with other content waits for the flight, then conflicts', async () => {
    const { client, order, stats } = orderSetup();
    const [a, b] = await Promise.allSettled([
      createOrder(client, order('race', 1)),
      createOrder(client, order('race', 2)),
    ]);
    expect(a).toMatchObject({ status: 'fulfilled', value: { created: true } });
    expect(b).toMatchObject({ status: 'rejected', reason: { name: 'IdentifierConflictError' } });
    expect(stats.posts).toBe(1);
  });

  it('passes a 4xx through unchanged: one POST, nothing created', async () => {
    const { client, order, stats } = orderSetup();
    const { orderlines: _, ...rest } = order('bad');
    // @ts-expect-error the spec requires an orderline; JavaScript callers can still send none
    const error = await createOrder(client, { ...rest, orderlines: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(stats.posts).toBe(1);
  });
});

describe('createOrder reconciles an unknown outcome over a settle window', () => {
  it('a commit that lands 20 s after the answer was dropped: found by the lookups, no second POST', async () => {
    const { client, checker, order, stats, sandbox } = orderSetup({
      plan: (_, n) => (n === 1 ? 'late-commit-drop' : undefined),
      commitAfterMs: 20_000,
    });
    const start = sandbox.clock.now();
    const result = await createOrder(client, order('slow'));
    expect(result.created).toBe(true);
    expect(stats.posts).toBe(1);
    expect(await storedIdentifiers(checker)).toEqual(['slow']);
    expect(sandbox.clock.now() - start).toBeGreaterThanOrEqual(20_000);
    expect(sandbox.clock.now() - start).toBeLessThan(30_000);
  });

  it('reproduces the duplicate with settleWindowMs: 0 (one "absent" trusted, as before)', async () => {
    const { client, checker, order, stats, advance } = orderSetup({
      plan: (_, n) => (n === 1 ? 'late-commit-drop' : undefined),
      commitAfterMs: 1_000,
    });
    await createOrder(client, order('dup'), { settleWindowMs: 0 });
    await advance(2_000); // the late commit lands
    expect(stats.posts).toBe(2);
    expect(await storedIdentifiers(checker)).toEqual(['dup', 'dup']);
  });

  it('posts again once the window shows nothing, and never while it is open', async () => {
    const { client, checker, order, stats, sandbox } = orderSetup({
      plan: (_, n) => (n === 1 ? 'drop-before' : undefined),
    });
    const start = sandbox.clock.now();
    const result = await createOrder(client, order('retry-me'), { settleWindowMs: 10_000 });
    expect(result.created).toBe(true);
    expect(stats.posts).toBe(2);
    expect(sandbox.clock.now() - start).toBeGreaterThanOrEqual(10_000);
    expect(await storedIdentifiers(checker)).toEqual(['retry-me']);
  });

  it('500 three times before the commit: the error says nothing was created, with the lookups it made', async () => {
    const { client, checker, order, stats } = orderSetup({ plan: () => 'status-500' });
    const error = await createOrder(client, order('five-hundred')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerPrintError);
    expect(error).not.toBeInstanceOf(AmbiguousOutcomeError);
    expect(error).toMatchObject({ status: 500 });
    const message = (error as Error).message;
    expect(message).toContain('nothing was created');
    expect(message).toMatch(/POST 1 \(\+0\.00 s\): unknown/);
    expect(message).toMatch(/POST 3 .*: unknown/);
    expect(message).toMatch(/\d+ lookups \(.*\): absent/);
    expect(stats.posts).toBe(3);
    expect(await storedIdentifiers(checker)).toEqual([]);
  });

  it.each<[object, number]>([
    [{ retry: false }, 1],
    [{ retry: { attempts: 2 } }, 2],
  ])("the call's own retry (%o) bounds its POSTs, not the client's", async (init, posts) => {
    const { client, checker, order, stats } = orderSetup({ plan: () => 'status-500' });
    const error = await createOrder(client, order(`budget-${posts}`), init).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 500 });
    expect((error as Error).message).toContain('nothing was created');
    expect(stats.posts).toBe(posts);
    expect(await storedIdentifiers(checker)).toEqual([]);
  });

  it.each<[string, object]>([
    ['settleWindowMs NaN (an unset setting read with Number())', { settleWindowMs: Number.NaN }],
    ['settleWindowMs negative', { settleWindowMs: -1 }],
    ['settleWindowMs a string', { settleWindowMs: '30000' }],
    ['an unknown option', { lookupfirst: false }],
    ['a timeoutMs that is NaN', { timeoutMs: Number.NaN }],
  ])('%s is a ConfigurationError before any request or claim', async (_, init) => {
    // Bounded for the failing case: the order is there after 20 requests.
    const { client, order, stats } = orderSetup({ plan: () => 'status-500' });
    let acquired = 0;
    const claims: OrderClaims = {
      acquire: async () => {
        acquired++;
        return {
          recorded: undefined,
          unsettled: false,
          beforePost: async () => stats.posts + stats.lookups < 20,
          release: async () => {},
        };
      },
    };
    const error = await createOrder(client, order('checked'), { ...init, claims } as never).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ code: 'invalid_option' });
    expect(stats).toMatchObject({ posts: 0, lookups: 0 });
    expect(acquired).toBe(0);
  });

  it('lookups that keep failing leave the outcome unknown: AmbiguousOrderError with attempts, lookups and the cause', async () => {
    const { client, order, stats } = orderSetup({ plan: () => 'drop-after', lookupFailsAfter: 1 });
    const error = await createOrder(client, order('unknown')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousOrderError);
    expect(error).toBeInstanceOf(AmbiguousOutcomeError);
    const message = (error as Error).message;
    expect(message).toContain('the outcome is unknown');
    expect(message).toMatch(/lookup \(\+0\.00 s\): absent; POST 1 \(\+0\.00 s\): unknown \(NetworkError/);
    expect(message).toMatch(/\d+ lookups \(.*\): failed \(PartnerPrintError: .*lookup down/);
    expect(message).toContain('Last cause: PartnerPrintError');
    expect((error as AmbiguousOrderError).history.filter((s) => s.kind === 'post')).toHaveLength(1);
    expect(stats.posts).toBe(1);
  });

  it('an abort during the settle window is an AmbiguousOrderError (the POST may still land)', async () => {
    const controller = new AbortController();
    const { client, order, stats } = orderSetup({
      plan: () => 'drop-before',
      onLookup: (n) => n === 3 && controller.abort(new Error('shutting down')),
    });
    const error = await createOrder(client, order('aborted'), { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AmbiguousOrderError);
    expect((error as Error).message).toContain('aborted before the outcome was known');
    expect(stats.posts).toBe(1);
  });

  it('an abort while the POST is in flight is an AmbiguousOrderError too', async () => {
    const controller = new AbortController();
    const { client, order } = orderSetup({
      plan: () => {
        controller.abort(new Error('shutting down'));
        return 'late-commit-hang';
      },
    });
    const error = await createOrder(client, order('aborted-post'), { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AmbiguousOrderError);
    expect((error as Error).message).toContain('aborted while its POST was in flight');
  });

  it('without a customIdentifier an unknown outcome is not repeated', async () => {
    const { client, order, stats } = orderSetup({ plan: () => 'drop-after' });
    const error = await createOrder(client, order()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousOutcomeError);
    expect((error as Error).message).toContain('customIdentifier');
    expect(stats.posts).toBe(1);
  });

  it('a claim store that withdraws the claim before the POST stops it: nothing posted', async () => {
    const { client, order, stats } = orderSetup();
    const claims: OrderClaims = {
      acquire: async () => ({
        recorded: undefined,
        unsettled: false,
        beforePost: async () => false,
        release: async () => {},
      }),
    };
    const error = await createOrder(client, order('no-claim'), { claims }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/nothing was created .*claim/);
    expect(stats.posts).toBe(0);
  });
});

describe('sameOrderContent', () => {
  const sent: OrderRequest = {
    storeReference: 'Store_a',
    shippingKind: 'dropship',
    customIdentifier: 'x',
    dropshipAddress: { firstname: 'Ada', countryCode: 'NL' },
    orderlines: [{ productReference: 'Product_p', imageReference: 'Image_i', quantity: 2 }],
  };
  it.each([
    ['the same payload', {}, true],
    ['fields the payload does not show', { storeReference: undefined, orderlines: undefined }, true],
    ['null for an unset field', { dropshipMinimalShippingLevel: null }, true],
    ['another store', { storeReference: 'Store_b' }, false],
    [
      'another quantity',
      { orderlines: [{ productReference: 'Product_p', imageReference: 'Image_i', quantity: 3 }] },
      false,
    ],
    [
      'another image',
      { orderlines: [{ productReference: 'Product_p', imageReference: 'Image_j', quantity: 2 }] },
      false,
    ],
    ['an extra orderline', { orderlines: [...sent.orderlines, ...sent.orderlines] }, false],
    ['another address', { dropshipAddress: { firstname: 'Bob', countryCode: 'NL' } }, false],
    ['another identifier', { customIdentifier: 'y' }, false],
  ])('%s', (_, change, same) => {
    const found: Record<string, unknown> = { reference: 'Order_1', ...sent, ...change };
    for (const [k, v] of Object.entries(change)) if (v === undefined) delete found[k];
    expect(sameOrderContent(sent, { reference: 'Order_1', status: {}, ...found })).toBe(same);
  });

  // The reference does not show the read payload, so not the order of its orderlines either: the lines read
  // back are matched to the lines sent whatever their order, each to a line of its own.
  describe('orderlines in another order', () => {
    const line = (product: string, image: string, quantity: number) => ({
      productReference: product as `Product_${string}`,
      imageReference: image as `Image_${string}`,
      quantity,
    });
    const p1 = line('Product_p', 'Image_i', 1);
    const q2 = line('Product_q', 'Image_j', 2);
    const p2 = line('Product_p', 'Image_j', 2);
    it.each([
      ['swapped', [p1, q2], [q2, p1], true],
      // The first line read shows only its product, so it fits either line sent: it must be matched to the
      // one the second line read does not take (the first that fits would leave the second without one).
      [
        'a line that shows fewer fields, matched to the line left',
        [p1, p2],
        [{ productReference: 'Product_p' }, p1],
        true,
      ],
      ['one line twice, another missing', [p1, q2], [p1, p1], false],
      ['swapped, one quantity changed', [p1, q2], [{ ...q2, quantity: 3 }, p1], false],
    ])('%s', (_, sentLines, foundLines, same) => {
      const order = { ...sent, orderlines: sentLines } as OrderRequest;
      expect(
        sameOrderContent(order, { reference: 'Order_1', status: {}, ...order, orderlines: foundLines }),
      ).toBe(same);
    });
  });
});

describe('an order read without its order object', () => {
  it('is a PartnerPrintError naming the request (unexpected_response), not a TypeError', async () => {
    const { sandbox, client, order } = orderSetup();
    const { order: created } = await createOrder(client, order('cart-read'));
    // Another client (no memory of the order) whose GET /orders/{orderReference} answers 200 {}.
    const send = withSignal(sandbox);
    const hollow = createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      clock: sandbox.clock,
      fetch: (request) =>
        request.method === 'GET' && new URL(request.url).pathname.endsWith(`/orders/${created.reference}`)
          ? Promise.resolve(Response.json({}))
          : send(request),
    });
    const error = await createOrder(hollow, order('cart-read')).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(TypeError);
    expect(error).toBeInstanceOf(PartnerPrintError);
    expect(error).toMatchObject({
      code: 'unexpected_response',
      operation: 'getOrder',
      method: 'GET',
      path: `/orders/${created.reference}`,
    });
    expect((error as Error).message).toMatch(/GET \/orders\/Order_\S+ answered without an order object/);
  });
});
