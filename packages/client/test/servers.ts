// Small HTTP servers on 127.0.0.1 for the hostile-server tests: each starts on a free port and records what
// reaches it; `close()` ends it and every connection it holds.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TestServer {
  origin: string;
  baseUrl: string;
  received: Received[];
  close(): Promise<void>;
}

export type Handler = (req: Received, res: ServerResponse, server: TestServer) => void;

export async function startServer(handler: Handler): Promise<TestServer> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      received.push(entry);
      handler(entry, res, self);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const self: TestServer = {
    origin,
    baseUrl: `${origin}/v2`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return self;
}

/** A server that accepts every request and never answers. */
export const silentServer = () => startServer(() => {});

/** `startServer` for one test file: every server it starts is closed after each test. */
export function serverPerTest(): (handler: Handler) => Promise<TestServer> {
  const started: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.close()));
  });
  return async (handler) => {
    const server = await startServer(handler);
    started.push(server);
    return server;
  };
}

/** What a call ended with: `'resolved'`, or the error it rejected with. */
export const caught = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => 'resolved',
    (e: unknown) => e,
  );

/**
 * The platform's fetch as the clients' transport, and `headers`, which resolves once a response's headers
 * have reached the client: a caller aborts then, not after a time (a starved process could abort
 * before the server had even seen the request, and no connection was there to close).
 */
export function watched() {
  let arrived: () => void = () => {};
  const headers = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const fetch = async (request: Request, init?: { signal: AbortSignal }) => {
    const response = await globalThis.fetch(request, init);
    arrived();
    return response;
  };
  return { fetch, headers };
}
