// timeoutMs and signal apply whatever the rate-limit setup: off, the default scheduler, a shared store, a
// Scheduler instance (with its own transport, as the migrate CLI builds its client), in both entries; against
// a server on 127.0.0.1 that accepts and never answers.
import { createScheduler, MemoryStore } from '@partner-print/ratelimit';
import { createSandbox } from '@partner-print/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { busy, timeWithoutStalls } from '../../../test-utils/stall.ts';
import { AbortedError, createClient, type RateLimitOption, TimeoutError } from '../src/index.ts';
import { createClient as createLiteClient } from '../src/lite.ts';
import { KEY } from './fake.ts';
import { silentServer, startServer, type TestServer } from './servers.ts';

let server: TestServer;
beforeAll(async () => {
  server = await silentServer();
});
afterAll(() => server.close());

type Setup = [name: string, make: (timeoutMs: number) => { get: (signal?: AbortSignal) => Promise<unknown> }];

const main = (rateLimit: () => RateLimitOption | undefined) => (timeoutMs: number) => {
  const option = rateLimit();
  const client = createClient({
    secretKey: KEY,
    baseUrl: server.baseUrl,
    timeoutMs,
    retry: false,
    ...(option !== undefined && { rateLimit: option }),
  });
  return { get: (signal?: AbortSignal) => client.get('/orders', signal ? { signal } : undefined) };
};

const setups: Setup[] = [
  ['main, rate limiting off', main(() => false)],
  ['main, the default scheduler', main(() => undefined)],
  ['main, a scheduler with a shared store', main(() => ({ store: new MemoryStore() }))],
  ['main, a Scheduler instance (its own transport)', main(() => createScheduler())],
  [
    'lite, a Scheduler instance',
    (timeoutMs) => {
      const client = createLiteClient({
        secretKey: KEY,
        baseUrl: server.baseUrl,
        timeoutMs,
        retry: false,
        rateLimit: createScheduler(),
      });
      return { get: (signal?: AbortSignal) => client.get('/orders', signal ? { signal } : undefined) };
    },
  ],
];

describe.each(setups)('%s', (_, make) => {
  it('timeoutMs: 300 ends the call with TimeoutError within about a second', async () => {
    const started = performance.now();
    // The upper bound without the process's stalls (test-utils/stall.ts): a starved test is not a late timeout.
    const { result: error, ms } = await timeWithoutStalls(() =>
      make(300)
        .get()
        .catch((e: unknown) => e),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toMatch(/no response within 300 ms/);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(1500);
  });

  it("the caller's signal ends the call with AbortedError, its reason as cause", async () => {
    const reason = new Error('user left');
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 100);
    const { result: error, ms } = await timeWithoutStalls(() =>
      make(0)
        .get(controller.signal)
        .catch((e: unknown) => e),
    );
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as AbortedError).cause).toBe(reason);
    expect((error as Error).message).toContain('user left');
    expect(ms).toBeLessThan(1500);
  });

  it('AbortSignal.timeout(…) of the caller ends the call with TimeoutError', async () => {
    const error = await make(0)
      .get(AbortSignal.timeout(150))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/signal timed out/);
  });
});

describe('a timeout while queued by a Scheduler instance', () => {
  it('is a TimeoutError too (the deadline covers the queue when the client cannot see into it)', async () => {
    // One request at a time: the second waits in the queue behind the first, which never gets an answer.
    const scheduler = createScheduler({ concurrency: 1 });
    const client = createClient({
      secretKey: KEY,
      baseUrl: server.baseUrl,
      timeoutMs: 300,
      retry: false,
      rateLimit: scheduler,
    });
    const first = client.get('/orders').catch((e: unknown) => e);
    const second = client.get('/orders').catch((e: unknown) => e);
    await expect(first).resolves.toBeInstanceOf(TimeoutError);
    await expect(second).resolves.toBeInstanceOf(TimeoutError);
    expect(((await second) as Error).message).toMatch(/rate-limit queue included/);
  });
});

describe("a call's own timeoutMs beneath the default scheduler", () => {
  it('holds for a request the scheduler sends within the call and for one it queued first', async () => {
    const client = createClient({
      secretKey: KEY,
      baseUrl: server.baseUrl,
      timeoutMs: 60_000,
      retry: false,
      rateLimit: { concurrency: 1 },
    });
    // The first goes at once; the second waits in the queue behind it (one at a time), then goes.
    const {
      result: [a, b],
      ms,
    } = await timeWithoutStalls(() => {
      const first = client.get('/orders', { timeoutMs: 200 }).catch((e: unknown) => e);
      const second = client.get('/orders', { timeoutMs: 300 }).catch((e: unknown) => e);
      return Promise.all([first, second]);
    });
    expect(a).toBeInstanceOf(TimeoutError);
    expect((a as TimeoutError).message).toMatch(/no response within 200 ms/);
    expect(b).toBeInstanceOf(TimeoutError);
    expect((b as TimeoutError).message).toMatch(/no response within 300 ms/);
    // Neither fell back to the client's 60 s (timed without the process's stalls).
    expect(ms).toBeLessThan(3000);
  });
});

