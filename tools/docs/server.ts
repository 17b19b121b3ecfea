import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { PATHS } from './lib/paths.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

export interface ServeDocsOptions {
  /** Directory to serve; docs/dist by default. */
  dir?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Loopback only by default. */
  host?: string;
  /** URL prefix the site lives under, e.g. `/docs`. */
  basePath?: string;
}

export interface DocsServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Maps a URL path to a file of `dir`, or undefined when it is outside it or missing. */
export function resolveDocsFile(dir: string, pathname: string, basePath = ''): string | undefined {
  const base = basePath.replace(/\/$/, '');
  if (base && pathname !== base && !pathname.startsWith(`${base}/`)) return undefined;
  let rel = decodeURIComponent(pathname.slice(base.length)) || '/';
  if (rel.endsWith('/')) rel += 'index.html';
  const root = resolve(dir);
  const file = normalize(join(root, rel));
  if (file !== root && !file.startsWith(root + sep)) return undefined;
  if (!existsSync(file) || !statSync(file).isFile()) return undefined;
  return file;
}

/** Serves the built site on 127.0.0.1 (static files; the page is a single offline HTML file). */
export async function serveDocs(options: ServeDocsOptions = {}): Promise<DocsServer> {
  const dir = options.dir ?? PATHS.dist;
  const basePath = options.basePath ?? '';
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (basePath && url.pathname === basePath) {
      res.writeHead(301, { location: `${basePath}/` }).end();
      return;
    }
    const file = resolveDocsFile(dir, url.pathname, basePath);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, host, () => ok());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}${basePath}/`,
    server,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
