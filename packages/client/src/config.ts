import { ConfigurationError, V1CredentialsError } from './errors.ts';

export const MIGRATION_GUIDE = 'docs/guides/migrating-from-v1.md';
export const USER_AGENT = 'partner-print-sdk-client/0.0.0';

const V2_KEY = `API V2 takes one secret key, as secretKey (sent as X-Service-Secret-Key); see ${MIGRATION_GUIDE}`;

// localhost, *.localhost, [::1], 127.0.0.0/8
const LOOPBACK = /^(.*\.)?localhost$|^\[::1\]$|^127(\.\d{1,3}){3}$/;

/** Checks `baseUrl` and returns it without a trailing slash. */
export function checkBaseUrl(baseUrl: string): string {
  const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  const path = url?.pathname.replace(/\/+$/, '') ?? '';
  if (path.endsWith('/v1'))
    throw new V1CredentialsError(`baseUrl ${baseUrl} is API V1, not V2 (ending in /v2). ${V2_KEY}`, {
      code: 'v1_base_url',
    });
  if (
    !path.endsWith('/v2') ||
    url!.search ||
    url!.hash ||
    !(url!.protocol === 'https:' || (url!.protocol === 'http:' && LOOPBACK.test(url!.hostname)))
  )
    throw new ConfigurationError(
      `baseUrl must be https:// (http:// for loopback) ending in /v2, not ${baseUrl}`,
      {
        code: 'invalid_base_url',
      },
    );
  return url!.origin + path;
}

// The reference names the V1 headers only as "a partner-code header and an API-key header".
const V1_HEADER = /partner[-_]?code|api[-_]?key/i;

/**
 * Throws on a V1 credential header among the headers given to a call: a Headers, a list of pairs or a
 * record (openapi-fetch drops null and undefined values, so those do not count).
 */
export function checkHeaders(headers: unknown): void {
  if (headers && typeof headers === 'object')
    for (const [name, value] of headers instanceof Headers || Array.isArray(headers)
      ? (headers as Iterable<[string, unknown]>)
      : Object.entries(headers))
      if (value != null && V1_HEADER.test(name))
        throw new V1CredentialsError(`V1 credential header ${name}: ${V2_KEY}`, { code: 'v1_credentials' });
}
