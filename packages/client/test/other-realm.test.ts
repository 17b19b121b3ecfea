// A partner's Jest suite: Jest runs each test file in a vm context of its own, whose ArrayBuffer, Blob and
// Error are not those of Node's internals, so the bytes of `await (await fetch(url)).arrayBuffer()` or
// `fs.readFileSync(file).buffer` come from another realm than the SDK's classes. An upload must take them as the
// README documents (a Uint8Array, ArrayBuffer, Blob, ReadableStream or Node.js stream), whatever realm made them; and the
// errors of Node's own fetch and AbortSignal.timeout, made in that other realm too, must be read as any others.
import vm from 'node:vm';
import { createSandbox } from '@partner-print/sandbox';
import { describe, expect, it } from 'vitest';
import { AbortedError, createClient, NetworkError, redactSecret, TimeoutError } from '../src/index.ts';
import { createClient as createLiteClient, uploadImage } from '../src/lite.ts';
import { errorTypeOf } from '../src/telemetry/attributes.ts';
import { samplePng } from './helpers.ts';

/** `expression` evaluated in a realm of its own, over the bytes of a PNG (`png`, a plain array). */
function fromOtherRealm(expression: string): unknown {
  const context = vm.createContext({ png: Array.from(samplePng()) });
  return vm.runInContext(expression, context);
}

describe.each([
  ['main entry', (c: ReturnType<typeof createClient>, data: unknown) => c.uploadImage(data as never)],
  [
    'lite entry',
    (_c: ReturnType<typeof createClient>, data: unknown, sandbox?: ReturnType<typeof createSandbox>) =>
      uploadImage(
        createLiteClient({
          secretKey: sandbox!.keys.primary,
          baseUrl: sandbox!.baseUrl,
          fetch: sandbox!.fetch,
        }),
        data as never,
      ),
  ],
] as const)('uploadImage of bytes made in another realm (%s)', (_name, upload) => {
  const setup = () => {
    const sandbox = createSandbox();
    const client = createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      fetch: sandbox.fetch,
    });
    return { sandbox, client };
  };

  it.each([
    ['an ArrayBuffer', 'new Uint8Array(png).buffer'],
    ['a Uint8Array', 'new Uint8Array(png)'],
  ])('takes %s', async (_kind, expression) => {
    const { sandbox, client } = setup();
    const data = fromOtherRealm(expression);
    expect(data instanceof ArrayBuffer || data instanceof Uint8Array).toBe(false);
    await expect(upload(client, data, sandbox)).resolves.toMatch(/^Image_/);
  });

  it('still refuses what is no bytes, from any realm', async () => {
    const { sandbox, client } = setup();
    for (const value of [fromOtherRealm('({ byteLength: 8 })'), fromOtherRealm('[137, 80, 78, 71]'), 'png'])
      await expect(upload(client, value, sandbox)).rejects.toMatchObject({ code: 'invalid_upload' });
  });
});

describe("errors made in another realm (Node's own fetch and AbortSignal, seen from a Jest test)", () => {
  const KEY = 'sk_test_other_realm_0123456789';
  const baseUrl = 'http://127.0.0.1:1/v2';

  it('a transport failure names its cause chain and codes in the NetworkError, as for this realm', async () => {
    const failure = fromOtherRealm(`(() => {
      const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9 for ${KEY}'), { code: 'ECONNREFUSED' });
      return new TypeError('fetch failed', { cause });
    })()`);
    expect(failure instanceof Error).toBe(false);
    const client = createClient({
      secretKey: KEY,
      baseUrl,
      fetch: () => Promise.reject(failure),
      retry: false,
    });
    const error = await client.get('/orders').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe(
      'listOrders: fetch failed: connect ECONNREFUSED 127.0.0.1:9 for [redacted] (ECONNREFUSED) after 1 attempt',
    );
    expect((error as Error).cause).toMatchObject({
      name: 'TypeError',
      message: 'fetch failed',
      cause: { code: 'ECONNREFUSED' },
    });
    expect(JSON.stringify(error) + String((error as Error).stack)).not.toContain(KEY);
  });

  it("a signal aborted with another realm's TimeoutError (AbortSignal.timeout's) is a TimeoutError", async () => {
    const reason = fromOtherRealm(
      `Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' })`,
    );
    const client = createClient({ secretKey: KEY, baseUrl, fetch: () => new Promise(() => {}) });
    const controller = new AbortController();
    const call = client.get('/orders', { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort(reason);
    const error = await call;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).not.toBeInstanceOf(AbortedError);
    expect((error as Error).message).toContain('(The operation was aborted due to timeout)');
  });

  it("redactSecret redacts an error of another realm (a caller's abort reason, a hook's value), as one of this realm", () => {
    const error = fromOtherRealm(`new Error('refused for ${KEY}')`);
    expect(error instanceof Error).toBe(false);
    const redacted = redactSecret({ error, list: [error] }, KEY);
    expect(String((redacted.error as Error).message)).toBe('refused for [redacted]');
    expect(String((redacted.list[0] as Error).message)).toBe('refused for [redacted]');
  });

  it("the telemetry's error.type reads another realm's error by its code, else its name", () => {
    const refused = fromOtherRealm(
      `new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) })`,
    );
    expect(errorTypeOf(refused)).toBe('ECONNREFUSED');
    expect(errorTypeOf(fromOtherRealm(`new RangeError('no')`))).toBe('RangeError');
  });
});
