// The redirect policy. Requests go out with `redirect: 'manual'`: fetch would otherwise follow a redirect to any
// origin with every custom header, the secret key included (fetch strips only Authorization, and only
// cross-origin). The client follows same-origin redirects itself and refuses the rest.
import { RedirectError } from './errors.ts';
import { type CallContext, describeCall } from './response.ts';

/** Same-origin redirects followed within one call, at most. */
export const MAX_REDIRECTS = 5;

const FOLLOWED = new Set([301, 302, 303, 307, 308]);

/** Whether a response is a redirect the client must decide on (an opaque one included). */
export const isRedirect = (response: Response): boolean =>
  response.type === 'opaqueredirect' || (FOLLOWED.has(response.status) && response.headers.has('location'));

/**
 * The request to send next for a redirect response, or a RedirectError: only to the same origin (scheme, host
 * and port), at most MAX_REDIRECTS times. 303 (and 301/302 after a POST) continue as a GET without body, as
 * fetch does; 307/308 repeat the method and body.
 */
export function followRedirect(
  request: Request,
  response: Response,
  hops: number,
  context: CallContext,
): Request | RedirectError {
  const call = describeCall(context);
  const fail = (message: string, code: string, location?: string) =>
    new RedirectError(`${call}: ${message}; the secret key is not sent there, so the call stops here`, {
      ...context,
      status: response.status || undefined,
      code,
      location,
    });
  if (response.type === 'opaqueredirect')
    return fail(
      'the service answered with a redirect this runtime does not let the client read (an opaque redirect, as in browsers)',
      'opaque_redirect',
    );
  const from = new URL(request.url);
  const location = response.headers.get('location') ?? '';
  const target = URL.canParse(location, from) ? new URL(location, from) : undefined;
  const redirected = `the service redirected (${response.status})`;
  if (!target) return fail(`${redirected} to a location that is not a URL`, 'invalid_redirect');
  if (from.protocol === 'https:' && target.protocol !== 'https:')
    return fail(`${redirected} from https to ${target.origin}`, 'insecure_redirect', target.origin);
  if (target.origin !== from.origin)
    return fail(`${redirected} to another origin, ${target.origin}`, 'cross_origin_redirect', target.origin);
  if (hops >= MAX_REDIRECTS)
    return fail(`more than ${MAX_REDIRECTS} redirects`, 'too_many_redirects', target.origin);
  return redirectedRequest(request, response.status, target);
}

function redirectedRequest(request: Request, status: number, target: URL): Request {
  const asGet = status === 303 || ((status === 301 || status === 302) && request.method === 'POST');
  const headers = new Headers(request.headers);
  if (asGet) for (const name of ['content-type', 'content-length', 'content-encoding']) headers.delete(name);
  return new Request(target, {
    method: asGet && request.method !== 'HEAD' ? 'GET' : request.method,
    headers,
    body: asGet ? null : request.clone().body,
    signal: request.signal,
    redirect: 'manual',
    // Required by Node for a stream body; other runtimes ignore it.
    ...(asGet || !request.body ? {} : { duplex: 'half' }),
  });
}
