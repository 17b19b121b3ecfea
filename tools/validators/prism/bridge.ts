/**
 * Prism's upstream: a 127.0.0.1 server that answers each forwarded call with what the in-process sandbox
 * answers to the ORIGINAL request (the client's exact bytes, not Prism's re-serialised copy), and keeps a
 * clone of that response for the client. Prism sees the real status, headers and body and validates them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { take } from './calls.ts';

export const CALL_HEADER = 'x-validator-call';

// Headers node:http computes itself for the body it writes.
const SKIP = new Set(['content-length', 'transfer-encoding', 'connection', 'content-encoding']);

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  req.resume();
  const id = req.headers[CALL_HEADER];
  const entry = typeof id === 'string' ? take(id) : undefined;
  if (!entry) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end(`unknown ${CALL_HEADER}`);
    return;
  }
  try {
    const response = await entry.sandboxFetch(entry.request);
    entry.outcome = { response: response.clone() };
    const body = new Uint8Array(await response.arrayBuffer());
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!SKIP.has(name)) headers[name] = value;
    });
    res.writeHead(response.status, headers).end(body);
  } catch (error) {
    // The sandbox dropped the connection on purpose (an injected fault): so does the bridge.
    entry.outcome = { error };
    res.destroy();
  }
}

export async function startBridge(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => res.destroy(error as Error));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}
