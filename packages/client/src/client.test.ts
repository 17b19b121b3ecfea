import type { CombinedOrderRequest } from '@partner-print/openapi';
import { describe, expect, it } from 'vitest';
import { timeWithoutStalls } from '../../../test-utils/stall.ts';
import { unhandledDuring } from '../../../test-utils/unhandled.ts';
import { BASE, fakeFetch, JPEG, json, KEY, OPS, PNG, testClock } from '../test/fake.ts';
import { type CoreOptions, createCore } from './client.ts';
import { MIGRATION_GUIDE } from './config.ts';
import { DOCS_URL } from './docs.ts';
import {
  AbortedError,
  AmbiguousOutcomeError,
  AuthenticationError,
  ConfigurationError,
  GoneError,
  NetworkError,
  NotFoundError,
  PartnerPrintError,
  RateLimitedError,
  RendertokenLimitError,
  TimeoutError,
  V1CredentialsError,
  ValidationError,
} from './errors.ts';
import { withHelpers } from './helpers.ts';
import type { ClientEvent } from './transport.ts';

type Handler = Parameters<typeof fakeFetch>[0];
type Client = ReturnType<typeof setup>['client'];

function setup(handler: Handler, options: Partial<CoreOptions<never>> = {}) {
  const { fetch, seen } = fakeFetch(handler);
  const clock = testClock();
  const events: Array<[string, ClientEvent]> = [];
  const client = withHelpers(
    Object.assign(
      createCore<never>(
        {
          secretKey: KEY,
          baseUrl: BASE,
          fetch,
          clock,
          hooks: {
            request: (e) => events.push(['request', e]),
            response: (e) => events.push(['response', e]),
            retry: (e) => events.push(['retry', e]),
            error: (e) => events.push(['error', e]),
          },
          ...options,
        },
        { operations: OPS, userAgent: 'test-agent/1' },
      ),
      { scheduler: undefined },
    ),
  );
  return { client, seen, clock, events };
}

const ORDER: CombinedOrderRequest = {
  storeReference: 'Store_x',
  shippingKind: 'combined',
  orderlines: [{ productReference: 'Product_x', imageReference: 'Image_x', quantity: 1 }],
};

