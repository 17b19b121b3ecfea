import { ConfigurationError, V1CredentialsError } from './errors.ts';

export const MIGRATION_GUIDE = 'docs/guides/migrating-from-v1.md';

const V2_KEY =
  'API V2 authenticates with one header, X-Service-Secret-Key, carrying a secret key generated in the dashboard: pass it as `secretKey`.';

const isLoopback = (host: string): boolean =>
  host === 'localhost' ||
  host.endsWith('.localhost') ||
  host === '[::1]' ||
  /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/** Checks `baseUrl` and returns it without a trailing slash. */
export function checkBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigurationError(`baseUrl is not an absolute URL: ${baseUrl}`, { code: 'invalid_base_url' });
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/v1$/i.test(path))
    throw new V1CredentialsError(
      `baseUrl ${baseUrl} points at API V1; this client speaks V2 (the same host with /v2). ${V2_KEY} See ${MIGRATION_GUIDE}.`,
      { code: 'v1_base_url' },
    );
  if (!path.endsWith('/v2') || url.search || url.hash)
    throw new ConfigurationError(`baseUrl must end with the version segment /v2, got ${baseUrl}`, {
      code: 'invalid_base_url',
    });
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname)))
    throw new ConfigurationError(
      `baseUrl must use https:// (plain http:// only for loopback hosts such as localhost), got ${url.protocol}//${url.host}`,
      { code: 'invalid_base_url' },
    );
  return url.origin + path;
}

// The reference names the V1 headers only as "a partner-code header and an API-key header".
const V1_HEADER = /partner[-_]?code|api[-_]?key/i;

export function checkHeaders(headers: Headers, method: string, path: string): void {
  for (const [name] of headers)
    if (V1_HEADER.test(name))
      throw new V1CredentialsError(
        `The request carries the V1 credential header "${name}", which API V2 does not accept. ${V2_KEY} Remove the V1 partner-code and API-key headers; see ${MIGRATION_GUIDE}.`,
        { code: 'v1_credentials', method, path },
      );
}
