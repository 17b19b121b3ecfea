import { checkSecretKey, isV1CredentialHeader } from '@partner-print/openapi/wire';
import { DOCS_URL } from './docs.ts';
import { ConfigurationError, V1CredentialsError } from './errors.ts';

/** The migration guide on the published documentation site. */
export const MIGRATION_GUIDE: `${typeof DOCS_URL}#/guide-migrating-from-v1/what-changed` = `${DOCS_URL}#/guide-migrating-from-v1/what-changed`;
export const USER_AGENT = 'partner-print-sdk-client/0.0.0';

const V2_KEY = `API V2 takes one secret key, as secretKey (sent as X-Service-Secret-Key); see ${MIGRATION_GUIDE}`;

// localhost, *.localhost, [::1], 127.0.0.0/8
const LOOPBACK = /^(.*\.)?localhost$|^\[::1\]$|^127(\.\d{1,3}){3}$/;
const EXPECTED = 'https://<host>/…/v2 (http:// for loopback hosts only), without query or fragment';

/** Checks that the key can travel as a header value; the error says what is wrong, never the value. */
export function checkKey(secretKey: unknown): asserts secretKey is string {
  try {
    checkSecretKey(secretKey, 'secretKey');
  } catch (error) {
    // checkSecretKey throws a TypeError that names what is wrong.
    throw new ConfigurationError((error as Error).message, {
      code: secretKey ? 'invalid_secret_key' : 'missing_secret_key',
    });
  }
}

/**
 * Checks `baseUrl` and returns it without a trailing slash. Errors name only the scheme and host of a URL,
 * and only the length of a value that is no URL: a secret pasted into the wrong setting must not reach a log.
 */
export function checkBaseUrl(baseUrl: unknown): string {
  const url = typeof baseUrl === 'string' && URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  if (!url)
    throw new ConfigurationError(
      `baseUrl is not a URL (${typeof baseUrl === 'string' ? `a string of ${baseUrl.length} characters` : typeof baseUrl}); expected ${EXPECTED}`,
      { code: 'invalid_base_url' },
    );
  const path = url.pathname.replace(/\/+$/, '');
  const where = `${url.protocol}//${url.host}`;
  if (path.endsWith('/v1'))
    throw new V1CredentialsError(`baseUrl (${where}/…/v1) is API V1, not V2 (ending in /v2). ${V2_KEY}`, {
      code: 'v1_base_url',
    });
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname));
  if (!path.endsWith('/v2') || url.search || url.hash || url.username || url.password || !secure)
    throw new ConfigurationError(`baseUrl (${where}…) must be ${EXPECTED}`, { code: 'invalid_base_url' });
  return url.origin + path;
}

/**
 * A call's header collection as openapi-fetch can read it, which takes a global Headers or a record (of any
 * realm: it reads `Object.entries`) and drops the headers of anything else without a word: a collection read
 * as pairs (another library's Headers class, whose state is private; a Map; an array of pairs, sent as a header
 * named "0") or by `forEach(value, name)` is copied into a Headers. The common forms pass as they are. One
 * that cannot be read is a ConfigurationError naming `what`, never a name or value (a secret among them).
 */
export function readableHeaders(headers: unknown, what = 'headers'): unknown {
  if (!headers || typeof headers !== 'object' || headers instanceof Headers) return headers;
  const { forEach } = headers as { forEach?: unknown };
  const iterable = Symbol.iterator in headers;
  if (!iterable && typeof forEach !== 'function') return headers;
  try {
    const copy = new Headers(iterable ? (headers as HeadersInit) : undefined);
    if (!iterable)
      (forEach as (f: (value: string, name: string) => void) => void).call(headers, (value, name) =>
        copy.append(name, value),
      );
    return copy;
  } catch {
    throw new ConfigurationError(`${what} cannot be read as valid header pairs`);
  }
}

/**
 * Throws on a V1 credential header among the headers given to a call, as `readableHeaders` reads them
 * (openapi-fetch drops a record's null and undefined values, so those do not count). Returns whether they name
 * the User-Agent (a value of the caller's, or null to send none), undefined values left out.
 */
export function checkHeaders(given: unknown, what = 'headers'): boolean {
  const headers = readableHeaders(given, what);
  if (!headers || typeof headers !== 'object') return false;
  const record = !(headers instanceof Headers);
  let agent = false;
  for (const [name, value] of record ? Object.entries(headers) : headers) {
    if (value != null && isV1CredentialHeader(name))
      throw new V1CredentialsError(`V1 credential header ${name}: ${V2_KEY}`);
    if (value !== undefined && name.toLowerCase() === 'user-agent') agent = true;
    // A record's pair the platform's Headers would refuse, whose TypeError quotes it: a secret may be in it, and
    // the raw methods hand openapi-fetch's rejection on as it is. Only a suspect pair is tried.
    if (record && value != null && (/[^\w!#$%&'*+.^`|~-]/.test(name) || /[\0\r\n]/.test(String(value))))
      readableHeaders(Array.isArray(value) ? value.map((one) => [name, one]) : [[name, value]], what);
  }
  return agent;
}
