// A response whose headers arrive and whose body then stalls (a proxy or server that hangs mid-answer): the
// caller's signal must still end the call — with the client's AbortedError or TimeoutError, not the
// platform's — and close the connection, for every method and for download's read of the file.
import type { ServerResponse } from 'node:http';
import { createScheduler } from '@partner-print/ratelimit';
import { afterEach, describe, expect, it } from 'vitest';
import { withinStallFree } from '../../../test-utils/stall.ts';
import { AbortedError, createClient, TimeoutError } from '../src/index.ts';
import { createClient as createLiteClient, download } from '../src/lite.ts';
import { KEY } from './fake.ts';
import { startServer, type TestServer, watched } from './servers.ts';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server that sends the headers and the start of a body, then nothing; `closed` resolves when the client hangs up. */
async function stalling(status = 200, type = 'application/json') {
  let hungUp: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    hungUp = resolve;
  });
  const server = await startServer((_, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': type });
    res.write(type === 'application/json' ? '{"orders":[' : 'PNG…');
    res.on('close', hungUp);
  });
  servers.push(server);
  return { server, closed };
}

// Bounds on waits that must end: time in which this process was starved is not counted.
const within = withinStallFree;

const caught = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: unknown) => e,
  );

/** The error of a `get()` whose caller aborts once the response headers reached the client. */
async function abortedAfterHeaders(baseUrl: string, rateLimit: false | undefined): Promise<unknown> {
  const transport = watched();
  const client = createClient({
    secretKey: KEY,
    baseUrl,
    fetch: transport.fetch,
    rateLimit,
    telemetry: false,
  });
  const controller = new AbortController();
  void transport.headers.then(() => controller.abort(new Error('page closed')));
  return within(caught(client.get('/orders', { signal: controller.signal })), 3_000);
}

// The test timeout only bounds a hang: on a starved machine, a stall-free bound of 3 s is longer than 5 s.
describe("the caller's signal ends a call whose response body stalls after the headers", {
  timeout: 30_000,
}, () => {
  for (const rateLimit of [undefined, false] as const) {
    const label = rateLimit === false ? 'without the scheduler' : 'with the scheduler';

    it(`get(): an abort is an AbortedError and closes the connection (${label})`, async () => {
      const { server, closed } = await stalling();
      const error = await abortedAfterHeaders(server.baseUrl, rateLimit);
      expect(error).toBeInstanceOf(AbortedError);
      expect(error).toMatchObject({
        code: 'aborted',
        operation: 'listOrders',
        method: 'GET',
        path: '/orders',
      });
      expect((error as AbortedError).cause).toEqual(new Error('page closed'));
      await expect(within(closed, 1_000)).resolves.toBeUndefined();
    });

    it(`get(): AbortSignal.timeout is a TimeoutError (${label})`, async () => {
      const { server } = await stalling();
      const client = createClient({ secretKey: KEY, baseUrl: server.baseUrl, rateLimit, telemetry: false });
      const error = await within(caught(client.get('/orders', { signal: AbortSignal.timeout(200) })), 3_000);
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toMatchObject({ code: 'timeout', operation: 'listOrders' });
    });

    it(`an error response whose body stalls: AbortedError (${label})`, async () => {
      const { server } = await stalling(422);
      const error = await abortedAfterHeaders(server.baseUrl, rateLimit);
      expect(error).toBeInstanceOf(AbortedError);
    });
  }

  it('lite with a Scheduler instance (its own transport): an abort is an AbortedError', async () => {
    const { server, closed } = await stalling();
    const transport = watched();
    const client = createLiteClient({
      secretKey: KEY,
      baseUrl: server.baseUrl,
      rateLimit: createScheduler({ fetch: transport.fetch }),
    });
    const controller = new AbortController();
    void transport.headers.then(() => controller.abort(new Error('page closed')));
    const error = await within(caught(client.get('/orders', { signal: controller.signal })), 3_000);
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toMatchObject({ code: 'aborted', method: 'GET', path: '/orders' });
    await expect(within(closed, 1_000)).resolves.toBeUndefined();
  });

  it("GET (openapi-fetch's own form): an abort is an AbortedError", async () => {
    const { server, closed } = await stalling();
    const transport = watched();
    const client = createClient({
      secretKey: KEY,
      baseUrl: server.baseUrl,
      fetch: transport.fetch,
      rateLimit: false,
      telemetry: false,
    });
    const controller = new AbortController();
    void transport.headers.then(() => controller.abort(new Error('page closed')));
    const error = await within(caught(client.GET('/orders', { signal: controller.signal })), 3_000);
    expect(error).toBeInstanceOf(AbortedError);
    await expect(within(closed, 1_000)).resolves.toBeUndefined();
  });

  it.each(['bytes', 'blob'] as const)(
    'download as %s (lite): an abort while reading the file is an AbortedError',
    async (as) => {
      const { server, closed } = await stalling(200, 'image/png');
      const transport = watched();
      const client = createLiteClient({ secretKey: KEY, baseUrl: server.baseUrl, fetch: transport.fetch });
      const controller = new AbortController();
      void transport.headers.then(() => controller.abort(new Error('page closed')));
      const error = await within(
        caught(
          download(
            client,
            '/renders/{renderReference}/media',
            { params: { path: { renderReference: 'Render_1' } }, signal: controller.signal },
            { as },
          ),
        ),
        3_000,
      );
      expect(error).toBeInstanceOf(AbortedError);
      expect(error).toMatchObject({ code: 'aborted', method: 'GET', path: '/renders/Render_1/media' });
      await expect(within(closed, 1_000)).resolves.toBeUndefined();
    },
  );
});
