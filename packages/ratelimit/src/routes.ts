/** A policy as the scheduler uses it: quota units per window. */
export interface PolicySpec {
  quota: number;
  windowSeconds: number;
}

/** A route that consumes a dedicated bucket besides `default`, before the headers say otherwise. */
export interface DefaultRoute {
  method: string;
  /** Route template as produced by {@link routeKey}'s path part, e.g. `/renders/*\/media`. */
  path: string;
  policy: string;
}

export interface RateLimitDefaults {
  policies: Record<string, PolicySpec>;
  /** Policies every request consumes. */
  everyRequest: readonly string[];
  routes: readonly DefaultRoute[];
}

/** The reference's documented policies (API v2, "Limits → Rate limits"). Live headers replace them. */
export const REFERENCE_DEFAULTS: RateLimitDefaults = {
  policies: {
    default: { quota: 3000, windowSeconds: 60 },
    uploads: { quota: 5000, windowSeconds: 86400 },
    downloads: { quota: 100000, windowSeconds: 86400 },
  },
  everyRequest: ['default'],
  routes: [
    { method: 'POST', path: '/images', policy: 'uploads' },
    { method: 'POST', path: '/evidence', policy: 'uploads' },
    { method: 'GET', path: '/renders/*/media', policy: 'downloads' },
    { method: 'GET', path: '/renders/*/thumbnail', policy: 'downloads' },
    { method: 'GET', path: '/products/*/media/*', policy: 'downloads' },
  ],
};

// `<Resource>_<26 opaque characters>`: recognised by the prefix alone (a capitalised word and `_`, which
// no path segment of the API starts with), since the alphabet of the 26 is not documented and a
// percent-encoded one is longer. Numeric ids are treated the same way.
const REFERENCE = /^[A-Z][A-Za-z]*_./;
const NUMERIC = /^\d+$/;
const VERSION = /^v\d+$/;
// scheme://authority, then the path up to the query or fragment
const ABSOLUTE = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*([^?#]*)/i;

/**
 * `METHOD /path/template`: the path after the version segment (`/v2`), references replaced by `*`, and the
 * file name of product media (`/products/*\/media/{filename}`) folded too, so one route has one key.
 */
export function routeKey(method: string, url: string): string {
  // The path of an absolute URL, read without building a URL object (the costliest step here).
  const absolute = ABSOLUTE.exec(url);
  let pathname: string;
  if (absolute) pathname = absolute[1] ?? '';
  else
    try {
      pathname = new URL(url).pathname;
    } catch {
      pathname = url.split('?')[0] ?? '';
    }
  const segments = pathname.split('/').filter((s) => s !== '');
  const version = segments.findIndex((s) => VERSION.test(s));
  const rest = version === -1 ? segments : segments.slice(version + 1);
  const normalized = rest.map((segment, i) => {
    if (REFERENCE.test(segment) || NUMERIC.test(segment)) return '*';
    if (i === 3 && rest[0] === 'products' && rest[2] === 'media') return '*';
    return segment;
  });
  return `${method.toUpperCase()} /${normalized.join('/')}`;
}

/** Buckets a route consumes according to the defaults. */
export function defaultBuckets(defaults: RateLimitDefaults, route: string): string[] {
  const names = [...defaults.everyRequest];
  for (const r of defaults.routes) {
    if (route === `${r.method.toUpperCase()} ${r.path}` && !names.includes(r.policy)) names.push(r.policy);
  }
  return names;
}
