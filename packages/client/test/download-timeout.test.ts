// download reads the file itself for `as: 'bytes'` and `'blob'`, so the ask's timeoutMs bounds that reading too:
// a body that stalls after the headers (no end, no close) ends as a TimeoutError with the call's context and
// is asked for again like a cut-off read (retry.attempts, backoff, maxWaitMs, signal). With `as: 'stream'` the
// caller reads at its own pace: timeoutMs does not bound that reading, the caller's signal does.
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { busy, withinStallFree } from '../../../test-utils/stall.ts';
import { AbortedError, createClient, TimeoutError } from '../src/index.ts';
import { createClient as createLiteClient, download } from '../src/lite.ts';
import { KEY } from './fake.ts';
import { caught, serverPerTest } from './servers.ts';

const startServer = serverPerTest();

const FILE = new Uint8Array(4 * 1024).map((_, i) => i % 251);

/** Stalls the first `stalls` answers after a few bytes (Infinity: every answer), then sends the file whole. */
async function stalling(stalls: number) {
  const server = await startServer((_, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    if (server.received.length > stalls) res.end(FILE);
    else res.write(FILE.subarray(0, 10));
  });
  return server;
}

const media = { params: { path: { renderReference: 'Render_1' as const } } };
const fast = { baseDelayMs: 5 };
// Bounds in time the process could run (test-utils/stall.ts): a starved test is not a late read.
const within = withinStallFree;
const timeout = { code: 'timeout', method: 'GET', path: '/renders/Render_1/media' };

describe("download: the ask's timeoutMs bounds reading the file", () => {
  for (const as of ['bytes', 'blob'] as const) {
    it(`as ${as}: a body that stalls is a TimeoutError after the asks run out`, async () => {
      const server = await stalling(Number.POSITIVE_INFINITY);
      const client = createLiteClient({
        secretKey: KEY,
        baseUrl: server.baseUrl,
        timeoutMs: 300,
        retry: fast,
      });
      const started = Date.now();
      const error = await within(
        caught(download(client, '/renders/{renderReference}/media', media, { as })),
        5_000,
      );
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toMatchObject({ ...timeout, attempts: 3 });
      expect(server.received).toHaveLength(3);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      expect(JSON.stringify(error)).not.toContain(KEY);
    });

    it(`as ${as}: a read that timed out is asked for again and resolves with the whole file`, async () => {
      const server = await stalling(1);
      const client = createLiteClient({
        secretKey: KEY,
        baseUrl: server.baseUrl,
        timeoutMs: 300,
        retry: fast,
      });
      const { data, contentType } = await within(
        download(client, '/renders/{renderReference}/media', media, { as }),
        5_000,
      ).then((r) => (typeof r === 'string' ? { data: r, contentType: null } : r));
      const bytes = data instanceof Blob ? new Uint8Array(await data.arrayBuffer()) : data;
      expect(bytes).toEqual(FILE);
      if (data instanceof Blob) expect(data.type).toBe('image/png');
      expect(contentType).toBe('image/png');
      expect(server.received).toHaveLength(2);
    });
  }

  it("the call's own timeoutMs and retry: false, on the full client (its operation named)", async () => {
    const server = await stalling(Number.POSITIVE_INFINITY);
    const client = createClient({
      secretKey: KEY,
      baseUrl: server.baseUrl,
      rateLimit: false,
      telemetry: false,
    });
    const error = await within(
      caught(client.download('/renders/{renderReference}/media', { ...media, timeoutMs: 200, retry: false })),
      3_000,
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ ...timeout, operation: 'getRenderMedia', attempts: 1 });
    expect(server.received).toHaveLength(1);
  });

  it('a stall of the process is not counted against the read: the rest that arrived meanwhile is taken', async () => {
    // The file's first bytes, then the rest, after which the process (server and client alike) stalls past
    // timeoutMs: Node runs its timers before it reads the socket where the rest waits.
    const server = await startServer((_, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(FILE.subarray(0, 10));
      setTimeout(() => {
        res.end(FILE.subarray(10));
        busy(450);
      }, 20);
    });
    const client = createLiteClient({ secretKey: KEY, baseUrl: server.baseUrl, timeoutMs: 300, retry: fast });
    const { data } = await download(client, '/renders/{renderReference}/media', media);
    expect(data).toEqual(FILE);
    expect(server.received).toHaveLength(1);
  });

  it('a read that timed out closes its connection', async () => {
    let hungUp: () => void = () => {};
    const closed = new Promise<void>((resolve) => {
      hungUp = resolve;
    });
    const server = await startServer((_, res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(FILE.subarray(0, 10));
      res.on('close', hungUp);
    });
    const client = createLiteClient({
      secretKey: KEY,
      baseUrl: server.baseUrl,
      timeoutMs: 200,
      retry: false,
    });
    const error = await within(caught(download(client, '/renders/{renderReference}/media', media)), 3_000);
    expect(error).toBeInstanceOf(TimeoutError);
    await expect(within(closed, 1_000)).resolves.toBeUndefined();
  });

  it('maxWaitMs bounds the asks after a timed-out read', async () => {
    const server = await stalling(Number.POSITIVE_INFINITY);
    const client = createLiteClient({
      secretKey: KEY,
      baseUrl: server.baseUrl,
      timeoutMs: 200,
      retry: { baseDelayMs: 1_000 },
    });
    const error = await within(
      caught(download(client, '/renders/{renderReference}/media', media, { maxWaitMs: 0 })),
      3_000,
    );
    expect(error).toMatchObject({ ...timeout, attempts: 1 });
    expect(server.received).toHaveLength(1);
  });

  it("the caller's abort while the read is timed is an AbortedError, not a timeout", async () => {
    const server = await stalling(Number.POSITIVE_INFINITY);
    const client = createLiteClient({ secretKey: KEY, baseUrl: server.baseUrl, timeoutMs: 5_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('page closed')), 200);
    const error = await within(
      caught(download(client, '/renders/{renderReference}/media', { ...media, signal: controller.signal })),
      3_000,
    );
    expect(error).toBeInstanceOf(AbortedError);
    expect(server.received).toHaveLength(1);
  });

  it("as stream: timeoutMs does not bound the caller's reading; its signal does", async () => {
    const server = await stalling(Number.POSITIVE_INFINITY);
    const client = createLiteClient({ secretKey: KEY, baseUrl: server.baseUrl, timeoutMs: 200 });
    const controller = new AbortController();
    const { data } = await download(
      client,
      '/renders/{renderReference}/media',
      { ...media, signal: controller.signal },
      { as: 'stream' },
    );
    const reading = caught(new Response(data).arrayBuffer());
    expect(await within(reading, 600)).toBe('still pending after 600 ms');
    controller.abort(new Error('page closed'));
    expect(await within(reading, 2_000)).toBeInstanceOf(AbortedError);
    expect(server.received).toHaveLength(1);
  });
});
