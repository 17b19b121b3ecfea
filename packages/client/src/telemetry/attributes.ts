// Attribute values by the HTTP client semantic conventions (stable), and the project's own under partner_print.*.
import { TimeoutError } from '../errors.ts';
import { isError } from '../redact.ts';

const KNOWN_METHODS = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
]);

/** `http.request.method`: a known method as it is, anything else `_OTHER`. */
export const methodOf = (method: string): string => (KNOWN_METHODS.has(method) ? method : '_OTHER');

/** `server.address` and `server.port` of a URL (the port even when it is the scheme's default). */
export function serverOf(url: URL): { 'server.address': string; 'server.port': number } {
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { 'server.address': url.hostname.replace(/^\[|\]$/g, ''), 'server.port': port };
}

/**
 * `error.type` of a failure without a response: `timeout`, `aborted`, else the transport's error code
 * (`ECONNREFUSED`…) or the error's class name, all of low cardinality.
 */
export function errorTypeOf(error: unknown, signal?: AbortSignal): string {
  const reason = signal?.aborted ? signal.reason : undefined;
  if (error instanceof TimeoutError || reason instanceof TimeoutError) return 'timeout';
  if (reason !== undefined) return 'aborted';
  for (let e = error, depth = 0; isError(e) && depth < 4; depth++, e = e.cause) {
    const code: unknown = Reflect.get(e, 'code');
    if (typeof code === 'string' && code) return code;
  }
  return isError(error) ? error.name : '_OTHER';
}

/** Why an attempt is repeated: the status (`429`, `503`) or the failure's `error.type`. */
export const retryReasonOf = (status: number | undefined, error: unknown): string =>
  status === undefined ? errorTypeOf(error) : String(status);
