/** The one header V2 authenticates with. */
export const V2_SECRET_KEY_HEADER = 'X-Service-Secret-Key';

/**
 * V1 authenticated with "a partner-code header and an API-key header"; the reference does not name them.
 * These are the plausible spellings (lowercase), each with and without an `x-` prefix: the words of
 * partner code or store code (the partner code), api key, partner key or partner api key (the API key),
 * joined by `-`, `_` or nothing (one separator throughout a name).
 */
const V1_WORDS = ['partner code', 'store code', 'api key', 'partner api key', 'partner key'];

/** Every V1 credential header name the SDK recognises, lowercase. */
export const V1_CREDENTIAL_HEADERS: readonly string[] = /* @__PURE__ */ V1_WORDS.flatMap((words) =>
  ['-', '_', ''].flatMap((separator) => {
    const name = words.split(' ').join(separator);
    return [name, `x-${name}`];
  }),
);

// Each name's kind, from the name itself: a `…code` carries the partner code, a `…key` the API key.
const KINDS = /* @__PURE__ */ new Map(
  /* @__PURE__ */ V1_CREDENTIAL_HEADERS.map((name) => [
    name,
    name.endsWith('code') ? ('partner-code' as const) : ('api-key' as const),
  ]),
);

/** Which V1 credential a header name is: the partner code, the API key, or neither. */
export function v1CredentialKind(name: string): 'partner-code' | 'api-key' | undefined {
  return KINDS.get(name.toLowerCase());
}

// The same names as one pattern: a client that only checks headers holds this, not the list (a test checks
// that it matches exactly the names of the list).
const V1_NAME = /^(?:x-)?(?:(?:partner|store)[-_]?code|api[-_]?key|partner([-_]?)(?:api\1)?key)$/;

/** Whether a header name is one of {@link V1_CREDENTIAL_HEADERS} (case-insensitive). */
export function isV1CredentialHeader(name: string): boolean {
  return V1_NAME.test(name.toLowerCase());
}

function describeBadCharacter(key: string): string | undefined {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    const bad =
      c === 0
        ? 'a NUL character'
        : c === 10 || c === 13
          ? 'a line break'
          : c < 0x20 || c === 0x7f
            ? 'a control character'
            : c === 0x20
              ? 'a space'
              : c > 0x7e
                ? 'a non-ASCII character'
                : undefined;
    if (bad) return `${bad} at position ${i + 1}`;
  }
  return undefined;
}

/**
 * Checks that a secret key can travel as an HTTP header value: a non-empty string of visible ASCII
 * characters. Throws a TypeError that describes the problem (length, kind and position of a bad character)
 * and never contains the value, so it cannot reach a log.
 */
export function checkSecretKey(key: unknown, name = 'secretKey'): asserts key is string {
  if (typeof key !== 'string')
    throw new TypeError(`${name} must be a string, not ${key === null ? 'null' : typeof key}`);
  if (key.length === 0) throw new TypeError(`${name} is empty: pass the V2 secret key from the dashboard`);
  const bad = describeBadCharacter(key);
  if (bad)
    throw new TypeError(
      `${name} (${key.length} characters) has ${bad}; a key is visible ASCII characters only (copy it again from the dashboard)`,
    );
}