describe('requests', () => {
  it('sends the key only as X-Service-Secret-Key, with the user agent', async () => {
    const { client, seen } = setup(() => json({ order: { reference: 'Order_1' } }));
    await expect(
      client.get('/orders/{orderReference}', { params: { path: { orderReference: 'Order_1' } } }),
    ).resolves.toEqual({
      order: { reference: 'Order_1' },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe(`${BASE}/orders/Order_1`);
    expect(seen[0]!.headers.get('x-service-secret-key')).toBe(KEY);
    expect(seen[0]!.headers.get('user-agent')).toBe('test-agent/1');
    const others = [...seen[0]!.headers].filter(
      ([name, value]) => name !== 'x-service-secret-key' && value.includes(KEY),
    );
    expect(others).toEqual([]);
    expect(seen[0]!.url).not.toContain(KEY);
  });

  it('keeps { data, error, response } on the raw methods', async () => {
    const { client } = setup(() => json({ code: 'missing_address', message: 'no address' }, 422));
    const result = await client.POST('/orders', { body: { order: ORDER } });
    expect(result.error).toEqual({ code: 'missing_address', message: 'no address' });
    expect(result.response.status).toBe(422);
  });

  it('refuses V1 credential headers before sending anything', async () => {
    const { client, seen } = setup(() => json({}));
    const error = await client
      .get('/orders', { headers: { 'X-Partner-Code': 'ACME', 'X-Api-Key': 'v1key' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(V1CredentialsError);
    expect((error as Error).message).toContain(MIGRATION_GUIDE);
    expect(MIGRATION_GUIDE).toMatch(/^https:\/\//);
    expect((error as Error).message).toContain('X-Service-Secret-Key');
    expect(seen).toHaveLength(0);
  });

  it('refuses V1 headers on the raw methods too, in any shape, and ignores headers set to null', async () => {
    const { client, seen } = setup(() => json({ orders: [], nextCursor: null }));
    const refused = [
      client.GET('/orders', { headers: new Headers({ 'X-Api-Key': 'v1key' }) }),
      client.POST('/orders', { body: { order: ORDER }, headers: [['partner_code', 'ACME']] }),
      client.request('get', '/orders', { params: { header: { 'X-Partner-Code': 'ACME' } } } as never),
    ];
    for (const call of refused) await expect(call).rejects.toBeInstanceOf(V1CredentialsError);
    expect(seen).toHaveLength(0);
    await expect(client.GET('/orders', { headers: { 'X-Api-Key': null } })).resolves.toMatchObject({
      data: { orders: [] },
    });
    expect(seen).toHaveLength(1);
  });

  it('refuses a missing key and bad base URLs at creation', () => {
    expect(() => createCore({ secretKey: '', baseUrl: BASE }, { operations: OPS, userAgent: 'x' })).toThrow(
      /secretKey is empty/,
    );
    expect(() =>
      createCore(
        { secretKey: KEY, baseUrl: 'http://api.example.com/v2' },
        { operations: OPS, userAgent: 'x' },
      ),
    ).toThrow(/https/);
    expect(() =>
      createCore(
        { secretKey: KEY, baseUrl: 'https://api.example.com/v1' },
        { operations: OPS, userAgent: 'x' },
      ),
    ).toThrow(V1CredentialsError);
  });
});

describe('errors', () => {
  it.each([
    [401, {}, AuthenticationError],
    [403, {}, AuthenticationError],
    [404, {}, NotFoundError],
    [410, {}, GoneError],
    [400, { code: 'bad' }, ValidationError],
    [409, { code: 'conflict' }, ValidationError],
    [422, { code: 'missing_image_reference' }, ValidationError],
  ] as const)('maps %i to %s', async (status, body, Class) => {
    const { client } = setup(() => json({ message: 'nope', ...body }, status, { 'x-request-id': 'req_1' }));
    const error = (await client.get('/orders').catch((e: unknown) => e)) as PartnerPrintError;
    expect(error).toBeInstanceOf(Class);
    expect(error.status).toBe(status);
    expect(error.operation).toBe('listOrders');
    expect(error.method).toBe('GET');
    expect(error.path).toBe('/orders');
    expect(error.requestId).toBe('req_1');
    expect(error.message).toContain('nope');
  });

  it('reads code, Retry-After and the rate-limit headers of a 429', async () => {
    const { client } = setup(
      () =>
        json({ code: 'rate_limited', message: 'slow down' }, 429, {
          'retry-after': '17',
          'x-ratelimit-policy': '"default";q=3000;w=60',
          'x-ratelimit': '"default";r=0;t=17',
        }),
      { retry: false },
    );
    const error = (await client.get('/orders').catch((e: unknown) => e)) as RateLimitedError;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.code).toBe('rate_limited');
    expect(error.retryAfter).toBe(17);
    expect(error.rateLimit).toMatchObject({ policy: '"default";q=3000;w=60', limit: '"default";r=0;t=17' });
  });

  it('gives rendertoken_limit_exceeded its own class with resetsAt', async () => {
    const { client, seen, clock } = setup(() =>
      json({ code: 'rendertoken_limit_exceeded', message: 'no tokens' }, 429, { 'retry-after': '3600' }),
    );
    const error = (await client
      .post('/renders', {
        body: { render: { compositionReference: 'Composition_c', imageReference: 'Image_i' } },
      })
      .catch((e: unknown) => e)) as RendertokenLimitError;
    expect(error).toBeInstanceOf(RendertokenLimitError);
    expect(error.resetsAt?.getTime()).toBe(clock.now() + 3_600_000);
    expect(seen).toHaveLength(1); // waiting for the weekly reset inside a call is pointless
  });
});

describe('hooks and logger that fail', () => {
  it('change nothing of the call, whether they throw or reject (async), and leave no unhandled rejection', async () => {
    // An unhandled rejection ends a Node.js process by default: an async hook would take the program down.
    const heard: string[] = [];
    const unhandled = await unhandledDuring(async () => {
      const { client, seen } = setup(
        (_, n) => (n < 2 ? json({}, 503) : json({ orders: [], nextCursor: null })),
        {
          hooks: {
            request: () => {
              heard.push('request');
              throw new Error('hook down');
            },
            response: async () => {
              heard.push('response');
              throw new Error('async hook down');
            },
            retry: async () => {
              heard.push('retry');
              throw new Error('async hook down');
            },
          },
          logger: {
            debug: async () => {
              heard.push('debug');
              throw new Error('async logger down');
            },
          },
          logLevel: 'debug',
        },
      );
      await expect(client.get('/orders')).resolves.toEqual({ orders: [], nextCursor: null });
      expect(seen).toHaveLength(2);
    });
    expect(heard).toEqual(expect.arrayContaining(['request', 'response', 'retry', 'debug']));
    expect(unhandled).toEqual([]);
  });
});

describe('retries', () => {
  it('retries a GET on 5xx with backoff and reports each attempt to the hooks', async () => {
    const { client, seen, clock, events } = setup((_, n) =>
      n < 3 ? json({}, 503) : json({ orders: [], nextCursor: null }),
    );
    await expect(client.get('/orders')).resolves.toEqual({ orders: [], nextCursor: null });
    expect(seen).toHaveLength(3);
    expect(clock.slept).toHaveLength(2);
    expect(clock.slept[0]).toBeLessThan(500);
    expect(clock.slept[1]).toBeLessThan(1000);
    expect(events.map(([name, e]) => `${name}:${e.attempt}:${e.status ?? ''}`)).toEqual([
      'request:1:',
      'response:1:503',
      'retry:1:503',
      'request:2:',
      'response:2:503',
      'retry:2:503',
      'request:3:',
      'response:3:200',
    ]);
    for (const [, e] of events) {
      expect(e.operation).toBe('listOrders');
      expect(e.headers.get('x-service-secret-key')).toBe('[redacted]');
    }
  });

  it('honours Retry-After', async () => {
    const { client, clock } = setup((_, n) =>
      n === 1
        ? json({ code: 'rate_limited', message: 'wait' }, 429, { 'retry-after': '2' })
        : json({ orders: [], nextCursor: null }),
    );
    await client.get('/orders');
    expect(clock.slept).toEqual([2000]);
  });

  it("reads a Retry-After date against the answer's Date, not the host's clock (off by years here)", async () => {
    const dated = { date: 'Wed, 25 Nov 2026 10:00:00 GMT', 'retry-after': 'Wed, 25 Nov 2026 10:00:02 GMT' };
    const { client, clock } = setup((_, n) =>
      n === 1
        ? json({ code: 'rate_limited', message: 'wait' }, 429, dated)
        : n === 3
          ? new Response(null, { status: 202, headers: dated })
          : json({ orders: [], nextCursor: null }),
    );
    await client.get('/orders');
    await client.download('/renders/{renderReference}/media', {
      params: { path: { renderReference: 'Render_x' } },
    });
    expect(clock.slept).toEqual([2000, 2000]);
  });

  it('does not wait longer than maxElapsedMs', async () => {
    const { client, seen } = setup(() =>
      json({ code: 'rate_limited', message: 'wait' }, 429, { 'retry-after': '120' }),
    );
    await expect(client.get('/orders')).rejects.toBeInstanceOf(RateLimitedError);
    expect(seen).toHaveLength(1);
  });

  it('retries any method on 429, with a fresh copy of the body', async () => {
    const { client, seen } = setup((_, n) =>
      n === 1
        ? json({ code: 'rate_limited', message: 'wait' }, 429, { 'retry-after': '1' })
        : json({ order: { reference: 'Order_1' } }),
    );
    await client.post('/orders', { body: { order: ORDER } });
    expect(seen).toHaveLength(2);
    expect(new TextDecoder().decode(seen[1]!.body)).toBe(JSON.stringify({ order: ORDER }));
  });

  it('retries network errors on GET, then throws NetworkError', async () => {
    const { client, seen, events } = setup(() => {
      throw new TypeError('fetch failed');
    });
    const error = (await client.get('/orders').catch((e: unknown) => e)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.operation).toBe('listOrders');
    expect(seen).toHaveLength(3);
    expect(events.filter(([n]) => n === 'error')).toHaveLength(1);
  });

  it('retries uploads (same bytes, same reference) on 5xx and network errors', async () => {
    const { client, seen } = setup((_, n) => {
      if (n === 1) throw new TypeError('socket hang up');
      if (n === 2) return json({}, 502);
      return json({ image: { reference: 'Image_1' } });
    });
    await expect(client.uploadImage(JPEG)).resolves.toBe('Image_1');
    expect(seen).toHaveLength(3);
    expect(seen.every((s) => s.body.length === JPEG.length)).toBe(true);
  });

  it('never repeats POST /renders after an ambiguous failure', async () => {
    const { client, seen } = setup(() => json({ message: 'oops' }, 500));
    const error = await client
      .post('/renders', {
        body: { render: { compositionReference: 'Composition_c', imageReference: 'Image_i' } },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousOutcomeError);
    expect((error as AmbiguousOutcomeError).cause).toBeInstanceOf(PartnerPrintError);
    expect(seen).toHaveLength(1);
  });

  it('times out per attempt, and retries a GET after a timeout', async () => {
    const { client, seen } = setup(
      (_, n) => (n === 1 ? new Promise<Response>(() => {}) : json({ orders: [], nextCursor: null })),
      { timeoutMs: 20 },
    );
    await expect(client.get('/orders')).resolves.toEqual({ orders: [], nextCursor: null });
    expect(seen).toHaveLength(2);
  });

  it('aborts the signal it hands a transport that reads init.signal', async () => {
    const signals: AbortSignal[] = [];
    const client = createCore<never>(
      {
        secretKey: KEY,
        baseUrl: BASE,
        clock: testClock(),
        timeoutMs: 10,
        retry: false,
        fetch: (_req, init) => {
          signals.push(init!.signal);
          return new Promise<Response>(() => {});
        },
      },
      { operations: OPS, userAgent: 'x' },
    );
    await expect(client.get('/orders')).rejects.toBeInstanceOf(TimeoutError);
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[0]!.reason).toBeInstanceOf(TimeoutError);
  });

  it('forwards the abort of the caller to the signal of the transport', async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const client = createCore<never>(
      {
        secretKey: KEY,
        baseUrl: BASE,
        clock: testClock(),
        fetch: (_req, init) => {
          seen = init!.signal;
          controller.abort(new Error('stop'));
          return new Promise<Response>(() => {});
        },
      },
      { operations: OPS, userAgent: 'x' },
    );
    await expect(client.get('/orders', { signal: controller.signal })).rejects.toThrow('stop');
    expect(seen?.aborted).toBe(true);
  });

  it('throws TimeoutError when every attempt times out', async () => {
    const { client } = setup(() => new Promise<Response>(() => {}), {
      timeoutMs: 10,
      retry: { attempts: 2 },
    });
    await expect(client.get('/orders')).rejects.toBeInstanceOf(TimeoutError);
  });

  it('stops on abort with the signal reason', async () => {
    const controller = new AbortController();
    const { client, seen } = setup(() => {
      controller.abort(new Error('user gave up'));
      return json({}, 503);
    });
    await expect(client.get('/orders', { signal: controller.signal })).rejects.toThrow('user gave up');
    expect(seen).toHaveLength(1);
  });
});

describe('lookupOrderReference', () => {
  it.each([
    [{ orderReference: 'Order_a' }, 'Order_a'],
    [{ order: { reference: 'Order_b' } }, 'Order_b'],
    [{ orderReference: null }, null],
    [{}, null],
  ])('reads %j defensively', async (body, expected) => {
    const { client } = setup(() => json(body));
    await expect(client.lookupOrderReference('id')).resolves.toBe(expected);
  });
});

describe('paginate', () => {
  const pages: Record<string, unknown> = {
    '': { claims: [{ reference: 'Claim_1' }, { reference: 'Claim_2' }], nextCursor: 'c1' },
    c1: { nextCursor: 'c2', claims: [{ reference: 'Claim_3' }, { reference: 'Claim_4' }] },
    c2: { claims: [], nextCursor: null },
  };
  const handler: Handler = (req) => json(pages[new URL(req.url).searchParams.get('cursor') ?? '']);

  it('follows nextCursor through an empty last page, passing the other query parameters on', async () => {
    const { client, seen } = setup(handler);
    const refs: string[] = [];
    for await (const claim of client.paginate('/claims', {
      params: { query: { closedAfter: '2026-01-01' } },
    }))
      refs.push((claim as { reference: string }).reference);
    expect(refs).toEqual(['Claim_1', 'Claim_2', 'Claim_3', 'Claim_4']);
    expect(seen.map((s) => new URL(s.url).search)).toEqual([
      '?closedAfter=2026-01-01',
      '?closedAfter=2026-01-01&cursor=c1',
      '?closedAfter=2026-01-01&cursor=c2',
    ]);
  });

  it('collect stops requesting once it has max items', async () => {
    const { client, seen } = setup(handler);
    await expect(client.collect('/claims', undefined, { max: 2 })).resolves.toHaveLength(2);
    expect(seen).toHaveLength(1);
    await expect(client.collect('/claims', undefined, { max: 3 })).resolves.toHaveLength(3);
    await expect(client.collect('/claims')).resolves.toHaveLength(4);
  });

  it('never reuses a cursor', async () => {
    const { client } = setup(() => json({ claims: [{}], nextCursor: 'same' }));
    await expect(client.collect('/claims')).rejects.toThrow(/cursor/);
  });

  it('refuses a response without a list', async () => {
    const { client } = setup(() => json({ order: {} }));
    await expect(client.collect('/orders/{orderReference}' as '/orders')).rejects.toThrow(/not a list/);
  });
});

describe('uploads', () => {
  it.each([
    ['Uint8Array', () => JPEG],
    ['ArrayBuffer', () => PNG.slice().buffer],
    ['Blob', () => new Blob([JPEG])],
    ['ReadableStream', () => new Blob([PNG.subarray(0, 3), PNG.subarray(3)]).stream()],
  ])('sends a %s as raw octet-stream bytes', async (_, make) => {
    const { client, seen } = setup(() => json({ evidence: { reference: 'Evidence_1' } }));
    await expect(client.uploadEvidence(make())).resolves.toBe('Evidence_1');
    expect(seen[0]!.headers.get('content-type')).toBe('application/octet-stream');
    expect(seen[0]!.url).toBe(`${BASE}/evidence`);
    expect([0xff, 0x89]).toContain(seen[0]!.body[0]);
  });

  it.each([
    ['GIF', new TextEncoder().encode('GIF89a....')],
    ['empty', new Uint8Array()],
    ['truncated JPEG', new Uint8Array([0xff, 0xd8])],
  ])('refuses %s before sending', async (_, bytes) => {
    const { client, seen } = setup(() => json({}));
    const error = (await client.uploadImage(bytes).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe('unsupported_image_format');
    expect(error.message).toMatch(/JPEG or PNG/);
    expect(seen).toHaveLength(0);
  });

  it.each([
    ['an abort', () => new Error('page closed'), AbortedError, 'aborted'],
    [
      'a timeout',
      () => new DOMException('The operation timed out.', 'TimeoutError'),
      TimeoutError,
      'timeout',
    ],
  ] as const)(
    "%s of the caller's signal ends the reading of a stream that stalls; nothing is sent",
    async (_, reason, Class, code) => {
      const { client, seen } = setup(() => json({ image: { reference: 'Image_1' } }));
      let cancelled: unknown;
      // A source that sends the JPEG signature, then nothing (a stalled download being passed on).
      const stalled = new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(JPEG),
        cancel: (why) => {
          cancelled = why;
        },
      });
      const controller = new AbortController();
      setTimeout(() => controller.abort(reason()), 20);
      const error = await Promise.race([
        client.uploadImage(stalled, { signal: controller.signal }).catch((e: unknown) => e),
        new Promise((resolve) => setTimeout(() => resolve('still pending after 2 s'), 2_000)),
      ]);
      expect(error).toBeInstanceOf(Class);
      expect(error).toMatchObject({ code, operation: 'uploadImage', method: 'POST', path: '/images' });
      expect(cancelled).toBe(controller.signal.reason);
      expect(seen).toHaveLength(0);
    },
  );

  it('an aborted signal stops an upload before its stream is read', async () => {
    const { client, seen } = setup(() => json({ image: { reference: 'Image_1' } }));
    let pulled = 0;
    const source = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        pulled++;
        controller.enqueue(JPEG);
        controller.close();
      },
    });
    const error = await client
      .uploadImage(source, { signal: AbortSignal.abort(new Error('gone')) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect(seen).toHaveLength(0);
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('refuses values that are not bytes', async () => {
    const { client } = setup(() => json({}));
    await expect(client.uploadImage('not bytes' as never)).rejects.toThrow(/Uint8Array/);
  });
});

describe('download', () => {
  const media = (n: number) =>
    n < 3
      ? new Response(null, { status: 202, headers: { 'retry-after': '5' } })
      : new Response(PNG, { headers: { 'content-type': 'image/png' } });
  const init = { params: { path: { renderReference: 'Render_1' } } } as const;

  it('waits out 202 + Retry-After and returns bytes', async () => {
    const { client, clock } = setup((_, n) => media(n));
    const result = await client.download('/renders/{renderReference}/media', init);
    expect(result).toEqual({ pending: false, data: PNG, contentType: 'image/png' });
    expect(clock.slept).toEqual([5000, 5000]);
  });

  it.each(['0', '0.2', 'Mon, 01 Jan 2018 00:00:00 GMT'])(
    'waits at least a second after a 202 with Retry-After %j (not a loop of requests)',
    async (retryAfter) => {
      const { client, clock, seen } = setup((_, n) =>
        n < 3
          ? new Response(null, { status: 202, headers: { 'retry-after': retryAfter } })
          : new Response(PNG, { headers: { 'content-type': 'image/png' } }),
      );
      await expect(client.download('/renders/{renderReference}/media', init)).resolves.toMatchObject({
        data: PNG,
      });
      expect(clock.slept).toEqual([1000, 1000]);
      expect(seen).toHaveLength(3);
    },
  );

  it('a file that stays 202 with Retry-After: 0 is asked for once a second until maxWaitMs', async () => {
    // Bounded for the failing case: the 51st ask is a 404.
    const { client, clock, seen } = setup((_, n) =>
      n > 50
        ? json({ code: 'not_found', message: 'gone' }, 404)
        : new Response(null, { status: 202, headers: { 'retry-after': '0' } }),
    );
    const error = await client
      .download('/renders/{renderReference}/media', init, { maxWaitMs: 5_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'timeout', retryAfter: 0, operation: 'getRenderMedia' });
    expect(seen).toHaveLength(6);
    expect(clock.slept).toEqual([1000, 1000, 1000, 1000, 1000]);
  });

  // Like every other error of a call that sent a request: the requests sent and the time waited between them.
  it("download's own errors carry attempts and retryDelayMs: maxWaitMs passed, an abort while waiting", async () => {
    const pending = () => new Response(null, { status: 202, headers: { 'retry-after': '5' } });
    const timedOut = await setup(pending)
      .client.download('/renders/{renderReference}/media', init, { maxWaitMs: 12_000 })
      .catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(TimeoutError);
    expect(timedOut).toMatchObject({ code: 'timeout', attempts: 3, retryDelayMs: 10_000 });

    const controller = new AbortController();
    const { client } = setup((_, n) => {
      if (n === 2) controller.abort(new Error('page closed'));
      return pending();
    });
    const aborted = await client
      .download('/renders/{renderReference}/media', { ...init, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(aborted).toBeInstanceOf(AbortedError);
    expect(aborted).toMatchObject({ code: 'aborted', attempts: 2, retryDelayMs: 5_000 });

    // A file cut off mid-read after a 202: the ask that was pending counts with the reads.
    const cut = () =>
      new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(PNG);
            c.error(new TypeError('terminated'));
          },
        }),
        { headers: { 'content-type': 'image/png' } },
      );
    const reads = setup((_, n) => (n === 1 ? pending() : cut()));
    const error = await reads.client
      .download('/renders/{renderReference}/media', init)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ attempts: 4 });
    expect((error as NetworkError).retryDelayMs).toBe(reads.clock.slept.reduce((a, b) => a + b));
    expect(reads.clock.slept[0]).toBe(5_000);
  });

  // The download is one call: an error of one of its requests counts the requests and waits before it too.
  it("an error of a request inside download carries the whole download's attempts and retryDelayMs", async () => {
    const pending = () => new Response(null, { status: 202, headers: { 'retry-after': '5' } });
    const { client, seen } = setup((_, n) =>
      n < 3 ? pending() : json({ code: 'not_found', message: 'no' }, 404),
    );
    const notFound = await client.download('/renders/{renderReference}/media', init).catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(seen).toHaveLength(3);
    expect(notFound).toMatchObject({ status: 404, attempts: 3, retryDelayMs: 10_000 });

    // A request that spent retries of its own (two 503s, then a failed connection) after one 202.
    const failing = setup((_, n) => {
      if (n === 1) return pending();
      if (n < 4) return json({ code: 'server_error', message: 'busy' }, 503);
      throw new TypeError('fetch failed');
    });
    const lost = await failing.client
      .download('/renders/{renderReference}/media', init)
      .catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(NetworkError);
    expect(failing.seen).toHaveLength(4);
    expect(lost).toMatchObject({ attempts: 4 });
    // Its message says what the field says (the download's requests, not only the request's own).
    expect((lost as NetworkError).message).toMatch(/ after 4 attempts$/);
    expect((lost as NetworkError).retryDelayMs).toBeCloseTo(
      failing.clock.slept.reduce((a, b) => a + b),
      6,
    );
    expect(failing.clock.slept[0]).toBe(5_000);
  });

  it('returns a pending result with wait: false', async () => {
    const { client } = setup((_, n) => media(n));
    await expect(client.download('/renders/{renderReference}/media', init, { wait: false })).resolves.toEqual(
      {
        pending: true,
        retryAfter: 5,
      },
    );
  });

  it('returns a Blob or a stream', async () => {
    const blob = await setup((_, n) => media(n + 2)).client.download(
      '/renders/{renderReference}/media',
      init,
      { as: 'blob' },
    );
    expect(blob.data).toBeInstanceOf(Blob);
    const stream = await setup((_, n) => media(n + 2)).client.download(
      '/renders/{renderReference}/media',
      init,
      { as: 'stream' },
    );
    expect(new Uint8Array(await new Response(stream.data as ReadableStream).arrayBuffer())).toEqual(PNG);
  });

  it('gives up waiting after maxWaitMs', async () => {
    const { client } = setup(() => new Response(null, { status: 202, headers: { 'retry-after': '60' } }));
    await expect(
      client.download('/renders/{renderReference}/media', init, { maxWaitMs: 100_000 }),
    ).rejects.toBeInstanceOf(TimeoutError);
  });

  it('throws NotFoundError for an unknown render', async () => {
    const { client } = setup(() => json({ code: 'not_found', message: 'no render' }, 404));
    await expect(client.download('/renders/{renderReference}/media', init)).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

const MEDIA = '/renders/{renderReference}/media';
const RENDER = { params: { path: { renderReference: 'Render_1' } } } as const;

describe('per-request options', () => {
  it('timeoutMs and retry of a call override the client for that call only', async () => {
    const { client, seen } = setup(
      (_, n) => (n <= 2 ? new Promise<Response>(() => {}) : json({ orders: [] })),
      {
        timeoutMs: 60_000,
        retry: { attempts: 1 },
      },
    );
    // Timed without the process's stalls: the call's own 20 ms attempts count, a starved machine does not.
    const { result, ms } = await timeWithoutStalls(() =>
      client.get('/orders', { timeoutMs: 20, retry: { attempts: 3 } }),
    );
    expect(result).toEqual({ orders: [] });
    expect(seen).toHaveLength(3);
    expect(ms).toBeLessThan(5_000);
    await expect(client.GET('/orders', { timeoutMs: 20, retry: false })).resolves.toMatchObject({
      data: { orders: [] },
    });
  });

  it.each<[string, object]>([
    ['the client', { retry: { attempts: Number.NaN } }],
    ['the client', { retry: { baseDelayMs: -500 } }],
    ['the client', { retry: { maxElapsedMs: Number.NaN } }],
    ['the client', { retry: { attemps: 5 } }],
  ])('refuses a retry field that is not a count or a number of ms ≥ 0: %s, %o', (_, options) => {
    expect(() => setup(() => json({}), options as never)).toThrow(ConfigurationError);
    expect(() => setup(() => json({}), options as never)).toThrow(/retry/);
  });

  it('a retry field given as undefined keeps the value under it (not: no retries at all)', async () => {
    const config: { attempts?: number; maxElapsedMs?: number } = {}; // e.g. read from a partner's settings
    const answer = (_: Request, n: number) =>
      n < 3 ? json({ code: 'server_error', message: 'busy' }, 503) : json({ orders: [] });
    const viaClient = setup(answer, {
      retry: { attempts: config.attempts, maxElapsedMs: config.maxElapsedMs },
    });
    await expect(viaClient.client.get('/orders')).resolves.toEqual({ orders: [] });
    expect(viaClient.seen).toHaveLength(3);
    const viaCall = setup(answer);
    await expect(
      viaCall.client.get('/orders', {
        retry: { attempts: config.attempts, maxElapsedMs: config.maxElapsedMs },
      }),
    ).resolves.toEqual({ orders: [] });
    expect(viaCall.seen).toHaveLength(3);
  });

  it('retry: false on a helper makes one attempt', async () => {
    const { client, seen } = setup(() => json({}, 503));
    await expect(client.uploadImage(JPEG, { retry: false })).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(1);
  });

  it.each([
    ['get', (c: Client) => c.get('/orders', { singal: new AbortController().signal } as never)],
    ['GET', (c: Client) => c.GET('/orders', { timeoutMS: 5 } as never)],
    ['request', (c: Client) => c.request('get', '/orders', { fetch: globalThis.fetch } as never)],
    ['paginate', (c: Client) => c.collect('/orders', { max: 5 } as never)],
    ['uploadImage', (c: Client) => c.uploadImage(JPEG, { params: {} } as never)],
    ['a timeoutMs that is not a number', (c: Client) => c.get('/orders', { timeoutMs: '5' } as never)],
    ['a retry that is not an object', (c: Client) => c.get('/orders', { retry: 3 } as never)],
    ['retry.attempts NaN', (c: Client) => c.get('/orders', { retry: { attempts: Number.NaN } })],
    ['retry.maxElapsedMs negative', (c: Client) => c.get('/orders', { retry: { maxElapsedMs: -1 } })],
    [
      'retry.baseDelayMs a string',
      (c: Client) => c.get('/orders', { retry: { baseDelayMs: '500' } as never }),
    ],
    ['retry.maxDelayMs NaN', (c: Client) => c.uploadImage(JPEG, { retry: { maxDelayMs: Number.NaN } })],
    ['an unknown retry key', (c: Client) => c.get('/orders', { retry: { maxAttempts: 5 } as never })],
    [
      'download maxWaitMs NaN (it waited forever)',
      (c: Client) => c.download(MEDIA, RENDER, { maxWaitMs: Number.NaN }),
    ],
    [
      'download maxWaitMs a string',
      (c: Client) => c.download(MEDIA, RENDER, { maxWaitMs: '60000' as never }),
    ],
    [
      'collect max NaN (it returned no items)',
      (c: Client) => c.collect('/orders', undefined, { max: Number.NaN }),
    ],
    ['collect max negative', (c: Client) => c.collect('/orders', undefined, { max: -1 })],
    // The call's signal put beside download's or collect's own options, where it was ignored: a download
    // waiting out 202s, or a collect of every page, that the caller believed it could abort.
    [
      'download: signal among its own options (it belongs in the call options, the second argument)',
      (c: Client) => c.download(MEDIA, RENDER, { as: 'stream', signal: AbortSignal.timeout(5_000) } as never),
    ],
    [
      'collect: signal among its own options (it belongs in the call options, the second argument)',
      (c: Client) =>
        c.collect('/orders', undefined, { max: 10, signal: AbortSignal.timeout(5_000) } as never),
    ],
    ['download: a typo (maxWait)', (c: Client) => c.download(MEDIA, RENDER, { maxWait: 1_000 } as never)],
  ])('refuses an unknown or wrong option at run time: %s', async (_, call) => {
    const { client, seen } = setup(() => json({ orders: [] }));
    const error = await call(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/unknown option|must be/);
    expect(seen).toHaveLength(0);
  });
});

describe('observability', () => {
  it('a logger gets redacted lines at its levels: attempts at debug, retries at warn, failures at error', async () => {
    const lines: Array<[string, string, Record<string, unknown>]> = [];
    const logger = Object.fromEntries(
      (['debug', 'info', 'warn', 'error'] as const).map((level) => [
        level,
        (message: string, fields: Record<string, unknown>) => lines.push([level, message, fields]),
      ]),
    );
    const { client } = setup(
      () => {
        throw new TypeError(`fetch failed for ${KEY}`);
      },
      { logger, logLevel: 'debug', retry: { attempts: 2 } },
    );
    await client.get('/orders').catch(() => {});
    expect(lines.map(([level]) => level)).toEqual(['debug', 'warn', 'debug', 'error']);
    expect(lines[3]![1]).toMatch(/^listOrders: fetch failed for \[redacted\] after 2 attempts$/);
    expect(JSON.stringify(lines)).not.toContain(KEY);

    lines.length = 0;
    const quiet = setup(() => json({ orders: [] }), { logger, logLevel: 'warn' }).client;
    await quiet.get('/orders');
    expect(lines).toEqual([]);
  });

  it('response events report queue wait and network time apart', async () => {
    const { client, events } = setup(
      () => new Promise<Response>((r) => setTimeout(() => r(json({ orders: [] })), 30)),
    );
    await client.get('/orders');
    const [, response] = events.find(([name]) => name === 'response')!;
    expect(response.queueMs).toBeGreaterThanOrEqual(0);
    expect(response.queueMs).toBeLessThan(20);
    expect(response.networkMs).toBeGreaterThanOrEqual(25);
    expect(response.durationMs).toBeGreaterThanOrEqual(response.networkMs!);
  });

  it('NetworkError names the cause chain and the attempts', async () => {
    const { client } = setup(() => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
      });
    });
    const error = (await client.get('/orders').catch((e: unknown) => e)) as NetworkError;
    expect(error.message).toBe(
      'listOrders: fetch failed: connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED) after 3 attempts',
    );
    expect(error.attempts).toBe(3);
    expect((error.cause as Error).message).toBe('fetch failed');
  });

  it('an abort while waiting for a 202 download is an AbortedError', async () => {
    const controller = new AbortController();
    const { client } = setup(() => {
      controller.abort(new Error('page closed'));
      return new Response(null, { status: 202, headers: { 'retry-after': '5' } });
    });
    const error = await client
      .download('/renders/{renderReference}/media', {
        params: { path: { renderReference: 'Render_1' } },
        signal: controller.signal,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toMatchObject({ code: 'aborted', operation: 'getRenderMedia' });
  });

  it("a timeout of the caller's signal while waiting for a 202 download is a TimeoutError", async () => {
    const controller = new AbortController();
    const { client } = setup(() => {
      controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
      return new Response(null, { status: 202, headers: { 'retry-after': '5' } });
    });
    const error = await client
      .download('/renders/{renderReference}/media', {
        params: { path: { renderReference: 'Render_1' } },
        signal: controller.signal,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({
      code: 'timeout',
      operation: 'getRenderMedia',
      path: '/renders/Render_1/media',
    });
  });

  it("errors link to their class's section of the errors page, whatever their code", async () => {
    const { client } = setup(() => json({ code: 'missing_address', message: 'no' }, 422));
    const error = (await client.get('/orders').catch((e: unknown) => e)) as PartnerPrintError;
    expect(error.docUrl).toBe(`${DOCS_URL}#/guide-errors/validationerror`);
    expect(new AuthenticationError('x').docUrl).toBe(`${DOCS_URL}#/guide-errors/authenticationerror`);
    expect(new NotFoundError('x').docUrl).toBe(`${DOCS_URL}#/guide-errors/notfounderror`);
    expect(error.toJSON()).toMatchObject({ name: 'ValidationError', docUrl: error.docUrl });
  });
});
