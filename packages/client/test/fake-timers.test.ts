// A partner's test suite on vitest's (or Jest's, @sinonjs/fake-timers underneath) fake timers: the client
// on the real clock, its waits on the faked setTimeout and Date, and the test moving time with
// `advanceTimersByTimeAsync`. A call must not wait for anything those timers do not control, or the
// test's advance runs before the wait begins and the call hangs.
import { budgetKeyOf } from '@partner-print/openapi/wire';
import { MemoryStore } from '@partner-print/ratelimit';
import { createSandbox } from '@partner-print/sandbox';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient, type RateLimitOption, TimeoutError } from '../src/index.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const PENDING = Symbol('pending');
/** The call's outcome once the test's advance is over, or PENDING; no timer of its own (they are fake). */
async function settledAfter<T>(call: Promise<T>, advanceMs: number): Promise<T | Error | typeof PENDING> {
  let outcome: T | Error | typeof PENDING = PENDING;
  call.then(
    (value) => {
      outcome = value;
    },
    (error: Error) => {
      outcome = error;
    },
  );
  await vi.advanceTimersByTimeAsync(advanceMs);
  for (let i = 0; i < 20 && outcome === PENDING; i++) await Promise.resolve();
  return outcome;
}

const rateLimited = (retryAfter: string) =>
  new Response(JSON.stringify({ code: 'rate_limited', message: 'Slow down.' }), {
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
  });

const SCHEDULERS: Array<[string, RateLimitOption | undefined]> = [
  ['the default scheduler', undefined],
  ['a scheduler made from options', { concurrency: 4 }],
  ['a scheduler with its own key', { key: 'organization-7' }],
  ['no scheduler', false],
];

describe.each(SCHEDULERS)('a fresh client under fake timers, %s', (_name, rateLimit) => {
  const clientOn = (
    fetch: (sandbox: ReturnType<typeof createSandbox>) => (r: Request) => Promise<Response>,
  ) => {
    const sandbox = createSandbox();
    const options = rateLimit === undefined ? {} : { rateLimit };
    const client = createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      fetch: fetch(sandbox),
      ...options,
    });
    return { client, sandbox };
  };

  it("retries its first call's 429 once the test advances past Retry-After", async () => {
    let calls = 0;
    const { client } = clientOn(
      (sandbox) => (request) => (++calls === 1 ? Promise.resolve(rateLimited('2')) : sandbox.fetch(request)),
    );
    const outcome = await settledAfter(client.get('/rendertokens'), 5_000);
    expect(outcome).not.toBe(PENDING);
    expect(outcome).toMatchObject({ rendertokens: { limit: expect.any(Number) } });
    expect(calls).toBe(2);
  });

  it('does not retry before Retry-After has passed on the faked clock', async () => {
    let calls = 0;
    const { client } = clientOn(
      (sandbox) => (request) => (++calls === 1 ? Promise.resolve(rateLimited('30')) : sandbox.fetch(request)),
    );
    const call = client.get('/rendertokens');
    expect(await settledAfter(call, 29_000)).toBe(PENDING);
    expect(calls).toBe(1);
    expect(await settledAfter(call, 5_000)).toMatchObject({ rendertokens: expect.any(Object) });
    expect(calls).toBe(2);
  });

  it('fails its first call with a TimeoutError once the test advances past timeoutMs', async () => {
    // Never answers; the attempt's timeout (1 s) aborts it.
    const { client } = clientOn(() => () => new Promise<Response>(() => {}));
    const outcome = await settledAfter(
      client.get('/rendertokens', { retry: false, timeoutMs: 1_000 }),
      1_500,
    );
    expect(outcome).toBeInstanceOf(TimeoutError);
  });

  it('creates an order on its first call, a POST with a body', async () => {
    const { client, sandbox } = clientOn((sandbox) => sandbox.fetch);
    const outcome = await settledAfter(
      client.createOrder({
        storeReference: sandbox.seed.stores.combined,
        shippingKind: 'combined',
        customIdentifier: 'fake-timers-1',
        orderlines: [{ productReference: sandbox.seed.products.nonPrint, quantity: 1 }],
      }),
      1_000,
    );
    expect(outcome).toMatchObject({ order: { reference: expect.stringMatching(/^Order_/) } });
  });
});

describe('the budget key of a scheduler the client makes', () => {
  it('without a store: one budget of its own, kept under "client" (no hash to wait for)', async () => {
    vi.useRealTimers();
    const sandbox = createSandbox();
    const client = createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      fetch: sandbox.fetch,
    });
    await client.get('/rendertokens');
    const buckets = await client.scheduler!.snapshot('client');
    expect(Object.keys(buckets)).toContain('default');
  });

  it('with a store: SHA-256 of the secret key, so clients of two organizations sharing it keep apart', async () => {
    vi.useRealTimers();
    const sandbox = createSandbox();
    const store = new MemoryStore();
    const [a, b] = [sandbox.keys.primary, sandbox.keys.other];
    for (const secretKey of [a, b]) {
      const client = createClient({
        secretKey,
        baseUrl: sandbox.baseUrl,
        fetch: sandbox.fetch,
        rateLimit: { store },
      });
      await client.get('/rendertokens').catch(() => {});
    }
    for (const secretKey of [a, b]) {
      const buckets = await store.snapshot(await budgetKeyOf(secretKey), Date.now());
      expect(Object.keys(buckets)).toContain('default');
    }
    expect(Object.keys(await store.snapshot('client', Date.now()))).toEqual([]);
  });
});

// The README's toFake list for @sinonjs/fake-timers (what vi.useFakeTimers takes too): timeoutMs' deadlines read
// performance.now(), so a list without 'performance' left a call against a server that never answers pending
// however far the test advanced (review).
describe("the README's sinon toFake list", () => {
  afterEach(() => vi.useRealTimers());
  it('fires timeoutMs against a server that never answers', async () => {
    vi.useFakeTimers({
      toFake: [
        'setTimeout',
        'clearTimeout',
        'setInterval',
        'clearInterval',
        'setImmediate',
        'clearImmediate',
        'Date',
        'performance',
      ],
    });
    const client = createClient({
      secretKey: 'sk_test_fake_timers_list',
      baseUrl: 'http://127.0.0.1:9/v2',
      retry: false,
      rateLimit: false,
      timeoutMs: 1_000,
      fetch: (_request, init) =>
        new Promise((_resolve, reject) =>
          init?.signal.addEventListener('abort', () => reject(init.signal.reason)),
        ),
    });
    let outcome: unknown = 'pending';
    client.get('/claimcategories').then(
      (v) => {
        outcome = v;
      },
      (e: unknown) => {
        outcome = e;
      },
    );
    await vi.advanceTimersByTimeAsync(5_000);
    expect(outcome).toBeInstanceOf(TimeoutError);
  });
});
