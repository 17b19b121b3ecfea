// The URL of a call, as openapi-fetch's own serializers make it, for less work per call. openapi-fetch's
// default path serializer matches a pattern over the whole URL on every call and replaces each parameter in
// turn, and its default query serializer is made again for every call: about 5 % of a bare openapi-fetch GET
// on a prepared answer (bench/per-request.ts measures the client against it).
import { defaultPathSerializer } from 'openapi-fetch';

/** openapi-fetch's pattern of a path parameter. */
const PARAM = /\{[^{}]+\}/g;

/**
 * Per URL template (the base URL included): its literal parts and its parameters' names, or 0 where one is not
 * in "simple" style (`{.label}`, `{;matrix}`, `{exploded*}`); every path of the V2 API is simple. At most
 * {@link KEPT} of them: the spec has about 40 templates, and a caller's own URLs stop being kept past that.
 */
const parts = new Map<string, [literals: string[], names: string[]] | 0>();
const KEPT = 512;

/**
 * openapi-fetch's `defaultPathSerializer`, with the same result for every URL and parameters (a differential
 * test holds the two together): a template's parts found once, and a primitive value percent-encoded into
 * its place, which replacing in turn gives too, as an encoded value holds no brace and no `$`. An array or
 * object value, or a parameter of another style, goes to openapi-fetch's serializer.
 */
export function pathSerializer(url: string, params: Record<string, unknown>): string {
  let found = parts.get(url);
  if (found === undefined) {
    const names = (url.match(PARAM) ?? []).map((match) => match.slice(1, -1));
    found = names.some((name) => /^[.;]|\*$/.test(name)) ? 0 : [url.split(PARAM), names];
    if (parts.size < KEPT) parts.set(url, found);
  }
  if (!found) return defaultPathSerializer(url, params);
  const [literals, names] = found;
  let out = literals[0]!;
  for (let i = 0; i < names.length; i++) {
    const value = params[names[i]!];
    if (value != null && typeof value === 'object') return defaultPathSerializer(url, params);
    // A missing value leaves its placeholder, as openapi-fetch does.
    out += (value == null ? `{${names[i]}}` : encodeURIComponent(value as string)) + literals[i + 1];
  }
  return out;
}
