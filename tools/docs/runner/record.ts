/**
 * A fetch in front of the in-page sandbox that records every exchange for the panel, and the readable form of
 * bodies and headers. Web-standard only: it runs in the page and in the Node tests.
 */
import type { Exchange } from './types.ts';

const SHOWN_HEADER = /^(x-)?ratelimit|^retry-after$|^content-type$|^location$/i;
const MAX_BODY = 20_000;

export interface OperationRoute {
  operationId: string;
  method: string;
  /** Spec template, e.g. `/orders/{orderReference}`. */
  path: string;
}

/** The operation a request is: its method and a path matching the template segment by segment. */
export function operationOf(
  routes: readonly OperationRoute[],
  method: string,
  path: string,
): string | undefined {
  const segments = path.split('?')[0]!.split('/');
  const matches = routes.filter((r) => {
    if (r.method.toUpperCase() !== method.toUpperCase()) return false;
    const template = r.path.split('/');
    return (
      template.length === segments.length && template.every((t, i) => /^\{.+\}$/.test(t) || t === segments[i])
    );
  });
  // A literal segment beats a parameter (`/orders/x` vs `/orders/{ref}`): fewest parameters first.
  matches.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  return matches[0]?.operationId;
}

/** A body as text for the panel: JSON formatted, text as is, bytes as their size and type. */
export async function readableBody(
  body: { arrayBuffer(): Promise<ArrayBuffer> },
  contentType: string | null,
): Promise<string | undefined> {
  const bytes = new Uint8Array(await body.arrayBuffer());
  if (bytes.byteLength === 0) return undefined;
  const type = contentType ?? '';
  if (/json|^text\//i.test(type)) {
    const text = new TextDecoder().decode(bytes);
    let shown = text;
    if (/json/i.test(type)) {
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // Not JSON after all: shown as sent.
      }
    }
    return shown.length > MAX_BODY ? `${shown.slice(0, MAX_BODY)}\n… (${shown.length} characters)` : shown;
  }
  return `<${bytes.byteLength} bytes${type ? `, ${type}` : ''}>`;
}

export function shownHeaders(headers: Headers): [string, string][] {
  const out: [string, string][] = [];
  headers.forEach((value, name) => {
    if (SHOWN_HEADER.test(name)) out.push([name, value]);
  });
  return out;
}

export interface RecorderOptions {
  /** The sandbox's own fetch. */
  target: (request: Request) => Promise<Response>;
  baseUrl: string;
  routes: readonly OperationRoute[];
  now(): number;
  onExchange(exchange: Exchange): void;
}

/** A `fetch` that sends requests for the sandbox's origin to it and refuses any other URL. */
export function createRecordingFetch(options: RecorderOptions): typeof fetch {
  const base = new URL(options.baseUrl);
  const prefix = base.pathname.replace(/\/$/, '');
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== base.origin) {
      throw new TypeError(
        `The in-page sandbox answers ${base.origin} only; ${url.origin} was not contacted (the page makes no network request).`,
      );
    }
    const at = options.now();
    const requestBody = request.body
      ? await readableBody(request.clone(), request.headers.get('content-type'))
      : undefined;
    const response = await options.target(request);
    const path = `${url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname}${url.search}`;
    const operationId = operationOf(options.routes, request.method, path);
    const exchange: Exchange = {
      method: request.method,
      path,
      ...(operationId ? { operationId } : {}),
      status: response.status,
      headers: shownHeaders(response.headers),
      ...(requestBody === undefined ? {} : { requestBody }),
      at,
    };
    const responseBody = await readableBody(response.clone(), response.headers.get('content-type'));
    if (responseBody !== undefined) exchange.responseBody = responseBody;
    options.onExchange(exchange);
    return response;
  };
}
