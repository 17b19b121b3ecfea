import { Hono } from 'hono';
import type { Env, SandboxContext } from './context.ts';
import { fail } from './http.ts';
import type { PolicyName } from './ratelimit.ts';
import { catalogRoutes } from './routes/catalog.ts';
import { claimRoutes } from './routes/claims.ts';
import { orderRoutes } from './routes/orders.ts';
import { renderingRoutes } from './routes/rendering.ts';
import { uploadRoutes } from './routes/uploads.ts';
import { hasV1Credentials } from './v1-credentials.ts';

const DEFAULT_ONLY: readonly PolicyName[] = ['default'];
const UPLOADS: readonly PolicyName[] = ['default', 'uploads'];
const DOWNLOADS: readonly PolicyName[] = ['default', 'downloads'];
const DOWNLOAD_PATH = /^\/v2\/(?:renders\/[^/]+\/(?:media|thumbnail)|products\/[^/]+\/media\/[^/]+)$/;

function bucketsFor(method: string, path: string): readonly PolicyName[] {
  if (method === 'POST' && (path === '/v2/images' || path === '/v2/evidence')) return UPLOADS;
  // A HEAD is its GET without the body: it spends the same buckets.
  if ((method === 'GET' || method === 'HEAD') && DOWNLOAD_PATH.test(path)) return DOWNLOADS;
  return DEFAULT_ONLY;
}

/** The methods the app's routes answer on a path (HEAD wherever GET is, as Hono answers it), sorted. */
function allowedMethods(app: Hono<Env>): (path: string) => string[] {
  const routes = app.routes
    .filter((r) => r.method !== 'ALL')
    .map((r) => ({
      method: r.method,
      pattern: new RegExp(`^${r.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+')}/?$`),
    }));
  return (path) => {
    const methods = new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}

export function createV2App(ctx: SandboxContext): Hono<Env> {
  const v2 = new Hono<Env>();

  v2.use('*', async (c, next) => {
    const key = c.req.header('x-service-secret-key');
    const org = key ? ctx.world.byKey.get(key) : undefined;
    if (!org) {
      if (!key && hasV1Credentials(c.req.raw.headers)) {
        return fail(
          c,
          401,
          'unauthorized',
          'V1 credentials (partner code and API key headers) do not work against V2; send X-Service-Secret-Key',
        );
      }
      return fail(
        c,
        401,
        'unauthorized',
        key ? 'The secret key is not valid' : 'Missing X-Service-Secret-Key header',
      );
    }
    c.set('org', org);
    const decision = ctx.limiter.take(org.id, bucketsFor(c.req.method, c.req.path));
    if (!decision.ok) {
      const jitter = ctx.jitter > 0 ? Math.floor(ctx.random() * (ctx.jitter + 1)) : 0;
      const res = fail(c, 429, 'rate_limited', 'Rate limit exceeded; wait Retry-After seconds');
      for (const [name, value] of decision.headers) res.headers.set(name, value);
      res.headers.set('Retry-After', String(decision.retryAfter + jitter));
      return res;
    }
    await next();
    for (const [name, value] of decision.headers) c.res.headers.set(name, value);
  });

  uploadRoutes(v2, ctx);
  orderRoutes(v2, ctx);
  catalogRoutes(v2, ctx);
  claimRoutes(v2, ctx);
  renderingRoutes(v2, ctx);

  const allowed = allowedMethods(v2);
  // A catch-all route rather than notFound: mounted under /v2, the sub-app's notFound is not consulted.
  v2.all('*', (c) => {
    const allow = allowed(c.req.path.replace(/^\/v2/, ''));
    if (allow.length === 0) return fail(c, 404, 'not_found', `No endpoint ${c.req.method} ${c.req.path}`);
    const res = fail(
      c,
      405,
      'method_not_allowed',
      `${c.req.path} answers ${allow.join(', ')}, not ${c.req.method}`,
    );
    res.headers.set('Allow', allow.join(', '));
    return res;
  });
  v2.onError((err, c) => fail(c, 500, 'internal_error', `The sandbox failed: ${err.message}`));
  return v2;
}
