import type { Clock } from '@partner-print/openapi/wire';

export interface Seen {
  method: string;
  url: string;
  headers: Headers;
  body: Uint8Array;
}

/** A fetch answering from `handler` that records every request it receives. */
export function fakeFetch(handler: (req: Request, n: number) => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const fetch = async (req: Request) => {
    const body = new Uint8Array(await req.arrayBuffer());
    seen.push({ method: req.method, url: req.url, headers: new Headers(req.headers), body });
    return handler(req, seen.length);
  };
  return { fetch, seen };
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A clock whose sleep returns at once and moves time forward. */
export function testClock(start = 1_700_000_000_000): Clock & { slept: number[] } {
  let t = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => t,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      slept.push(ms);
      t += ms;
    },
  };
}

export const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
export const KEY = 'sk_test_SUPERSECRET_0123456789';
export const BASE = 'https://api.example.test/v2';

export const OPS = {
  createOrder: { method: 'post', path: '/orders' },
  listOrders: { method: 'get', path: '/orders' },
  getOrder: { method: 'get', path: '/orders/{orderReference}' },
  uploadImage: { method: 'post', path: '/images' },
  uploadEvidence: { method: 'post', path: '/evidence' },
  createRender: { method: 'post', path: '/renders' },
  getRenderMedia: { method: 'get', path: '/renders/{renderReference}/media' },
  lookupOrderReferenceByCustomIdentifier: {
    method: 'get',
    path: '/utilities/lookup-order-reference-by-custom-identifier',
  },
  listClaims: { method: 'get', path: '/claims' },
  retractClaim: { method: 'post', path: '/claims/{claimReference}/retract' },
} as const;
