// A 2xx whose body cannot be read, from small hostile servers on 127.0.0.1: the headers and the start of a
// body, then the socket destroyed (undici's `TypeError: terminated` while openapi-fetch reads it), or a body
// that ends but is not JSON (a `SyntaxError`). Either is an SDK error naming the call, never the platform's:
// a cut-off GET is a transport failure (retried within the call's one budget, then a NetworkError), a cut-off
// non-repeatable POST may have taken effect (AmbiguousOutcomeError, sent once), a 2xx that is not JSON is
// `unexpected_response`. An error a partner's own middleware throws passes through unchanged.
import type { ServerResponse } from 'node:http';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { createScheduler } from '@partner-print/ratelimit';
import { createSandbox } from '@partner-print/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AmbiguousOutcomeError,
  createClient,
  createOrder,
  NetworkError,
  PartnerPrintError,
} from '../src/index.ts';
import { createClient as createLiteClient } from '../src/lite.ts';
import { KEY } from './fake.ts';
import { ref, withSignal } from './helpers.ts';
import { only, otel } from './otel.ts';
import { caught, type Received, serverPerTest } from './servers.ts';

const startServer = serverPerTest();

const ORDERS = JSON.stringify({ orders: [], nextCursor: null });

/** Headers and the start of a body (the key echoed in it), then the socket destroyed. */
const cutOff = (_: Received, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(`{"orders":[{"echo":"${KEY}"`, () => res.socket?.destroy());
};
const whole = (body: string) => (_: Received, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(body);
};

/** Answers the n-th request with `answers[n - 1]` (the last one for every request after). */
async function serve(...answers: Array<(req: Received, res: ServerResponse) => void>) {
  const server = await startServer((req, res, self) => {
    answers[Math.min(self.received.length, answers.length) - 1]?.(req, res);
  });
  return server;
}

const quick = { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 };
const noKey = (error: unknown) => {
  const e = error as Error;
  expect(`${e.message} ${JSON.stringify(e)} ${String(e.cause)} ${(e.cause as Error)?.message}`).not.toContain(
    KEY,
  );
};
const order = {
  body: {
    order: {
      storeReference: `Store_${'A'.repeat(26)}` as const,
      shippingKind: 'combined' as const,
      orderlines: [],
    },
  },
};

describe('a 2xx whose body is cut off mid-read', () => {
  for (const rateLimit of [undefined, false] as const) {
    const label = rateLimit === false ? 'without the scheduler' : 'with the scheduler';
    const clientOf = (baseUrl: string) =>
      createClient({ secretKey: KEY, baseUrl, rateLimit, telemetry: false, retry: quick });

    it(`get(): retried within the budget, then a NetworkError with the attempts (${label})`, async () => {
      const server = await serve(cutOff);
      const error = await caught(clientOf(server.baseUrl).get('/orders'));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({
        code: 'network_error',
        operation: 'listOrders',
        method: 'GET',
        path: '/orders',
        attempts: 3,
      });
      expect((error as NetworkError).message).toMatch(/^listOrders: .*terminated.* after 3 attempts$/);
      expect(server.received).toHaveLength(3);
      noKey(error);
    });

    it(`get(): a retry that reads fine is the call's answer (${label})`, async () => {
      const server = await serve(cutOff, whole(ORDERS));
      await expect(clientOf(server.baseUrl).get('/orders')).resolves.toEqual({
        orders: [],
        nextCursor: null,
      });
      expect(server.received).toHaveLength(2);
    });

    it(`post() of POST /orders: an AmbiguousOutcomeError, sent once (${label})`, async () => {
      const server = await serve(cutOff);
      const error = await caught(clientOf(server.baseUrl).post('/orders', order));
      expect(error).toBeInstanceOf(AmbiguousOutcomeError);
      expect(error).toMatchObject({
        code: 'ambiguous_outcome',
        operation: 'createOrder',
        method: 'POST',
        path: '/orders',
        attempts: 1,
      });
      expect((error as AmbiguousOutcomeError).cause).toBeInstanceOf(NetworkError);
      expect(server.received).toHaveLength(1);
      noKey(error);
    });
  }

  it.each([false, 'a Scheduler instance'] as const)(
    'the lite entry (rateLimit: %s): a NetworkError after the retries',
    async (rateLimit) => {
      const server = await serve(cutOff);
      const client = createLiteClient({
        secretKey: KEY,
        baseUrl: server.baseUrl,
        retry: quick,
        rateLimit: rateLimit && createScheduler(),
      });
      const error = await caught(client.get('/orders'));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ method: 'GET', path: '/orders', attempts: 3 });
      expect((error as Error).message).toMatch(/^GET \/orders: .*terminated/);
      expect(server.received).toHaveLength(3);
      noKey(error);
    },
  );

  it("shares the call's one budget with its other retries (a 503, then cut-off bodies), each wait reported", async () => {
    const server = await serve((_, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"code":"unavailable","message":"later"}');
    }, cutOff);
    const retries: Array<{ attempt: number; status?: number | undefined; code?: string | undefined }> = [];
    const client = createClient({
      secretKey: KEY,
      baseUrl: server.baseUrl,
      telemetry: false,
      retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 2 },
      hooks: {
        retry: (e) => void retries.push({ attempt: e.attempt, status: e.status, code: e.error?.code }),
      },
    });
    const error = await caught(client.get('/orders'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ attempts: 4 });
    expect(server.received).toHaveLength(4);
    expect(retries).toEqual([
      { attempt: 1, status: 503, code: undefined },
      { attempt: 2, status: undefined, code: 'network_error' },
      { attempt: 3, status: undefined, code: 'network_error' },
    ]);
  });

  it('no retry whose wait would end past maxElapsedMs; retry: false sends once', async () => {
    for (const retry of [
      { attempts: 5, baseDelayMs: 60_000, maxDelayMs: 60_000, maxElapsedMs: 0 },
      false,
    ] as const) {
      const server = await serve(cutOff);
      const client = createClient({ secretKey: KEY, baseUrl: server.baseUrl, telemetry: false, retry });
      const error = await caught(client.get('/orders'));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ attempts: 1, retryDelayMs: 0 });
      expect(server.received).toHaveLength(1);
    }
  });
});

