// createOrder, review of its errors, aborts, flights and claims: each test failed before its fix.
import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  AmbiguousOrderError,
  AmbiguousOutcomeError,
  createClient,
  createOrder,
  IdentifierConflictError,
  memoryOrderClaims,
  type OrderClaims,
  type OrderRequest,
  PartnerPrintError,
} from '../src/index.ts';
import { BASE, fakeFetch, json, KEY, testClock } from './fake.ts';
import { type OrderFaultOptions, orderSetup, storedIdentifiers } from './orders-faults.ts';

const ORDER: OrderRequest = {
  storeReference: 'Store_1',
  shippingKind: 'combined',
  customIdentifier: 'echo-1',
  orderlines: [{ productReference: 'Product_1', quantity: 1 }],
} as OrderRequest;
const LOOKUP = '/v2/utilities/lookup-order-reference-by-custom-identifier';

/** A service whose lookup answers an order reference holding the key; `read` answers GET /orders/{ref}. */
function echoing(
  read: () => Response,
  post: () => Response = () => json({ order: { reference: 'Order_new' } }),
) {
  const { fetch, seen } = fakeFetch((req) => {
    const { pathname } = new URL(req.url);
    if (pathname === LOOKUP) return json({ orderReference: `Order_${KEY}` });
    if (req.method === 'GET') return read();
    return post();
  });
  const client = createClient({ secretKey: KEY, baseUrl: BASE, fetch, clock: testClock(), rateLimit: false });
  return { client, seen };
}

const everything = (error: unknown) =>
  JSON.stringify({ ...(error as object), message: (error as Error).message, stack: (error as Error).stack });

describe('createOrder: no error of its own holds the key, even from 2xx data', () => {
  it('IdentifierConflictError: message and orderReference', async () => {
    const other = { order: { reference: `Order_${KEY}`, storeReference: 'Store_2', orderlines: [] } };
    const { client } = echoing(() => json(other));
    const error = await createOrder(client, ORDER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdentifierConflictError);
    expect(everything(error)).not.toContain(KEY);
    expect((error as IdentifierConflictError).orderReference).toBe('Order_[redacted]');
  });

  it('"answered without an order object"', async () => {
    const { client } = echoing(() => json({ nothing: true }));
    const error = await createOrder(client, ORDER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerPrintError);
    expect((error as Error).message).toContain('answered without an order object');
    expect(everything(error)).not.toContain(KEY);
  });

  it('AmbiguousOrderError: message and history', async () => {
    const other = { order: { reference: `Order_${KEY}`, storeReference: 'Store_2', orderlines: [] } };
    const { client } = echoing(
      () => json(other),
      () => json({ code: 'unavailable', message: 'down' }, 503),
    );
    const error = await createOrder(client, ORDER, { lookupFirst: false, retry: false }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AmbiguousOrderError);
    expect((error as Error).message).toContain('Order_[redacted]');
    expect(everything(error)).not.toContain(KEY);
    expect(JSON.stringify((error as AmbiguousOrderError).history)).not.toContain(KEY);
  });
});

