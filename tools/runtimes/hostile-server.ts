// Two hostile HTTP servers on 127.0.0.1 for the flow's redirect and redaction steps (hostile.ts), started by
// run.ts in Node before the runtimes run. Two ports make two origins:
//
//   A (the "service") ── /cross/<status>/v2/…  → <status> to B (another origin), with a path and query
//                     ── /same/<status>/v2/…   → <status> to /land/v2/… on A (same origin)
//                     ── /land/v2/…            → 200 { method, body, hasKey }: where a followed redirect lands
//                     ── /echo/<status>/v2/…   → <status> echoing the key it got in every header, the status
//                                                text and every body field
//   B (elsewhere)     ── anything              → 200 {}: it must never see the key
//   both              ── /_control/received, /_control/reset (not recorded)
//
// Every answer carries permissive CORS headers (the Chromium page runs on a third origin) and OPTIONS is
// answered 204, so a browser's preflight passes and the browser's own redirect handling is what is measured.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { HostileTargets } from './hostile.ts';

export type { HostileTargets };

/** One request as recorded: never the key itself, only whether it was anywhere in the request. */
export interface Recorded {
  server: 'a' | 'b';
  method: string;
  path: string;
  /** The key in X-Service-Secret-Key. */
  keyHeader: boolean;
  /** The key anywhere: a header value, the URL or the body. */
  keyAnywhere: boolean;
}

export interface HostileServers {
  targets: HostileTargets;
  /** Requests to B that carried the key, since the start (never reset): must stay 0 in every runtime. */
  leaksToB(): number;
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': '*',
  'access-control-allow-headers': '*',
  'access-control-expose-headers': '*',
  'access-control-max-age': '0',
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
    req.on('error', reject);
  });
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const originOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** A's answer to one request (after it was recorded). */
function answerA(req: IncomingMessage, res: ServerResponse, body: string, b: string, key: string): void {
  const url = new URL(req.url ?? '/', 'http://a');
  const [, scenario, status, ...rest] = url.pathname.split('/');
  const path = rest.join('/');
  const code = Number(status);
  if (scenario === 'cross' && code >= 300 && code < 400) {
    res.writeHead(code, { ...CORS, location: `${b}/stolen/${path}?stolen=1&from=${code}` }).end();
  } else if (scenario === 'same' && code >= 300 && code < 400) {
    res.writeHead(code, { ...CORS, location: `/land/x/${path}?from=${code}` }).end();
  } else if (scenario === 'land') {
    const hasKey = req.headers['x-service-secret-key'] === key;
    res
      .writeHead(200, { ...CORS, 'content-type': 'application/json' })
      .end(JSON.stringify({ method: req.method, body, hasKey }));
  } else if (scenario === 'echo' && code >= 400) {
    echo(req, res, code);
  } else {
    res.writeHead(404, { ...CORS, 'content-type': 'application/json' }).end('{"code":"not_found"}');
  }
}

/** A hostile error answer: whatever key the request carried, back in every header, the status text and body. */
function echo(req: IncomingMessage, res: ServerResponse, status: number): void {
  const key = String(req.headers['x-service-secret-key'] ?? '');
  res.statusMessage = `Echo ${key}`;
  res.writeHead(status, {
    ...CORS,
    'content-type': 'application/json',
    'x-request-id': key,
    'request-id': key,
    'x-ratelimit-policy': `"${key}";q=1;w=1, "default";q=3000;w=60`,
    'x-ratelimit': `"${key}";r=0;t=1`,
    'ratelimit-policy': `"${key}";q=1;w=1`,
    ratelimit: `"${key}";r=0;t=1`,
    'retry-after': key,
    'www-authenticate': `Key ${key}`,
    'x-echo': key,
    link: `<https://docs.example.test/${key}>; rel="help"`,
  });
  res.end(
    JSON.stringify({
      code: key,
      message: `bad key ${key}`,
      requestId: key,
      errors: [{ code: key, message: key, path: key }],
      detail: { key, list: [key] },
    }),
  );
}

/** Starts A and B on free ports; `key` is random unless given. */
export async function startHostileServers(
  key = `sk_test_${randomBytes(12).toString('hex')}`,
): Promise<HostileServers> {
  const received: Recorded[] = [];
  let leaks = 0;
  const origins = { a: '', b: '' };
  const handle = (server: 'a' | 'b') => (req: IncomingMessage, res: ServerResponse) => {
    readBody(req).then(
      (body) => answer(server, req, res, body),
      () => res.destroy(),
    );
  };
  const answer = (server: 'a' | 'b', req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/_control/received')
      return res
        .writeHead(200, { ...CORS, 'content-type': 'application/json' })
        .end(JSON.stringify(received));
    if (path === '/_control/reset') {
      received.length = 0;
      return res.writeHead(204, CORS).end();
    }
    const keyHeader = req.headers['x-service-secret-key'] === key;
    const keyAnywhere = [req.url ?? '', body, ...req.rawHeaders].some((s) => s.includes(key));
    received.push({ server, method: req.method ?? '', path, keyHeader, keyAnywhere });
    if (server === 'b' && keyAnywhere) leaks++;
    if (req.method === 'OPTIONS') return res.writeHead(204, CORS).end();
    if (server === 'b') return res.writeHead(200, { ...CORS, 'content-type': 'application/json' }).end('{}');
    answerA(req, res, body, origins.b, key);
  };
  const a = await listen(handle('a'));
  const b = await listen(handle('b'));
  origins.a = originOf(a);
  origins.b = originOf(b);
  const close = (server: Server) =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    targets: { ...origins, key },
    leaksToB: () => leaks,
    close: async () => {
      await Promise.all([close(a), close(b)]);
    },
  };
}
