/** The one header V2 authenticates with. */
export const V2_SECRET_KEY_HEADER = 'X-Service-Secret-Key';

/**
 * V1 authenticated with "a partner-code header and an API-key header"; the reference does not name them.
 * These are the plausible spellings (lowercase), each with and without an `x-` prefix.
 */
const PARTNER_CODE_NAMES = [
  'partner-code',
  'partner_code',
  'partnercode',
  'store-code',
  'store_code',
  'storecode',
] as const;
const API_KEY_NAMES = [
  'api-key',
  'api_key',
  'apikey',
  'partner-api-key',
  'partner_api_key',
  'partnerapikey',
  'partner-key',
  'partner_key',
  'partnerkey',
] as const;

const withPrefix = (names: readonly string[]): string[] => names.flatMap((n) => [n, `x-${n}`]);

/** Every V1 credential header name the SDK recognises, lowercase. */
export const V1_CREDENTIAL_HEADERS: readonly string[] = [
  ...withPrefix(PARTNER_CODE_NAMES),
  ...withPrefix(API_KEY_NAMES),
];

const PARTNER_CODE = new Set(withPrefix(PARTNER_CODE_NAMES));
const API_KEY = new Set(withPrefix(API_KEY_NAMES));

/** Which V1 credential a header name is: the partner code, the API key, or neither. */
export function v1CredentialKind(name: string): 'partner-code' | 'api-key' | undefined {
  const lower = name.toLowerCase();
  if (PARTNER_CODE.has(lower)) return 'partner-code';
  if (API_KEY.has(lower)) return 'api-key';
  return undefined;
}

/** Whether a header name is one of {@link V1_CREDENTIAL_HEADERS} (case-insensitive). */
export function isV1CredentialHeader(name: string): boolean {
  return v1CredentialKind(name) !== undefined;
}

function describeBadCharacter(key: string): string | undefined {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c === 0) return `a NUL character at position ${i + 1}`;
    if (c === 10 || c === 13) return `a line break at position ${i + 1}`;
    if (c < 0x20 || c === 0x7f) return `a control character at position ${i + 1}`;
    if (c === 0x20) return `a space at position ${i + 1}`;
    if (c > 0x7e) return `a non-ASCII character at position ${i + 1}`;
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
