/**
 * A small, faithful imitation of the API's rate limiting (reference "Limits → Rate limits"): one
 * continuously refilling token bucket per policy and organization, `X-RateLimit-Policy` / `X-RateLimit`
 * on every response, 429 + `Retry-After` (whole seconds, plus jitter) when a bucket a request needs is
 * empty. Written independently of the SDK's parser on purpose. Used by the tests and the bench until the
 * sandbox's server is used instead.
 */
import { createServer, type Server } from 'node:http';

export interface Policy {
  q: number;
  w: number;
}

export interface TokenBucketApiOptions {
  policies?: Record<string, Policy>;
  /** Extra buckets per route (`METHOD /path-regex`); every request also takes `default`. */
  routes?: { method: string; path: RegExp; policy: string }[];
  now?: () => number;
  /** Max whole seconds added to Retry-After. */
  jitter?: number;
  /** Random numbers in [0, 1) for the jitter (seed it for a repeatable run). */
  random?: () => number;
  /** Header names: 'x' (V2) or 'v3' (unprefixed). */
  names?: 'x' | 'v3';
}

const DEFAULT_ROUTES = [
  { method: 'POST', path: /\/images$/, policy: 'uploads' },
  { method: 'POST', path: /\/evidence$/, policy: 'uploads' },
  { method: 'GET', path: /\/renders\/[^/]+\/(media|thumbnail)$/, policy: 'downloads' },
  { method: 'GET', path: /\/products\/[^/]+\/media\/[^/]+$/, policy: 'downloads' },
];

interface Bucket {
  tokens: number;
  at: number;
}

export interface TokenBucketApi {
  handle(request: Request): Response;
  fetch(request: Request): Promise<Response>;
  /** Adds or changes a policy; `undefined` removes it (its requests no longer spend it). */
  setPolicy(name: string, policy: Policy | undefined): void;
  /** Renames a policy, keeping its bucket (the bucket every request spends follows a renamed `default`). */
  renamePolicy(from: string, to: string): void;
  /** Answers in place of the buckets while set (a fault: a storm of 429s, a broken route); undefined to stop. */
  setFault(fault: ((request: Request) => Response | undefined) | undefined): void;
  /** Replaces the extra buckets per route. */
  setRoutes(routes: { method: string; path: RegExp; policy: string }[]): void;
  counts: { ok: number; limited: number };
  /** A bucket's balance now, without spending (a trace for BENCH_DEBUG). */
  peek(org: string, name: string): number | undefined;
}

export function createTokenBucketApi(options: TokenBucketApiOptions = {}): TokenBucketApi {
  const policies: Record<string, Policy> = {
    ...(options.policies ?? {
      default: { q: 3000, w: 60 },
      uploads: { q: 5000, w: 86400 },
      downloads: { q: 100000, w: 86400 },
    }),
  };
  let routes = options.routes ?? DEFAULT_ROUTES;
  let base = 'default';
  const now = options.now ?? (() => performance.timeOrigin + performance.now());
  const jitter = options.jitter ?? 0;
  const random = options.random ?? Math.random;
  const [policyHeader, limitHeader] =
    options.names === 'v3' ? ['RateLimit-Policy', 'RateLimit'] : ['X-RateLimit-Policy', 'X-RateLimit'];
  const orgs = new Map<string, Map<string, Bucket>>();
  const counts = { ok: 0, limited: 0 };

  function bucket(org: string, name: string, t: number): Bucket {
    let map = orgs.get(org);
    if (!map) {
      map = new Map();
      orgs.set(org, map);
    }
    let b = map.get(name);
    const p = policies[name]!;
    if (!b) {
      b = { tokens: p.q, at: t };
      map.set(name, b);
    }
    b.tokens = Math.min(p.q, b.tokens + ((t - b.at) / 1000) * (p.q / p.w));
    b.at = t;
    return b;
  }

  let fault: ((request: Request) => Response | undefined) | undefined;

  function handle(request: Request): Response {
    const faulty = fault?.(request);
    if (faulty) {
      if (faulty.status === 429) counts.limited++;
      return faulty;
    }
    const t = now();
    const url = new URL(request.url);
    const org = request.headers.get('x-service-secret-key') ?? 'anonymous';
    const names = [base];
    for (const r of routes)
      if (r.method === request.method && r.path.test(url.pathname)) names.push(r.policy);
    const buckets = names
      .filter((n) => policies[n])
      .map((n) => ({ name: n, p: policies[n]!, b: bucket(org, n, t) }));
    const empty = buckets.filter((x) => x.b.tokens < 1);
    if (empty.length === 0) for (const x of buckets) x.b.tokens -= 1;
    const headers = new Headers({ 'content-type': 'application/json' });
    headers.set(policyHeader, buckets.map((x) => `"${x.name}";q=${x.p.q};w=${x.p.w}`).join(', '));
    const waitOf = (x: (typeof buckets)[number]): number =>
      x.b.tokens >= 1 ? 0 : Math.ceil((1 - x.b.tokens) / (x.p.q / x.p.w));
    headers.set(
      limitHeader,
      buckets.map((x) => `"${x.name}";r=${Math.floor(x.b.tokens)};t=${waitOf(x)}`).join(', '),
    );
    if (empty.length > 0) {
      counts.limited++;
      const wait = Math.max(...empty.map(waitOf)) + (jitter > 0 ? Math.floor(random() * (jitter + 1)) : 0);
      headers.set('retry-after', String(wait));
      return new Response(
        JSON.stringify({ code: 'rate_limited', message: 'A rate-limit bucket is empty.' }),
        {
          status: 429,
          headers,
        },
      );
    }
    counts.ok++;
    return new Response(JSON.stringify({ ok: true }), { status: 200, headers });
  }

  return {
    handle,
    fetch: async (request) => handle(request),
    setPolicy(name, policy) {
      if (policy) policies[name] = policy;
      else delete policies[name];
    },
    renamePolicy(from, to) {
      const policy = policies[from];
      if (!policy) return;
      policies[to] = policy;
      delete policies[from];
      for (const map of orgs.values()) {
        const b = map.get(from);
        if (b) map.set(to, b);
        map.delete(from);
      }
      if (base === from) base = to;
      routes = routes.map((r) => (r.policy === from ? { ...r, policy: to } : r));
    },
    setFault(next) {
      fault = next;
    },
    setRoutes(next) {
      routes = next;
    },
    counts,
    peek(org, name) {
      return policies[name] && orgs.get(org)?.has(name) ? bucket(org, name, now()).tokens : undefined;
    },
  };
}

/** Answered at once by the server below without touching a bucket: a worker opens its connections with it. */
export const WARM_UP_PATH = '/__warm-up';

/** The same over node:http on 127.0.0.1. */
export async function startTokenBucketServer(
  options: TokenBucketApiOptions & { port?: number } = {},
): Promise<{ url: string; api: TokenBucketApi; close(): Promise<void> }> {
  const api = createTokenBucketApi(options);
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      // A process opening its connections before the run (bench/worker.ts): spends nothing, says nothing.
      if (req.url?.endsWith(WARM_UP_PATH)) {
        res.statusCode = 204;
        res.end();
        return;
      }
      const response = api.handle(
        new Request(`http://127.0.0.1${req.url}`, {
          method: req.method,
          headers: Object.entries(req.headers).flatMap(([k, v]) =>
            v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v] as [string, string]],
          ),
        }),
      );
      res.statusCode = response.status;
      for (const [key, value] of response.headers) res.setHeader(key, value);
      void response.text().then((body) => res.end(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v2`,
    api,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
