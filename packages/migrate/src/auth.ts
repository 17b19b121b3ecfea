/**
 * V1 authenticates with two headers, "a partner-code header and an API-key header"; the reference does
 * not name them. The names the SDK recognises are one list, `V1_CREDENTIAL_HEADERS` in
 * `@partner-print/openapi/wire` (the client's V1 guard uses the same list): partner code `partner-code`,
 * `partner_code`, `partnercode`, `store-code`, `store_code`, `storecode`; API key `api-key`, `api_key`,
 * `apikey`, `partner-api-key`, `partner_api_key`, `partnerapikey`, `partner-key`, `partner_key`,
 * `partnerkey`; each with an optional `x-` prefix, matched case-insensitively.
 *
 * V2 uses a single header, `X-Service-Secret-Key`, carrying a secret key generated in the dashboard.
 */
import { V2_SECRET_KEY_HEADER, v1CredentialKind } from '@partner-print/openapi/wire';

export const V2_KEY_EXPLANATION: `V2 authenticates every request with one header, ${typeof V2_SECRET_KEY_HEADER}: <secret key>. Generate the key in the dashboard before the first call; it belongs to an organization (all keys of an organization share one rate-limit budget). V1 credentials (partner code + API key) do not work against V2, and test and production use different keys and references.` = `V2 authenticates every request with one header, ${V2_SECRET_KEY_HEADER}: <secret key>. Generate the key in the dashboard before the first call; it belongs to an organization (all keys of an organization share one rate-limit budget). V1 credentials (partner code + API key) do not work against V2, and test and production use different keys and references.`;

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
  if (Symbol.iterator in headers) return Array.from(headers, ([k]) => k);
  return Object.keys(headers);
}

/** Whether a header name is a V1 partner-code header (from the wire module's one list). */
export function isV1PartnerCodeHeader(name: string): boolean {
  return v1CredentialKind(name) === 'partner-code';
}

/** Whether a header name is a V1 API-key header (from the wire module's one list). */
export function isV1ApiKeyHeader(name: string): boolean {
  return v1CredentialKind(name) === 'api-key';
}

function noteFor(partnerCodeHeader: string | undefined, apiKeyHeader: string | undefined, hasV2Key: boolean) {
  if (partnerCodeHeader && apiKeyHeader) {
    return `V1 credentials found (${partnerCodeHeader} + ${apiKeyHeader}). ${V2_KEY_EXPLANATION}`;
  }
  const one = partnerCodeHeader ?? apiKeyHeader;
  if (one) return `One V1-looking credential header found (${one}). ${V2_KEY_EXPLANATION}`;
  if (hasV2Key) return 'Uses the V2 secret-key header.';
  return `No credential header found. ${V2_KEY_EXPLANATION}`;
}

/** Detects the V1 header pair in request headers (a Headers, a record or entries). */
export function detectV1Credentials(
  headers: Headers | Record<string, unknown> | Iterable<[string, string]>,
): V1CredentialDetection {
  const names = headerNames(headers);
  const partnerCodeHeader = names.find(isV1PartnerCodeHeader);
  const apiKeyHeader = names.find(isV1ApiKeyHeader);
  const hasV2Key = names.some((n) => n.toLowerCase() === V2_SECRET_KEY_HEADER.toLowerCase());
  return {
    detected: partnerCodeHeader !== undefined && apiKeyHeader !== undefined,
    hasV2Key,
    note: noteFor(partnerCodeHeader, apiKeyHeader, hasV2Key),
    ...(partnerCodeHeader ? { partnerCodeHeader } : {}),
    ...(apiKeyHeader ? { apiKeyHeader } : {}),
  };
}