describe('a 2xx whose body is not JSON', () => {
  for (const [label, body] of [
    ['truncated', '{"orders":['],
    ['not JSON at all', `<html>${KEY}</html>`],
  ] as const) {
    it(`get(): a PartnerPrintError unexpected_response, not retried (${label})`, async () => {
      const server = await serve(whole(body));
      const client = createClient({
        secretKey: KEY,
        baseUrl: server.baseUrl,
        telemetry: false,
        retry: quick,
      });
      const error = await caught(client.get('/orders'));
      expect(error).toBeInstanceOf(PartnerPrintError);
      expect(error).toMatchObject({
        code: 'unexpected_response',
        status: 200,
        operation: 'listOrders',
        method: 'GET',
        path: '/orders',
        attempts: 1,
      });
      expect((error as Error).message).toMatch(/^listOrders: the 200 answer is not JSON/);
      expect(server.received).toHaveLength(1);
      noKey(error);
    });
  }

  it('post() of POST /orders: an AmbiguousOutcomeError (the order may exist), sent once', async () => {
    const server = await serve(whole(`{"order":{"reference":"${KEY}`));
    const client = createClient({ secretKey: KEY, baseUrl: server.baseUrl, telemetry: false, retry: quick });
    const error = await caught(client.post('/orders', order));
    expect(error).toBeInstanceOf(AmbiguousOutcomeError);
    expect(error).toMatchObject({ operation: 'createOrder', attempts: 1 });
    expect((error as AmbiguousOutcomeError).cause).toMatchObject({ code: 'unexpected_response' });
    expect(server.received).toHaveLength(1);
    noKey(error);
  });
});

describe('an upload whose 201 body is cut off, its Content-Type written in any case', () => {
  // An upload is repeatable (the same bytes, the same image): a cut-off answer is retried, then a NetworkError.
  // The header was looked up only as `Content-Type`: written `content-type` (or given as a Headers), the upload
  // was retried 3 times by the transport and then still reported as an AmbiguousOutcomeError "so it was not
  // repeated".
  const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
  const cutUpload = (_: Received, res: ServerResponse) => {
    res.writeHead(201, { 'content-type': 'application/json' });
    res.write('{"image":{"ref', () => res.socket?.destroy());
  };
  for (const [name, headers] of [
    ['a plain object, lower case', { 'content-type': 'application/octet-stream' }],
    ['a Headers', new Headers({ 'Content-Type': 'application/octet-stream' })],
  ] as const) {
    it(`post('/images') with ${name}: retried, then a NetworkError`, async () => {
      const server = await serve(cutUpload);
      const client = createClient({
        secretKey: KEY,
        baseUrl: server.baseUrl,
        telemetry: false,
        retry: quick,
      });
      const error = await caught(
        client.post('/images', {
          body: JPEG as never,
          bodySerializer: (b: unknown) => b as BodyInit,
          headers,
        } as never),
      );
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).not.toBeInstanceOf(AmbiguousOutcomeError);
      expect(server.received).toHaveLength(3);
    });
  }
});