// A process that stalls (a long synchronous task, a starved event loop) is not a server that did not answer.
// After a stall Node runs its timers before it reads its sockets, so an attempt whose answer was already
// waiting, or whose request was only written after the stall, was timed out (and asked again).
describe('a stall of the process is not counted against timeoutMs', () => {
  const options = (baseUrl: string) => ({ secretKey: KEY, baseUrl, timeoutMs: 100, retry: false as const });
  const orders = (client: { get: (path: '/orders') => Promise<unknown> }) => ({
    get: () => client.get('/orders'),
  });
  const answering = (stallMs: number) =>
    startServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"orders":[],"nextPageToken":null}');
      // The answer is in the client's socket; the process (server and client alike) stalls past the timeout.
      busy(stallMs);
    });
  const clients: [string, (baseUrl: string) => { get: () => Promise<unknown> }][] = [
    ['rate limiting off', (baseUrl) => orders(createClient({ ...options(baseUrl), rateLimit: false }))],
    ['the default scheduler', (baseUrl) => orders(createClient(options(baseUrl)))],
    ['lite', (baseUrl) => orders(createLiteClient(options(baseUrl)))],
  ];
  for (const [name, make] of clients) {
    it(`${name}: an answer that arrived during the stall is taken`, async () => {
      const stalling = await answering(300);
      try {
        const client = make(stalling.baseUrl);
        await expect(client.get()).resolves.toMatchObject({ orders: [] });
        expect(stalling.received).toHaveLength(1);
      } finally {
        await stalling.close();
      }
    });

    it(`${name}: a request written only after the stall gets its window`, async () => {
      const prompt = await answering(0);
      try {
        const client = make(prompt.baseUrl);
        const call = client.get();
        busy(300);
        await expect(call).resolves.toMatchObject({ orders: [] });
        expect(prompt.received).toHaveLength(1);
      } finally {
        await prompt.close();
      }
    });

    it(`${name}: a server that never answers is still timed out after a stall, within twice the timeout`, async () => {
      const client = make(server.baseUrl);
      const started = performance.now();
      const call = client.get().catch((e: unknown) => e);
      busy(300);
      const { result: error, ms } = await timeWithoutStalls(() => call);
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as Error).message).toMatch(/no response within 100 ms/);
      expect(performance.now() - started).toBeGreaterThanOrEqual(300 + 95);
      // After the stall: a fresh window of 100 ms, once (and at most a sweep's period beyond it).
      expect(ms).toBeLessThan(1000);
    });
  }
});

// A call whose signal aborted before it began sends nothing: its error says so (no attempt), and a POST that
// cannot be repeated is not reported as one that may have taken effect.
describe('a call whose signal aborted before it began', () => {
  const sandboxed = (rateLimit?: false) => {
    const sandbox = createSandbox();
    let sent = 0;
    const client = createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      fetch: (request: Request) => {
        sent++;
        return sandbox.fetch(request);
      },
      ...(rateLimit === false && { rateLimit }),
    });
    const order = {
      storeReference: sandbox.seed.stores.combined,
      shippingKind: 'combined' as const,
      orderlines: [{ productReference: sandbox.seed.products.nonPrint, quantity: 1 }],
    };
    return { client, order, sent: () => sent };
  };
  for (const rateLimit of [undefined, false] as const) {
    const name = rateLimit === false ? 'rate limiting off' : 'the default scheduler';
    it(`${name}: a POST /orders under a signal that timed out already is a TimeoutError, nothing sent`, async () => {
      const { client, order, sent } = sandboxed(rateLimit);
      const signal = AbortSignal.abort(
        new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      );
      const error = await client
        .post('/orders', { body: { order }, signal } as never)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as Error).message).not.toMatch(/may have taken effect/);
      expect((error as TimeoutError).attempts ?? 0).toBe(0);
      expect(sent()).toBe(0);
    });

    it(`${name}: a GET under an aborted signal is an AbortedError with no attempt`, async () => {
      const { client, sent } = sandboxed(rateLimit);
      const error = await client
        .get('/orders', { signal: AbortSignal.abort(new Error('page closed')) })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AbortedError);
      expect((error as AbortedError).attempts ?? 0).toBe(0);
      expect(sent()).toBe(0);
    });
  }
});
