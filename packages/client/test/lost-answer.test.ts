// A POST that may have taken effect and got no answer (the connection lost after the request was read, a
// closed port, no answer within timeoutMs): both forms of a call — the throwing `post()` and openapi-fetch's
// `POST()`/`request()`, which throw only when there is no answer — reject with the same AmbiguousOutcomeError,
// on either entry, with or without the scheduler. A request that may be repeated keeps its NetworkError.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createScheduler } from '@partner-print/ratelimit';
import { describe, expect, it } from 'vitest';
import { AmbiguousOutcomeError, createClient, NetworkError, TimeoutError } from '../src/index.ts';
import { createClient as createLiteClient } from '../src/lite.ts';
import { KEY, testClock } from './fake.ts';
import { caught, serverPerTest } from './servers.ts';

const startServer = serverPerTest();

/** Reads the request, then destroys the socket: the request reached the service, its answer is lost. */
const dropping = () => startServer((_, res) => res.socket?.destroy());
const silent = () => startServer(() => {});

/** A base URL on a port nothing listens on (taken, then released). */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v2`;
}

const order = {
  body: {
    order: {
      storeReference: `Store_${'A'.repeat(26)}` as const,
      shippingKind: 'combined' as const,
      orderlines: [{ productReference: `Product_${'A'.repeat(26)}` as const, quantity: 1 }],
    },
  },
};

type Client = ReturnType<typeof createClient>;
const clients: Array<[string, (baseUrl: string, timeoutMs?: number) => Client]> = [
  [
    'main entry, default scheduler',
    (baseUrl, timeoutMs) =>
      createClient({ secretKey: KEY, baseUrl, retry: false, telemetry: false, timeoutMs }),
  ],
  [
    'main entry, rateLimit: false',
    (baseUrl, timeoutMs) =>
      createClient({ secretKey: KEY, baseUrl, retry: false, rateLimit: false, telemetry: false, timeoutMs }),
  ],
  [
    'lite entry',
    (baseUrl, timeoutMs) => createLiteClient({ secretKey: KEY, baseUrl, retry: false, timeoutMs }) as Client,
  ],
  [
    'lite entry, a Scheduler instance',
    (baseUrl, timeoutMs) =>
      createLiteClient({
        secretKey: KEY,
        baseUrl,
        retry: false,
        timeoutMs,
        rateLimit: createScheduler(),
      }) as Client,
  ],
];

const forms: Array<[string, (client: Client) => Promise<unknown>]> = [
  ['post()', (client) => client.post('/orders', order)],
  ['POST()', (client) => client.POST('/orders', order)],
  ['request()', (client) => client.request('post', '/orders', order)],
];

const ambiguousOf = (error: unknown, cause: typeof NetworkError | typeof TimeoutError) => {
  expect(error).toBeInstanceOf(AmbiguousOutcomeError);
  expect(error).toMatchObject({ code: 'ambiguous_outcome', method: 'POST', path: '/orders', attempts: 1 });
  expect((error as Error).message).toMatch(/it may have taken effect, so it was not repeated$/);
  expect((error as Error).cause).toBeInstanceOf(cause);
  expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain(KEY);
};

describe('POST /orders without an answer', () => {
  for (const [entry, make] of clients)
    for (const [form, call] of forms) {
      it(`${form}, the connection lost after the request: an AmbiguousOutcomeError (${entry})`, async () => {
        const server = await dropping();
        ambiguousOf(await caught(call(make(server.baseUrl))), NetworkError);
        expect(server.received).toHaveLength(1);
      });

      it(`${form}, a closed port: an AmbiguousOutcomeError (${entry})`, async () => {
        ambiguousOf(await caught(call(make(await closedPort()))), NetworkError);
      });

      it(`${form}, no answer within timeoutMs: an AmbiguousOutcomeError (${entry})`, async () => {
        const server = await silent();
        ambiguousOf(await caught(call(make(server.baseUrl, 50))), TimeoutError);
      });
    }

  it('with retries on, POST() is not repeated either', async () => {
    const server = await dropping();
    const client = createClient({
      secretKey: KEY,
      baseUrl: server.baseUrl,
      rateLimit: false,
      telemetry: false,
    });
    ambiguousOf(await caught(client.POST('/orders', order)), NetworkError);
    expect(server.received).toHaveLength(1);
  });

  it('after a 429 waited out, the AmbiguousOutcomeError says what the call spent, in either form', async () => {
    const server = await startServer((_, res, self) => {
      if (self.received.length % 2) res.writeHead(429, { 'retry-after': '3' }).end();
      else res.socket?.destroy();
    });
    const client = createClient({
      secretKey: KEY,
      baseUrl: server.baseUrl,
      rateLimit: false,
      telemetry: false,
      clock: testClock(),
    });
    for (const error of [
      await caught(client.post('/orders', order)),
      await caught(client.POST('/orders', order)),
    ])
      expect(error).toMatchObject({ code: 'ambiguous_outcome', attempts: 2, retryDelayMs: 3_000 });
    expect(server.received).toHaveLength(4);
  });

  it('a GET and an upload, which may be repeated, keep their NetworkError in either form', async () => {
    const server = await dropping();
    const client = createClient({
      secretKey: KEY,
      baseUrl: server.baseUrl,
      retry: false,
      rateLimit: false,
      telemetry: false,
    });
    for (const error of [
      await caught(client.GET('/orders')),
      await caught(client.get('/orders')),
      await caught(client.uploadImage(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))),
    ]) {
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).not.toBeInstanceOf(AmbiguousOutcomeError);
    }
  });
});
