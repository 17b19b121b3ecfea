/**
 * V1 authenticates with two headers, "a partner-code header and an API-key header"; the reference does
 * not name them. We match plausible names case-insensitively:
 *
 * - partner code: `partner-code`, `partner_code`, `partnercode`, `store-code`, `store_code`, each with
 *   an optional `x-` prefix (e.g. `X-Partner-Code`);
 * - API key: `api-key`, `api_key`, `apikey`, `partner-api-key`, `partner-key`, each with an optional
 *   `x-` prefix (e.g. `X-Api-Key`).
 *
 * V2 uses a single header, `X-Service-Secret-Key`, carrying a secret key generated in the dashboard.
 */

export const V2_AUTH_HEADER = 'X-Service-Secret-Key';

export const V1_PARTNER_CODE_HEADER = /^(x-)?(partner|store)[-_]?code$/i;
export const V1_API_KEY_HEADER = /^(x-)?((partner[-_]?)?api[-_]?key|partner[-_]?key)$/i;

export const V2_KEY_EXPLANATION =
  'V2 authenticates every request with one header, X-Service-Secret-Key: <secret key>. Generate the key in the dashboard before the first call; it belongs to an organization (all keys of an organization share one rate-limit budget). V1 credentials (partner code + API key) do not work against V2, and test and production use different keys and references.';

export interface V1CredentialDetection {
  /** True when both V1 headers are present. */
  detected: boolean;
  partnerCodeHeader?: string;
  apiKeyHeader?: string;
  /** True when the V2 header is present too. */
  hasV2Key: boolean;
  note: string;
}

function headerNames(headers: Headers | Record<string, unknown> | Iterable<[string, string]>): string[] {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return [...headers.keys()];
  if (Symbol.iterator in Object(headers)) return [...(headers as Iterable<[string, string]>)].map(([k]) => k);
  return Object.keys(headers as Record<string, unknown>);
}

export function isV1PartnerCodeHeader(name: string): boolean {
  return V1_PARTNER_CODE_HEADER.test(name);
}

export function isV1ApiKeyHeader(name: string): boolean {
  return V1_API_KEY_HEADER.test(name);
}

/** Detects the V1 header pair in request headers (a Headers, a record or entries). */
export function detectV1Credentials(
  headers: Headers | Record<string, unknown> | Iterable<[string, string]>,
): V1CredentialDetection {
  const names = headerNames(headers);
  const partnerCodeHeader = names.find(isV1PartnerCodeHeader);
  const apiKeyHeader = names.find(isV1ApiKeyHeader);
  const hasV2Key = names.some((n) => n.toLowerCase() === V2_AUTH_HEADER.toLowerCase());
  const detected = partnerCodeHeader !== undefined && apiKeyHeader !== undefined;
  let note: string;
  if (detected) {
    note = `V1 credentials found (${partnerCodeHeader} + ${apiKeyHeader}). ${V2_KEY_EXPLANATION}`;
  } else if (partnerCodeHeader || apiKeyHeader) {
    note = `One V1-looking credential header found (${partnerCodeHeader ?? apiKeyHeader}). ${V2_KEY_EXPLANATION}`;
  } else if (hasV2Key) {
    note = 'Uses the V2 secret-key header.';
  } else {
    note = `No credential header found. ${V2_KEY_EXPLANATION}`;
  }
  const out: V1CredentialDetection = { detected, hasV2Key, note };
  if (partnerCodeHeader) out.partnerCodeHeader = partnerCodeHeader;
  if (apiKeyHeader) out.apiKeyHeader = apiKeyHeader;
  return out;
}
