import { once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toNodeListener } from './index.ts';

const servers: Array<ReturnType<typeof createServer>> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.close();
    await once(s, 'close');
  }
});

async function serve(listener: Parameters<typeof createServer>[1]) {
  const server = createServer(listener);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('toNodeListener', () => {
  it('passes method, path, query and headers through and writes status, headers and body back', async () => {
    const seen: Request[] = [];
    const base = await serve(
      toNodeListener(async (request) => {
        seen.push(request);
        return new Response('{"ok":true}', { status: 418, headers: { 'x-test': 'yes' } });
      }),
    );
    const response = await fetch(`${base}/hook?a=1&b=%2F`, { headers: { 'x-from': 'test' } });
    expect(response.status).toBe(418);
    expect(response.headers.get('x-test')).toBe('yes');
    expect(await response.text()).toBe('{"ok":true}');
    const url = new URL(seen[0]!.url);
    expect(url.pathname).toBe('/hook');
    expect(url.searchParams.get('b')).toBe('/');
    expect(seen[0]!.method).toBe('GET');
    expect(seen[0]!.headers.get('x-from')).toBe('test');
  });

  it('uses Express-style originalUrl under a mount path', async () => {
    const seen: string[] = [];
    const listener = toNodeListener(async (request) => {
      seen.push(request.url);
      return new Response(null, { status: 204 });
    });
    const base = await serve((req, res) => {
      const mounted = Object.assign(req, { originalUrl: req.url, url: '/?x=1' });
      listener(mounted, res);
    });
    await fetch(`${base}/callbacks/print?x=1`);
    expect(new URL(seen[0]!).pathname).toBe('/callbacks/print');
  });

  it('answers a throwing handler with 500, or hands the error to next()', async () => {
    const boom = toNodeListener(async () => {
      throw new Error('boom');
    });
    const next = vi.fn();
    const base = await serve((req, res) => {
      if (req.url === '/next') {
        boom(req, res, (error) => {
          next(error);
          res.statusCode = 502;
          res.end();
        });
      } else boom(req, res);
    });
    expect((await fetch(`${base}/plain`)).status).toBe(500);
    expect((await fetch(`${base}/next`)).status).toBe(502);
    expect((next.mock.calls[0]![0] as Error).message).toBe('boom');
  });

  it('answers a method the Fetch API cannot carry (TRACE; Node answers TRACK 400 and closes a CONNECT itself) 405 with Allow: GET, as any other non-GET', async () => {
    const handler = vi.fn(async () => new Response(null, { status: 204 }));
    const base = new URL(await serve(toNodeListener(handler)));
    for (const method of ['TRACE']) {
      const { status, allow, body } = await new Promise<{ status?: number; allow?: string; body: string }>(
        (resolve, reject) => {
          const req = httpRequest({ host: base.hostname, port: base.port, method, path: '/hook' }, (res) => {
            let body = '';
            res.on('data', (chunk) => {
              body += chunk;
            });
            res.on('end', () => resolve({ status: res.statusCode, allow: res.headers.allow, body }));
          });
          req.on('error', reject);
          req.end();
        },
      );
      expect({ method, status, allow }).toEqual({ method, status: 405, allow: 'GET' });
      expect(body).toBe('');
    }
    expect(handler).not.toHaveBeenCalled();
  });

  it('does not read a request body', async () => {
    const base = await serve(toNodeListener(async (r) => new Response(r.method, { status: 405 })));
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${base}/hook`, { method: 'POST' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('x'.repeat(1024));
      req.end();
    });
    expect(status).toBe(405);
  });
});
