import { bucketsOf } from '@partner-print/openapi/wire';

/** A policy as the scheduler uses it: quota units per window. */
export interface PolicySpec {
  quota: number;
  windowSeconds: number;
}

export interface RateLimitDefaults {
  /** Policies before the first headers describe them. */
  policies: Record<string, PolicySpec>;
  /**
   * The buckets a request consumes before responses taught its route's: `path` is the route template after
   * the version segment (`/renders/*\/media`). Default: the spec's `x-rate-limit-buckets` (`bucketsOf`).
   */
  buckets?: (method: string, path: string) => readonly string[];
}

/** The reference's documented policies (API v2, "Limits → Rate limits"). Live headers replace them. */
export const REFERENCE_DEFAULTS: RateLimitDefaults = {
  policies: {
    default: { quota: 3000, windowSeconds: 60 },
    uploads: { quota: 5000, windowSeconds: 86400 },
    downloads: { quota: 100000, windowSeconds: 86400 },
  },
  buckets: bucketsOf,
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
  // A client calls the same few URLs again and again: their keys are kept (a bounded memo of short URLs,
  // cleared when full).
  if (url.length > MEMO_URL_LENGTH) return computeRouteKey(method, url);
  let byUrl = routeKeys.get(method);
  if (!byUrl) {
    if (routeKeys.size >= ROUTE_KEYS_KEPT) routeKeys.clear();
    byUrl = new Map();
    routeKeys.set(method, byUrl);
  }
  let key = byUrl.get(url);
  if (key === undefined) {
    key = computeRouteKey(method, url);
    if (byUrl.size >= ROUTE_KEYS_KEPT) byUrl.clear();
    byUrl.set(url, key);
  }
  return key;
}

/** Per method (as given), per URL. */
const routeKeys = new Map<string, Map<string, string>>();
const ROUTE_KEYS_KEPT = 512;
const MEMO_URL_LENGTH = 256;

function computeRouteKey(method: string, url: string): string {
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

/** Buckets a route (`METHOD /path/template`) consumes according to the defaults. */
export function defaultBuckets(defaults: RateLimitDefaults, route: string): readonly string[] {
  const space = route.indexOf(' ');
  return (defaults.buckets ?? bucketsOf)(route.slice(0, space), route.slice(space + 1));
}
