// A partner's own fetch that is not the runtime's: npm `undici`'s `fetch` (for its ProxyAgent or MockAgent),
// node-fetch, a test double. Its answers are Response-shaped, but their `headers` are that library's own
// Headers class, not the global one. The key a server echoes in a header of an error answer must still be
// redacted (the README: "also when a server echoes it back in headers"), and what the headers say must still
// be read.
import { describe, expect, it } from 'vitest';
import { createClient, REDACTED } from '../src/index.ts';
import { createClient as createLiteClient } from '../src/lite.ts';
import { ForeignHeaders } from './header-classes.ts';

const KEY = 'sk_test_foreign_headers_0123456789';
const baseUrl = 'http://127.0.0.1:1/v2';

/** The answer such a fetch gives: the Response interface, its headers of the other class. */
function foreignAnswer(status: number, headers: Record<string, string>, body: string) {
  const real = new Response(body, { status, statusText: 'Echo' });
  return {
    ok: real.ok,
    status,
    statusText: real.statusText,
    url: '',
    redirected: false,
    type: 'basic',
    headers: new ForeignHeaders(headers),
    body: real.body,
    get bodyUsed() {
      return real.bodyUsed;
    },
    text: () => real.text(),
    json: () => real.json(),
    arrayBuffer: () => real.arrayBuffer(),
    blob: () => real.blob(),
    clone() {
      throw new Error('not needed');
    },
  } as unknown as Response;
}

const echoing = () =>
  foreignAnswer(
    404,
    { 'content-type': 'application/json', 'x-echo': `echo ${KEY}`, 'x-request-id': 'req-7' },
    JSON.stringify({ code: 'not_found', message: 'No such order' }),
  );

describe.each([
  ['main entry', createClient],
  ['lite entry', createLiteClient],
] as const)('an error answer whose headers are another Headers class (%s)', (_name, create) => {
  it("GET's error result: the echoed key redacted in its headers, the other headers kept", async () => {
    const client = create({ secretKey: KEY, baseUrl, fetch: async () => echoing(), rateLimit: false });
    const { error, response } = await client.GET('/orders/{orderReference}', {
      params: { path: { orderReference: 'Order_00000000000000000000000000' } },
    });
    expect(error).toMatchObject({ code: 'not_found' });
    expect(response.headers.get('x-echo')).toBe(`echo ${REDACTED}`);
    expect(response.headers.get('x-request-id')).toBe('req-7');
    expect(JSON.stringify([...response.headers])).not.toContain(KEY);
  });

  it("get's error: the service's answer read (code, request id), no key", async () => {
    const client = create({ secretKey: KEY, baseUrl, fetch: async () => echoing(), rateLimit: false });
    const error = await client
      .get('/orders/{orderReference}', {
        params: { path: { orderReference: 'Order_00000000000000000000000000' } },
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, code: 'not_found', requestId: 'req-7' });
    expect(JSON.stringify(error)).not.toContain(KEY);
  });
});