// openapi-fetch's forms (`POST()`, `request()`) read the body themselves: for a POST that may not be repeated, a
// 2xx whose body cannot be read is as ambiguous as with `post()` (the order exists, its reference is lost).
describe('POST()/request() of POST /orders whose 201 body cannot be read', () => {
  const created = (body: string, cut: boolean) => (_: Received, res: ServerResponse) => {
    res.writeHead(201, { 'content-type': 'application/json' });
    if (cut) res.write(body, () => res.socket?.destroy());
    else res.end(body);
  };
  type Client = ReturnType<typeof createClient>;
  const entries: Array<[string, (baseUrl: string) => Client]> = [
    [
      'main entry, default scheduler',
      (baseUrl) => createClient({ secretKey: KEY, baseUrl, telemetry: false, retry: quick }),
    ],
    [
      'main entry, rateLimit: false',
      (baseUrl) =>
        createClient({ secretKey: KEY, baseUrl, rateLimit: false, telemetry: false, retry: quick }),
    ],
    ['lite entry', (baseUrl) => createLiteClient({ secretKey: KEY, baseUrl, retry: quick }) as Client],
    [
      'lite entry, a Scheduler instance',
      (baseUrl) =>
        createLiteClient({ secretKey: KEY, baseUrl, retry: quick, rateLimit: createScheduler() }) as Client,
    ],
  ];
  const forms: Array<[string, (client: Client) => Promise<unknown>]> = [
    ['POST()', (client) => client.POST('/orders', order)],
    ['request()', (client) => client.request('post', '/orders', order)],
  ];
  /** The error of a POST /orders sent once whose 201 could not be read: ambiguous, naming the call. */
  const expectAmbiguousOnce = (error: unknown) => {
    expect(error).toBeInstanceOf(AmbiguousOutcomeError);
    expect(error).toMatchObject({ code: 'ambiguous_outcome', method: 'POST', path: '/orders', attempts: 1 });
  };
  for (const [entry, make] of entries)
    for (const [form, call] of forms) {
      it(`${form}, cut off mid-read: an AmbiguousOutcomeError whose cause is the NetworkError, sent once (${entry})`, async () => {
        const server = await serve(created(`{"order":{"reference":"Order_${KEY}`, true));
        const error = await caught(call(make(server.baseUrl)));
        expectAmbiguousOnce(error);
        // The lite entry has no operation table unless given one.
        if (entry.startsWith('main')) expect(error).toMatchObject({ operation: 'createOrder' });
        expect((error as Error).message).toMatch(
          /terminated.*it may have taken effect, so it was not repeated$/,
        );
        expect((error as Error).cause).toBeInstanceOf(NetworkError);
        expect(server.received).toHaveLength(1);
        noKey(error);
      });

      it(`${form}, not JSON: an AmbiguousOutcomeError whose cause is unexpected_response, sent once (${entry})`, async () => {
        const server = await serve(created(`{"order":{"reference":"${KEY}`, false));
        const error = await caught(call(make(server.baseUrl)));
        expectAmbiguousOnce(error);
        expect((error as Error).cause).toMatchObject({ code: 'unexpected_response', status: 201 });
        expect(server.received).toHaveLength(1);
        noKey(error);
      });

      it(`${form}: an answer read whole comes back as openapi-fetch's result, a 4xx included (${entry})`, async () => {
        const server = await serve(created('{"order":{"reference":"Order_1"}}', false), (_, res) => {
          res.writeHead(422, { 'content-type': 'application/json' });
          res.end('{"code":"missing_address","message":"no"}');
        });
        const client = make(server.baseUrl);
        const ok = (await call(client)) as { data: unknown; response: Response };
        expect(ok.data).toEqual({ order: { reference: 'Order_1' } });
        expect(ok.response.status).toBe(201);
        const refused = (await call(client)) as { error: unknown; response: Response };
        expect(refused.error).toEqual({ code: 'missing_address', message: 'no' });
        expect(refused.response.status).toBe(422);
      });
    }

  it("GET() of a cut-off body keeps the platform's error, read once (as documented)", async () => {
    const server = await serve(cutOff);
    const error = await caught(
      createClient({ secretKey: KEY, baseUrl: server.baseUrl, telemetry: false, retry: quick }).GET(
        '/orders',
      ),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(server.received).toHaveLength(1);
  });
});

describe("a partner's own middleware error passes through unchanged", () => {
  it.each(['get', 'GET'] as const)('%s: the error onResponse throws, sent once', async (form) => {
    const server = await serve(whole(ORDERS));
    const client = createClient({ secretKey: KEY, baseUrl: server.baseUrl, telemetry: false, retry: quick });
    const mine = new TypeError('terminated');
    client.use({
      onResponse() {
        throw mine;
      },
    });
    const error = await caught(form === 'get' ? client.get('/orders') : client.GET('/orders'));
    expect(error).toBe(mine);
    expect(server.received).toHaveLength(1);
  });

  it.each(['get', 'GET'] as const)('%s: the error onRequest throws, nothing sent', async (form) => {
    const server = await serve(whole(ORDERS));
    const client = createClient({ secretKey: KEY, baseUrl: server.baseUrl, telemetry: false, retry: quick });
    const mine = new SyntaxError('my check');
    const init = { middleware: [{ onRequest: () => Promise.reject(mine) }] };
    const error = await caught(form === 'get' ? client.get('/orders', init) : client.GET('/orders', init));
    expect(error).toBe(mine);
    expect(server.received).toHaveLength(0);
  });

  it('get(): with a middleware that looks at responses, a cut-off body is still a NetworkError', async () => {
    const server = await serve(cutOff);
    const client = createClient({ secretKey: KEY, baseUrl: server.baseUrl, telemetry: false, retry: quick });
    const seen: number[] = [];
    client.use({
      onResponse({ response }) {
        seen.push(response.status);
      },
    });
    const error = await caught(client.get('/orders'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ attempts: 3 });
    expect(seen).toEqual([200, 200, 200]);
  });
});

describe('telemetry of a call whose body could not be read', () => {
  const contextManager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    context.setGlobalContextManager(contextManager.enable());
  });
  afterAll(() => {
    context.disable();
    trace.disable();
  });

  it('the span ends as the failure (network_error), with the retries as events; a re-read that works is OK', async () => {
    for (const [answers, type] of [
      [[cutOff], 'network_error'],
      [[whole('{"orders":[')], 'unexpected_response'],
      [[cutOff, whole(ORDERS)], undefined],
    ] as const) {
      const sdk = otel();
      const server = await serve(...answers);
      const client = createClient({
        secretKey: KEY,
        baseUrl: server.baseUrl,
        rateLimit: false,
        retry: quick,
        telemetry: { tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider },
      });
      await caught(client.get('/orders'));
      const span = only(await sdk.spans(), 'listOrders');
      expect(span.attributes['error.type']).toBe(type);
      expect(span.status.code).toBe(type ? SpanStatusCode.ERROR : SpanStatusCode.UNSET);
      expect(span.events.filter((e) => e.name === 'partner_print.retry')).toHaveLength(
        server.received.length - 1,
      );
      expect(`${span.status.message} ${JSON.stringify(span.attributes)}`).not.toContain(KEY);
    }
  });
});

describe('createOrder after a POST /orders whose answer was cut off', () => {
  it('settles by looking the identifier up: the order it made, created, posted once', async () => {
    const sandbox = createSandbox({ rateLimits: false, jitter: 0 });
    const send = withSignal(sandbox);
    let posts = 0;
    const client = createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      clock: sandbox.clock,
      telemetry: false,
      fetch: async (request, init) => {
        const response = await send(request, init);
        if (request.method !== 'POST' || !request.url.endsWith('/v2/orders')) return response;
        posts++;
        // The service stored the order; its answer breaks off after the headers, as a dropped socket does.
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"order":{"refer'));
            controller.error(new TypeError('terminated'));
          },
        });
        return new Response(body, { status: response.status, headers: response.headers });
      },
    });
    const result = await createOrder(client, {
      storeReference: ref('Store', sandbox.seed.stores.combined),
      shippingKind: 'combined',
      customIdentifier: 'cart-cut-off',
      orderlines: [{ productReference: ref('Product', sandbox.seed.products.nonPrint), quantity: 1 }],
    });
    expect(result.created).toBe(true);
    expect(result.order.reference).toMatch(/^Order_/);
    expect(posts).toBe(1);
  });
});
