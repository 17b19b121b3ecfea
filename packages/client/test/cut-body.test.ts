// A file whose body is cut off mid-read (the connection closed after part of it): download reads the file
// itself, so the failure is the client's to name (a NetworkError with the call's context, not undici's bare
// `TypeError: terminated`) and, a GET being idempotent, to ask again within the call's retry.attempts,
// maxWaitMs and signal. For `as: 'stream'` the file is read by the caller after download resolved: the
// stream errors with the same NetworkError, without asking again (what was read cannot be taken back).
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { timeWithoutStalls } from '../../../test-utils/stall.ts';
import { AbortedError, createClient, NetworkError } from '../src/index.ts';
import { createClient as createLiteClient, download } from '../src/lite.ts';
import { KEY } from './fake.ts';
import { caught, serverPerTest } from './servers.ts';

const startServer = serverPerTest();

const FILE = new Uint8Array(64 * 1024).map((_, i) => i % 251);

/** Cuts the first `cuts` answers off after part of the file (Infinity: every answer), then sends it whole. */
async function cutting(cuts: number) {
  const server = await startServer((_, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(FILE.length) });
    if (server.received.length > cuts) res.end(FILE);
    else res.write(FILE.subarray(0, 1000), () => res.socket?.destroy());
  });
  return server;
}

const media = { params: { path: { renderReference: 'Render_1' as const } } };
const fast = { baseDelayMs: 5 };

// The lite client names no operation (it holds no operation table); the full client's errors carry it.
const networkError = {
  code: 'network_error',
  method: 'GET',
  path: '/renders/Render_1/media',
};

describe('download of a file whose body is cut off mid-read', () => {
  for (const as of ['bytes', 'blob'] as const) {
    it(`as ${as}: asks again and resolves with the whole file`, async () => {
      const server = await cutting(2);
      const client = createLiteClient({ secretKey: KEY, baseUrl: server.baseUrl, retry: fast });
      const { data } = await download(client, '/renders/{renderReference}/media', media, { as });
      const bytes = data instanceof Blob ? new Uint8Array(await data.arrayBuffer()) : data;
      expect(bytes).toEqual(FILE);
      expect(server.received).toHaveLength(3);
    });

    it(`as ${as}: a NetworkError with the call's context after retry.attempts reads`, async () => {
      const server = await cutting(Number.POSITIVE_INFINITY);
      const client = createLiteClient({ secretKey: KEY, baseUrl: server.baseUrl, retry: fast });
      const error = await caught(download(client, '/renders/{renderReference}/media', media, { as }));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ ...networkError, attempts: 3 });
      expect(server.received).toHaveLength(3);
      // The cause copied with names, messages and codes only (no request, no headers).
      const cause = (error as NetworkError).cause as Error;
      expect(cause).toBeInstanceOf(Error);
      expect(Object.keys(cause).filter((k) => !['name', 'code', 'cause'].includes(k))).toEqual([]);
      expect(JSON.stringify(error)).not.toContain(KEY);
    });
  }

  it("the call's own retry: false reads once; retry.attempts bounds the reads", async () => {
    for (const [retry, sent] of [
      [false, 1],
      [{ attempts: 2, ...fast }, 2],
    ] as const) {
      const server = await cutting(Number.POSITIVE_INFINITY);
      const client = createClient({
        secretKey: KEY,
        baseUrl: server.baseUrl,
        rateLimit: false,
        telemetry: false,
      });
      const error = await caught(client.download('/renders/{renderReference}/media', { ...media, retry }));
      expect(error).toMatchObject({ ...networkError, operation: 'getRenderMedia', attempts: sent });
      expect(server.received).toHaveLength(sent);
    }
  });

  it('maxWaitMs bounds the asks after a cut', async () => {
    const server = await cutting(Number.POSITIVE_INFINITY);
    const client = createLiteClient({
      secretKey: KEY,
      baseUrl: server.baseUrl,
      retry: { baseDelayMs: 1_000 },
    });
    // Timed without the process's stalls (test-utils/stall.ts): no retry delay (1 s) was waited.
    const { result: error, ms } = await timeWithoutStalls(() =>
      caught(download(client, '/renders/{renderReference}/media', media, { maxWaitMs: 0 })),
    );
    expect(error).toMatchObject({ ...networkError, attempts: 1 });
    expect(server.received).toHaveLength(1);
    expect(ms).toBeLessThan(900);
  });

  it("the caller's abort while waiting to ask again is an AbortedError", async () => {
    const server = await cutting(Number.POSITIVE_INFINITY);
    const client = createLiteClient({
      secretKey: KEY,
      baseUrl: server.baseUrl,
      retry: { baseDelayMs: 60_000 },
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('page closed')), 300);
    const error = await caught(
      download(client, '/renders/{renderReference}/media', { ...media, signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toMatchObject({ code: 'aborted', method: 'GET', path: '/renders/Render_1/media' });
  });

  it('as stream: the stream the caller reads errors with the NetworkError (no second ask)', async () => {
    const server = await cutting(Number.POSITIVE_INFINITY);
    const client = createLiteClient({ secretKey: KEY, baseUrl: server.baseUrl, retry: fast });
    const { data } = await download(client, '/renders/{renderReference}/media', media, { as: 'stream' });
    const error = await caught(new Response(data).arrayBuffer());
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject(networkError);
    expect(server.received).toHaveLength(1);
  });
});

it("as stream: the caller's abort while reading the stream is an AbortedError, as for bytes and blob", async () => {
  const server = await startServer((_, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.write(FILE.subarray(0, 1000));
  });
  const client = createLiteClient({ secretKey: KEY, baseUrl: server.baseUrl });
  const controller = new AbortController();
  const { data } = await download(
    client,
    '/renders/{renderReference}/media',
    { ...media, signal: controller.signal },
    { as: 'stream' },
  );
  setTimeout(() => controller.abort(new Error('page closed')), 200);
  const error = await caught(new Response(data).arrayBuffer());
  expect(error).toBeInstanceOf(AbortedError);
  expect(error).toMatchObject({ code: 'aborted', method: 'GET', path: '/renders/Render_1/media' });
  expect(server.received).toHaveLength(1);
});
