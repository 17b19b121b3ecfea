import type { IncomingMessage, ServerResponse } from 'node:http';
import { serverRequests } from '../server-requests.ts';

type WebHandler = (request: Request) => Promise<Response>;

export interface NodeListenerOptions {
  /** Origin used to build the Request URL (only path and query matter to the handler). */
  origin?: string;
}

type NodeRequest = IncomingMessage & { originalUrl?: string };

/**
 * Adapts a web-standard handler to node:http and Express-style `(req, res)` listeners.
 * The callback is a GET without a body, so the request body is never read.
 */
export function toNodeListener(handler: WebHandler, options: NodeListenerOptions = {}) {
  const origin = options.origin ?? 'http://localhost';
  return (req: NodeRequest, res: ServerResponse, next?: (error?: unknown) => void): void => {
    void (async () => {
      let response: Response;
      try {
        // Express rewrites req.url under a mount path; originalUrl keeps the full one.
        const url = new URL(req.originalUrl ?? req.url ?? '/', origin);
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) {
          if (value === undefined || name.startsWith(':')) continue;
          for (const item of Array.isArray(value) ? value : [value]) {
            try {
              headers.append(name, item);
            } catch {
              // A header the Fetch API refuses is not one the handler needs.
            }
          }
        }
        let request: Request | undefined;
        try {
          request = new Request(url, { method: req.method ?? 'GET', headers });
        } catch {
          // A method the Fetch API refuses to carry (TRACE, the one Node's server hands on): no callback,
          // answered as the handler answers any method but GET, where the error was answered 500.
        }
        if (request) {
          serverRequests.add(request);
          response = await handler(request);
        } else response = new Response(null, { status: 405, headers: { allow: 'GET' } });
      } catch (error) {
        if (next) return next(error);
        response = new Response(null, { status: 500 });
      }
      try {
        const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
        res.statusCode = response.status;
        for (const [name, value] of response.headers) res.setHeader(name, value);
        res.end(body);
      } catch {
        // The client went away or the response was already sent; nothing useful is left to do.
        if (!res.writableEnded) res.destroy();
      }
    })();
  };
}
