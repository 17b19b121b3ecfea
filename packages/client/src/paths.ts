// The URL of a call, as openapi-fetch's own serializers make it, for less work per call. openapi-fetch's
// default path serializer matches a pattern over the whole URL on every call and replaces each parameter in
// turn, and its default query serializer is made again for every call: about 5 % of a bare openapi-fetch GET
// on a prepared answer (bench/per-request.ts measures the client against it).
import { defaultPathSerializer } from 'openapi-fetch';

/** openapi-fetch's pattern of a path parameter, its name captured: a split gives literal, name, literal… */
const PARAM = /\{([^{}]+)\}/;

/**
 * A URL template split by {@link PARAM} (its literal parts at even indexes, its parameters' names at odd ones),
 * or 0 where openapi-fetch's serializer is needed.
 */
export type Parts = Map<string, string[] | 0>;

/** Templates a client keeps (the V2 API has 28 paths, 11 with parameters): past them, openapi-fetch's serializer. */
export const KEPT = 256;

/**
 * openapi-fetch's `defaultPathSerializer`, with the same result for every URL and the parameters openapi-fetch
 * passes it, a truthy `params.path` (differential tests hold the two together; a getter is read once here, up
 * to three times there), made per client: each template (the base URL included) split once into its literal
 * parts, and a primitive value percent-encoded into its place.
 *
 * That placing by position gives what openapi-fetch's replacing in turn gives (each placeholder's first
 * occurrence in the URL as it stands) only where no value or literal part can make a new placeholder: an
 * encoded value holds no brace and no `$`, and a template whose literal parts hold a brace (`{{a}}`), or a
 * parameter of another style than "simple" (`{.label}`, `{;matrix}`, `{exploded*}`), goes to openapi-fetch's
 * serializer, as does an array or object value. Every path of the V2 API is in simple style, without braces.
 */
export function pathSerializer(parts: Parts = new Map()) {
  return (url: string, params: Record<string, unknown>): string => {
    let found = parts.get(url);
    if (found === undefined) {
      // A URL a caller makes up past the templates kept: not split, not kept.
      if (parts.size >= KEPT) return defaultPathSerializer(url, params);
      const split = url.split(PARAM);
      // A brace (never in a name), or a name that starts with . or ; or ends with *: one pattern for every part,
      // so a literal part such as `.json` after a parameter sends the template to openapi-fetch for nothing.
      found = split.some((part) => /[{}]|^[.;]|\*$/.test(part)) ? 0 : split;
      parts.set(url, found);
    }
    if (!found) return defaultPathSerializer(url, params);
    let out = found[0]!;
    for (let i = 1; i < found.length; i += 2) {
      const value = params[found[i]!];
      if (value != null && typeof value === 'object') return defaultPathSerializer(url, params);
      // A missing value leaves its placeholder, as openapi-fetch does.
      out += (value == null ? `{${found[i]}}` : encodeURIComponent(value as string)) + found[i + 1];
    }
    return out;
  };
}
