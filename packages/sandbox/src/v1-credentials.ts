/**
 * The V1 credential header names the sandbox recognises (the reference: V1 authenticated with "a partner-code
 * header and an API-key header", names not shown). The sandbox keeps this list itself, apart from the SDK's
 * (DESIGN: sandbox and SDK share no wire-format code); a shared test checks that the two agree.
 *
 * A name is `[x-]<words>` where the words are joined by `-`, `_` or nothing, and are one of:
 * partner code, store code (the partner-code header); api key, partner key, partner api key (the API-key header).
 */
const CODE_WORDS = [
  ['partner', 'code'],
  ['store', 'code'],
] as const;
const KEY_WORDS = [
  ['api', 'key'],
  ['partner', 'key'],
  ['partner', 'api', 'key'],
] as const;
const SEPARATORS = ['-', '_', ''] as const;
const PREFIXES = ['', 'x-'] as const;

function spellings(words: ReadonlyArray<readonly string[]>): string[] {
  return words.flatMap((w) =>
    SEPARATORS.flatMap((sep) => PREFIXES.map((prefix) => `${prefix}${w.join(sep)}`)),
  );
}

const PARTNER_CODE_HEADERS: ReadonlySet<string> = new Set(spellings(CODE_WORDS));
const API_KEY_HEADERS: ReadonlySet<string> = new Set(spellings(KEY_WORDS));

/** Every recognised name, lowercase. */
export const V1_CREDENTIAL_HEADERS: readonly string[] = [...PARTNER_CODE_HEADERS, ...API_KEY_HEADERS];

/** Which V1 credential a header name carries (case-insensitive), if any. */
export function v1CredentialKind(name: string): 'partner-code' | 'api-key' | undefined {
  const lower = name.toLowerCase();
  if (PARTNER_CODE_HEADERS.has(lower)) return 'partner-code';
  if (API_KEY_HEADERS.has(lower)) return 'api-key';
  return undefined;
}

export function isV1CredentialHeader(name: string): boolean {
  return v1CredentialKind(name) !== undefined;
}

/** Whether a request carries any V1 credential header. */
export function hasV1Credentials(headers: Headers): boolean {
  for (const name of headers.keys()) if (isV1CredentialHeader(name)) return true;
  return false;
}