describe('createOrder: an abort before any POST sends nothing and is never ambiguous', () => {
  it('a signal already aborted, lookupFirst: false: AbortedError, attempts 0, and the next call posts at once', async () => {
    const { client, order, stats, sandbox } = orderSetup();
    const error = await createOrder(client, order('pre-aborted'), {
      lookupFirst: false,
      signal: AbortSignal.abort(new Error('gone')),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).not.toBeInstanceOf(AmbiguousOutcomeError);
    expect(error).toMatchObject({ attempts: 0 });
    expect(stats.posts).toBe(0);
    const start = sandbox.clock.now();
    await expect(createOrder(client, order('pre-aborted'))).resolves.toMatchObject({ created: true });
    expect(sandbox.clock.now() - start).toBeLessThan(1_000); // no settle window for a POST never sent
    expect(stats.posts).toBe(1);
  });

  it('an abort between the lookup and the POST: AbortedError, attempts 0, nothing posted, no unsettled mark', async () => {
    const { client, order, stats, sandbox } = orderSetup();
    const controller = new AbortController();
    const store = memoryOrderClaims();
    // A store that lets the caller abort right before the POST (after the lookup answered "absent").
    const claims: OrderClaims = {
      acquire: async (id, signal) => {
        const claim = await store.acquire(id, signal);
        return {
          recorded: claim.recorded,
          unsettled: claim.unsettled,
          release: (outcome) => claim.release(outcome),
          beforePost: () => {
            controller.abort(new Error('changed my mind'));
            return claim.beforePost();
          },
        };
      },
    };
    const error = await createOrder(client, order('between'), { claims, signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).not.toBeInstanceOf(AmbiguousOutcomeError);
    expect(error).toMatchObject({ attempts: 0 });
    expect(stats).toMatchObject({ lookups: 1, posts: 0 });
    const start = sandbox.clock.now();
    await expect(createOrder(client, order('between'), { claims: store })).resolves.toMatchObject({
      created: true,
    });
    expect(sandbox.clock.now() - start).toBeLessThan(1_000);
  });

  it('an abort while waiting out an earlier unsettled POST: AbortedError, and the mark is kept', async () => {
    const options: OrderFaultOptions = {
      plan: (_, n) => (n === 1 ? 'drop-before' : undefined),
      lookupFailsAfter: 1,
    };
    const { client, order, stats, sandbox } = orderSetup(options, { retry: { attempts: 1 } });
    // 1: the POST's outcome stays unknown (the lookups fail): the identifier is unsettled.
    const first = await createOrder(client, order('unsettled'), { settleWindowMs: 1_000 }).catch(
      (e: unknown) => e,
    );
    expect(first).toBeInstanceOf(AmbiguousOrderError);
    // 2: aborted during its settle wait.
    const controller = new AbortController();
    options.onLookup = () => controller.abort(new Error('stop waiting'));
    const second = await createOrder(client, order('unsettled'), { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(second).toBeInstanceOf(AbortedError);
    expect(second).toMatchObject({ attempts: 0, cause: { message: 'stop waiting' } });
    // 3: still waits out the window before posting.
    options.onLookup = undefined;
    options.lookupFailsAfter = undefined;
    const start = sandbox.clock.now();
    await expect(
      createOrder(client, order('unsettled'), { lookupFirst: false, settleWindowMs: 5_000 }),
    ).resolves.toMatchObject({ created: true });
    expect(sandbox.clock.now() - start).toBeGreaterThanOrEqual(5_000);
    expect(stats.posts).toBe(2);
  });
});

describe('createOrder: a caller sharing a flight is stopped by its own signal only', () => {
  it("the joiner's abort stops its own wait at once; the flight goes on for the first caller", async () => {
    const { client, checker, order, stats, sandbox } = orderSetup({
      plan: (_, n) => (n === 1 ? 'drop-before' : undefined),
    });
    const first = createOrder(client, order('flight-1'));
    const controller = new AbortController();
    const start = sandbox.clock.now();
    const joiner = createOrder(client, order('flight-1'), { signal: controller.signal });
    controller.abort(new Error('joiner gives up'));
    const error = await joiner.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toMatchObject({ attempts: 0, cause: { message: 'joiner gives up' } });
    expect(sandbox.clock.now() - start).toBeLessThan(1_000); // not the first caller's settle window
    await expect(first).resolves.toMatchObject({ created: true });
    expect(stats.posts).toBe(2);
    expect(await storedIdentifiers(checker)).toEqual(['flight-1']);
  });

  it("the first caller's abort does not fail the joiner: the flight goes on for it", async () => {
    const controller = new AbortController();
    const { client, checker, order } = orderSetup({
      plan: (_, n) => (n === 1 ? 'drop-before' : undefined),
      // The first lookup of the settle window after the dropped POST: the first caller gives up.
      onLookup: (n) => n === 2 && controller.abort(new Error('first gives up')),
    });
    const first = createOrder(client, order('flight-2'), { signal: controller.signal });
    const joiner = createOrder(client, order('flight-2'));
    const error = await first.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousOrderError); // its POST was sent: the outcome is unknown to it
    expect((error as AmbiguousOrderError).history).toMatchObject([{ kind: 'lookup' }, { kind: 'post' }]);
    await expect(joiner).resolves.toMatchObject({ created: false });
    expect(await storedIdentifiers(checker)).toEqual(['flight-2']);
  });
  it('a call after every caller of a flight gave up does not join the aborted flight', async () => {
    const controller = new AbortController();
    let later: Promise<unknown> | undefined;
    const { client, checker, order } = orderSetup({
      plan: (_, n) => (n === 1 ? 'drop-before' : undefined),
      onLookup: (n) => {
        if (n !== 2) return;
        // The only caller gives up during the settle window, and a new call comes at that moment.
        controller.abort(new Error('only caller gives up'));
        later = createOrder(client, order('flight-3'));
      },
    });
    const first = await createOrder(client, order('flight-3'), { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(first).toBeInstanceOf(AmbiguousOrderError);
    // It waits for the claim, then out the unsettled POST, then posts: not the aborted flight's error.
    await expect(later).resolves.toMatchObject({ created: true });
    expect(await storedIdentifiers(checker)).toEqual(['flight-3']);
  });
});

describe('createOrder: one POST per identifier for the clients of one process sharing a claim store', () => {
  it('two clients sharing one memoryOrderClaims() create one order', async () => {
    const { client, checker, order, stats } = orderSetup();
    const claims = memoryOrderClaims();
    const results = await Promise.all([
      createOrder(client, order('shared-1'), { claims }),
      createOrder(checker, order('shared-1'), { claims }),
    ]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.order.reference)).size).toBe(1);
    expect(stats.posts).toBe(1); // the checker's POSTs are not counted: it must not have posted either
    expect(await storedIdentifiers(checker)).toEqual(['shared-1']);
  });

  it("a caller waiting for another holder's claim stops on its own signal, unsent", async () => {
    const claims = memoryOrderClaims();
    const held = await claims.acquire('x');
    const controller = new AbortController();
    const waiting = claims.acquire('x', controller.signal);
    controller.abort(new Error('no more'));
    await expect(waiting).rejects.toThrow('no more');
    await held.release({});
    const next = await claims.acquire('x');
    expect(next.unsettled).toBe(false);
    await next.release({});
  });
});
