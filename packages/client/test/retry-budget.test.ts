import { createScheduler } from '@partner-print/ratelimit';
import { describe, expect, it } from 'vitest';
import {
  type ClientOptions,
  createClient,
  PartnerPrintError,
  RateLimitedError,
  type RateLimitOption,
} from '../src/index.ts';
import { fakeFetch, json, testClock } from './fake.ts';

const BASE = 'https://api.example/v2';
const KEY = 'sk_test_retry_budget';
const RATE_HEADERS = {
  'x-ratelimit-policy': '"default";q=3000;w=60',
  'x-ratelimit': '"default";r=0;t=1',
};

function clientWith(
  handler: (req: Request, n: number) => Response,
  options: Partial<ClientOptions> & { rateLimit?: RateLimitOption } = {},
) {
  const clock = testClock();
  const { fetch, seen } = fakeFetch(handler);
  const client = createClient({ secretKey: KEY, baseUrl: BASE, fetch, clock, ...options });
  return { client, seen, clock };
}

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => {
      if (!(error instanceof PartnerPrintError)) throw error;
      return error;
    },
  );

describe('one retry budget per call', () => {
  for (const [label, headers] of [
    ['without rate-limit fields', {}],
    ['with rate-limit fields', RATE_HEADERS],
  ] as const) {
    it(`a server that always answers 429 (Retry-After: 1, ${label}) gets retry.attempts requests`, async () => {
      const { client, seen } = clientWith(() =>
        json({ code: 'rate_limited', message: 'slow down' }, 429, { 'retry-after': '1', ...headers }),
      );
      const error = await caught(client.get('/orders'));
      expect(seen).toHaveLength(3);
      expect(error).toBeInstanceOf(RateLimitedError);
      expect(error).toMatchObject({ attempts: 3, retryDelayMs: 2000, status: 429, operation: 'listOrders' });
    });
  }

  it('Retry-After: 0 too: 3 requests, not 8', async () => {
    const { client, seen } = clientWith(() => json({ code: 'rate_limited' }, 429, { 'retry-after': '0' }));
    const error = await caught(client.get('/orders'));
    expect(seen).toHaveLength(3);
    expect(error.attempts).toBe(3);
  });

  it('a Scheduler instance of its own (maxRetries 5) spends from the same budget', async () => {
    const clock = testClock();
    const { fetch, seen } = fakeFetch(() => json({ code: 'rate_limited' }, 429, { 'retry-after': '1' }));
    const scheduler = createScheduler({ fetch, clock, maxRetries: 5 });
    const client = createClient({ secretKey: KEY, baseUrl: BASE, clock, rateLimit: scheduler });
    const error = await caught(client.get('/orders', { retry: { attempts: 2 } }));
    expect(seen).toHaveLength(2);
    expect(error).toMatchObject({ attempts: 2, retryDelayMs: 1000 });
  });

  it('retry.attempts bounds 429 retries, and rateLimit: false changes nothing', async () => {
    for (const rateLimit of [undefined, false] as const) {
      const { client, seen } = clientWith(() => json({ code: 'rate_limited' }, 429, { 'retry-after': '1' }), {
        retry: { attempts: 5 },
        ...(rateLimit === false && { rateLimit }),
      });
      await expect(client.get('/orders')).rejects.toMatchObject({ attempts: 5, retryDelayMs: 4000 });
      expect(seen).toHaveLength(5);
    }
  });

  it('maxElapsedMs bounds the time: a Retry-After past it is not waited for', async () => {
    const { client, seen } = clientWith(() => json({ code: 'rate_limited' }, 429, { 'retry-after': '30' }), {
      retry: { attempts: 10, maxElapsedMs: 60_000 },
    });
    const error = await caught(client.get('/orders'));
    // Sent at 0 s, 30 s and 60 s: a fourth would start at 90 s.
    expect(seen).toHaveLength(3);
    expect(error).toMatchObject({ attempts: 3, retryDelayMs: 60_000 });
  });

  it('an HTTP error after retries carries attempts and the delay (503 three times)', async () => {
    const { client, seen, clock } = clientWith(() => json({ code: 'unavailable' }, 503));
    const error = await caught(client.get('/orders'));
    expect(seen).toHaveLength(3);
    expect(error.status).toBe(503);
    expect(error.attempts).toBe(3);
    expect(error.retryDelayMs).toBe(clock.slept.reduce((a, b) => a + b, 0));
  });

  it('an error after a single send says so: attempts 1, no delay', async () => {
    const { client } = clientWith(() => json({ code: 'not_found' }, 404));
    await expect(client.get('/orders')).rejects.toMatchObject({ attempts: 1, retryDelayMs: 0 });
  });

  it('an abort during the wait keeps what the call spent', async () => {
    const controller = new AbortController();
    const { client } = clientWith(() => {
      controller.abort(new Error('enough'));
      return json({ code: 'unavailable' }, 503);
    });
    await expect(client.get('/orders', { signal: controller.signal })).rejects.toMatchObject({
      code: 'aborted',
      attempts: 1,
    });
  });

  it('network errors carry the delay too', async () => {
    const { client } = clientWith(() => {
      throw new TypeError('fetch failed');
    });
    await expect(client.get('/orders')).rejects.toMatchObject({ code: 'network_error', attempts: 3 });
  });
});

