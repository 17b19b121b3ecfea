// The User-Agent and the secret key on the wire: the client's unless a call's own headers name one (theirs,
// or null for none, undefined left out, as openapi-fetch merges headers), on every attempt, and on the
// Request a middleware sees.
import { describe, expect, it } from 'vitest';
import { BASE, fakeFetch, json, KEY, OPS, testClock } from '../test/fake.ts';
import { createCore } from './client.ts';

const path = '/orders/{orderReference}' as const;
const params = { path: { orderReference: 'Order_1' as const } };

function setup(userAgent?: string, answers: number[] = [200]) {
  const { fetch, seen } = fakeFetch((_req, n) =>
    json({ order: { reference: 'Order_1' } }, answers[n - 1] ?? 200),
  );
  const client = createCore<never>(
    {
      secretKey: KEY,
      baseUrl: BASE,
      fetch,
      clock: testClock(),
      ...(userAgent !== undefined && { userAgent }),
    },
    { operations: OPS, userAgent: 'default-agent/1' },
  );
  const agents = () => seen.map((s) => s.headers.get('user-agent'));
  const keys = () => seen.map((s) => s.headers.get('x-service-secret-key'));
  return { client, agents, keys };
}

// Headers a caller gives that the types do not allow (null, undefined values), as JavaScript callers can.
const loose = (headers: Record<string, string | null | undefined>) => headers as Record<string, string>;

describe('User-Agent', () => {
  it("is the client's: the package's by default, the userAgent option's, none for ''", async () => {
    for (const [option, expected] of [
      [undefined, 'default-agent/1'],
      ['mine/2', 'mine/2'],
      ['', null],
    ] as const) {
      const { client, agents } = setup(option);
      await client.get(path, { params });
      await client.GET(path, { params });
      expect(agents()).toEqual([expected, expected]);
    }
  });

  it("gives way to a call's own, in any case, in headers or params.header, as a record or a Headers", async () => {
    const { client, agents } = setup();
    await client.get(path, { params, headers: { 'user-agent': 'call/1' } });
    await client.get(path, { params, headers: { 'User-Agent': 'call/2' } });
    await client.GET(path, { params: { ...params, header: loose({ 'USER-AGENT': 'call/3' }) } } as never);
    await client.GET(path, { params, headers: new Headers({ 'User-Agent': 'call/4' }) } as never);
    await client.get(path, { params, headers: { 'X-Other': 'x' } });
    expect(agents()).toEqual(['call/1', 'call/2', 'call/3', 'call/4', 'default-agent/1']);
  });

  it("is removed by a call's null and kept through a call's undefined", async () => {
    const { client, agents } = setup();
    await client.get(path, { params, headers: loose({ 'User-Agent': null }) });
    await client.get(path, { params, headers: loose({ 'User-Agent': undefined }) });
    await client.GET(path, { params: { ...params, header: loose({ 'user-agent': null }) } } as never);
    expect(agents()).toEqual([null, 'default-agent/1', null]);
  });

  it('is on every attempt of a retried call', async () => {
    const { client, agents } = setup(undefined, [503, 503, 200]);
    await client.get(path, { params });
    expect(agents()).toEqual(['default-agent/1', 'default-agent/1', 'default-agent/1']);
  });

  it("is on the Request a call's middleware sees", async () => {
    const { client } = setup();
    const seen: Array<string | null> = [];
    const middleware = [
      {
        onRequest: ({ request }: { request: Request }) => {
          seen.push(request.headers.get('user-agent'));
        },
      },
    ];
    await client.get(path, { params, middleware } as never);
    await client.get(path, { params, headers: { 'User-Agent': 'call/1' }, middleware } as never);
    expect(seen).toEqual(['default-agent/1', 'call/1']);
  });

  it('lets a middleware hand on a new Request of its own, as openapi-fetch allows', async () => {
    // openapi-fetch takes a middleware's result as the request only if it is an instance of the Request
    // class it was given: the client's must answer for every Request, not only the ones it made.
    const { client, agents } = setup();
    const middleware = [
      {
        onRequest: ({ request }: { request: Request }) =>
          new Request(request, { headers: { ...Object.fromEntries(request.headers), 'x-trace': 't-1' } }),
      },
    ];
    const read = await client.get(path, { params, middleware } as never);
    expect(read).toEqual({ order: { reference: 'Order_1' } });
    expect(agents()).toEqual(['default-agent/1']);
  });
});

describe('The secret key', () => {
  it("is the client's on every attempt and on the Request a middleware sees, whatever the User-Agent", async () => {
    for (const userAgent of [undefined, '']) {
      const { client, keys } = setup(userAgent, [503, 200, 200]);
      const seen: Array<string | null> = [];
      const middleware = [
        {
          onRequest: ({ request }: { request: Request }) =>
            void seen.push(request.headers.get('x-service-secret-key')),
        },
      ];
      await client.get(path, { params });
      await client.GET(path, { params, middleware } as never);
      expect(keys()).toEqual([KEY, KEY, KEY]);
      expect(seen).toEqual([KEY]);
    }
  });

  it("gives way to a call's own, in any case, in headers or params.header, as a record or a Headers", async () => {
    const { client, keys, agents } = setup();
    await client.get(path, { params, headers: { 'x-service-secret-key': 'sk_test_call1' } });
    await client.GET(path, {
      params: { ...params, header: loose({ 'X-SERVICE-SECRET-KEY': 'sk_test_call2' }) },
    } as never);
    await client.GET(path, {
      params,
      headers: new Headers({ 'X-Service-Secret-Key': 'sk_test_call3' }),
    } as never);
    await client.get(path, { params, headers: { 'User-Agent': 'call/4' } });
    expect(keys()).toEqual(['sk_test_call1', 'sk_test_call2', 'sk_test_call3', KEY]);
    expect(agents()).toEqual(['default-agent/1', 'default-agent/1', 'default-agent/1', 'call/4']);
  });

  it("is removed by a call's null and kept through a call's undefined", async () => {
    const { client, keys } = setup();
    await client.GET(path, { params, headers: loose({ 'X-Service-Secret-Key': null }) } as never);
    await client.get(path, { params, headers: loose({ 'X-Service-Secret-Key': undefined }) });
    await client.GET(path, {
      params: { ...params, header: loose({ 'x-service-secret-key': null }) },
    } as never);
    expect(keys()).toEqual([null, KEY, null]);
  });
});
