import { RATE_LIMIT_ROUTES, type RateLimitRoute } from '../generated/rate-limit-routes.ts';

export { RATE_LIMIT_ROUTES, type RateLimitRoute };

/** The bucket every authenticated request consumes. */
export const DEFAULT_BUCKET = 'default';

interface CompiledRoute {
  method: string;
  pattern: RegExp;
  buckets: readonly string[];
}

let compiled: CompiledRoute[] | undefined;

// `{param}` matches one path segment; everything else is literal.
const compile = (route: RateLimitRoute): CompiledRoute => ({
  method: route.method,
  pattern: new RegExp(
    `^${route.path
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}/?$`,
  ),
  buckets: route.buckets,
});

/**
 * The buckets a request consumes according to the spec (`x-rate-limit-buckets` of its operation): `path` is
 * the path after the version segment, concrete (`/renders/Render_…/media`) or a template. A route the spec
 * does not know consumes `default` only. Live `X-RateLimit` headers override this table.
 */
export function bucketsOf(method: string, path: string): readonly string[] {
  compiled ??= RATE_LIMIT_ROUTES.map(compile);
  const upper = method.toUpperCase();
  const pathname = path.split(/[?#]/)[0] ?? '';
  // A template's `{param}` is one segment too, so templates match their own pattern.
  return compiled.find((r) => r.method === upper && r.pattern.test(pathname))?.buckets ?? [DEFAULT_BUCKET];
}