describe("a pause after a 429 that outlasts a call's budget", () => {
  // The service's first answer empties the default bucket for an hour; every later one is a 200.
  const pausedFor = (seconds: number) => (_req: Request, n: number) =>
    n === 1
      ? json({ code: 'rate_limited', message: 'slow down' }, 429, {
          'retry-after': String(seconds),
          'x-ratelimit-policy': '"default";q=3000;w=60',
          'x-ratelimit': `"default";r=0;t=${seconds}`,
        })
      : json({ orders: [], nextCursor: null }, 200, {
          'x-ratelimit-policy': '"default";q=3000;w=60',
          'x-ratelimit': '"default";r=100;t=0',
        });

  it('a later call fails at once, unsent, with the RateLimitedError the 429 gave, not after an hour in the queue', async () => {
    const { client, seen, clock } = clientWith(pausedFor(3600));
    const t0 = clock.now();
    // The call that met the 429: its Retry-After is past maxElapsedMs (60 s), so it is not waited for.
    expect(await caught(client.get('/orders'))).toMatchObject({ status: 429, retryAfter: 3600, attempts: 1 });
    // The calls after it would have waited in the scheduler's queue for the hour (its pause on the bucket).
    const error = await caught(client.get('/orders'));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({
      code: 'rate_limited',
      retryAfter: 3600,
      attempts: 0,
      operation: 'listOrders',
      method: 'GET',
    });
    expect(error.message).toBe(
      "listOrders: not sent, the rate limit is paused after a 429 for another 3600 s, past the call's retry.maxElapsedMs",
    );
    // A POST that was never sent cannot have taken effect: no AmbiguousOutcomeError.
    const post = await caught(
      client.post('/orders', {
        body: {
          order: {
            storeReference: 'Store_1',
            shippingKind: 'combined',
            orderlines: [{ productReference: 'Product_1', quantity: 1 }],
          },
        },
      } as never),
    );
    expect(post).toBeInstanceOf(RateLimitedError);
    expect(post).toMatchObject({ attempts: 0, method: 'POST' });
    expect(seen).toHaveLength(1);
    expect(clock.now()).toBe(t0);
    expect(client.scheduler?.stats()).toMatchObject({ queued: 0, refused: 2 });
    // A call whose budget covers the pause waits it out, and goes.
    await expect(client.get('/orders', { retry: { maxElapsedMs: 7_200_000 } })).resolves.toMatchObject({
      orders: [],
    });
    expect(seen).toHaveLength(2);
    expect(clock.now() - t0).toBeGreaterThanOrEqual(3_600_000);
  });

  it('a Scheduler of your own given maxPauseMs: its refusal is the same RateLimitedError, unsent', async () => {
    const clock = testClock();
    const { fetch, seen } = fakeFetch(pausedFor(3600));
    const scheduler = createScheduler({ fetch, clock, key: 'org', maxPauseMs: 10_000 });
    const client = createClient({ secretKey: KEY, baseUrl: BASE, fetch, clock, rateLimit: scheduler });
    expect(await caught(client.get('/orders'))).toMatchObject({ status: 429, attempts: 1 });
    const error = await caught(client.get('/orders'));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ code: 'rate_limited', retryAfter: 3600, attempts: 0 });
    expect(seen).toHaveLength(1);
  });

  it('a pause within the budget is waited out, as before', async () => {
    const { client, seen, clock } = clientWith(pausedFor(30));
    const t0 = clock.now();
    const first = client.get('/orders');
    const second = client.get('/orders');
    await expect(first).resolves.toMatchObject({ orders: [] });
    await expect(second).resolves.toMatchObject({ orders: [] });
    expect(seen).toHaveLength(3);
    expect(clock.now() - t0).toBeGreaterThanOrEqual(30_000);
  });
});

describe("the partner's own rateLimit.maxPauseMs", () => {
  it('bounds a call further than its maxElapsedMs (review: it was overridden by the call budget and ignored)', async () => {
    const clock = testClock();
    const { fetch, seen } = fakeFetch((_req, n) =>
      n === 1
        ? json({ code: 'rate_limited' }, 429, {
            'retry-after': '30',
            'x-ratelimit-policy': '"default";q=3000;w=60',
            'x-ratelimit': '"default";r=0;t=30',
          })
        : json({ orders: [], nextCursor: null }),
    );
    const client = createClient({
      secretKey: KEY,
      baseUrl: BASE,
      fetch,
      clock,
      rateLimit: { maxPauseMs: 5_000 },
    });
    const first = client.get('/orders');
    const second = caught(client.get('/orders'));
    // The first call waits its Retry-After (30 s, within 60 s) and goes; the second, queued behind the pause
    // with 5 s of patience, is refused at once.
    expect(await second).toMatchObject({ code: 'rate_limited', attempts: 0 });
    await expect(first).resolves.toMatchObject({ orders: [] });
    expect(seen).toHaveLength(2);
  });
});
