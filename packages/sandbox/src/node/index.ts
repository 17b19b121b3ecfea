import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { serve } from '@hono/node-server';
import { isDroppedConnection } from '../faults.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from '../sandbox.ts';

export interface SandboxServerOptions {
  /** Port to listen on (default 4010; 0 picks a free port). */
  port?: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** JSON file with sandbox options (seed text, rate limits, page size, start time…). */
  seedFile?: string;
  /** Run on a virtual clock advanced through the control API (default: real time). */
  virtualTime?: boolean;
  /**
   * The documentation site's single HTML file (`pnpm run docs` builds docs/dist/index.html),
   * served at /docs. Missing or unset: /docs is not served.
   */
  docsFile?: string;
  /** Further sandbox options; they win over the seed file. */
  sandbox?: Omit<SandboxOptions, 'origin'>;
}

export interface SandboxServer {
  /** Base URL of the V2 API, e.g. http://127.0.0.1:4010/v2. */
  url: string;
  /** Origin of the control API (`${origin}/_sandbox`). */
  origin: string;
  sandbox: Sandbox;
  /** Whether the documentation page is served at /docs. */
  docs: boolean;
  close(): Promise<void>;
}

function isDocsPath(url: string): boolean {
  const { pathname } = new URL(url);
  return pathname === '/docs' || pathname === '/docs/' || pathname === '/docs/index.html';
}

export async function startSandboxServer(options: SandboxServerOptions = {}): Promise<SandboxServer> {
  const host = options.host ?? '127.0.0.1';
  const fromFile: SandboxOptions = options.seedFile
    ? (JSON.parse(await readFile(options.seedFile, 'utf8')) as SandboxOptions)
    : {};
  const docs = options.docsFile ? await readFile(options.docsFile).catch(() => undefined) : undefined;
  let sandbox: Sandbox | undefined;
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve(
      {
        hostname: host,
        port: options.port ?? 4010,
        // The process may be a partner's test: its global Request and Response stay the runtime's own.
        overrideGlobalObjects: false,
        fetch: async (request: Request, env: HttpBindings | Http2Bindings) => {
          if (docs && isDocsPath(request.url)) {
            return new Response(new Uint8Array(docs), {
              headers: { 'content-type': 'text/html; charset=utf-8' },
            });
          }
          try {
            return await sandbox!.fetch(request);
          } catch (error) {
            // An injected "connection dropped" fault: drop the socket without an answer.
            if (isDroppedConnection(error)) env.incoming.socket.destroy();
            throw error;
          }
        },
      },
      () => resolve(s),
    );
    s.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  try {
    sandbox = createSandbox({
      jitter: 1,
      ...fromFile,
      ...options.sandbox,
      clock: options.virtualTime ? 'virtual' : (options.sandbox?.clock ?? fromFile.clock ?? 'real'),
      origin,
    });
  } catch (error) {
    // An option it refuses (a typo in the --seed file, NaN): no server left listening behind the error.
    server.close();
    throw error;
  }
  return {
    url: sandbox.baseUrl,
    origin,
    sandbox,
    docs: docs !== undefined,
    close: () =>
      new Promise<void>((resolve, reject) => {
        sandbox!.close();
        server.close((err) => (err ? reject(err) : resolve()));
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}

export type { Sandbox, SandboxOptions } from '../sandbox.ts';
