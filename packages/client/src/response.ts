import {
  AuthenticationError,
  GoneError,
  NotFoundError,
  PartnerPrintError,
  RateLimitedError,
  RendertokenLimitError,
  ValidationError,
} from './errors.ts';

/** Seconds from a `Retry-After` header (delta-seconds or HTTP-date), or undefined. */
export function retryAfterSeconds(headers: Headers, now: number): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number.isFinite(+value) ? +value : (Date.parse(value) - now) / 1000;
  return Number.isNaN(seconds) ? undefined : Math.max(0, seconds);
}

export type RateLimitParser = (headers: Headers) => unknown;

/** What a call was: `operation` (operationId) when the path is in the spec, else `METHOD /path`. */
export interface CallContext {
  operation?: string | undefined;
  method: string;
  path: string;
}

export const describeCall = (c: CallContext) => c.operation ?? `${c.method} ${c.path}`;

export interface ErrorContext extends CallContext {
  now: number;
  parseRateLimit?: RateLimitParser | undefined;
  scrub: (text: string) => string;
}

const BY_STATUS: Record<number, typeof PartnerPrintError> = {
  401: AuthenticationError,
  403: AuthenticationError,
  404: NotFoundError,
  410: GoneError,
};

/** The error for a non-2xx response, `body` being its parsed JSON (`{ code, message }`) or text. */
export function errorFromResponse(response: Response, body: unknown, ctx: ErrorContext): PartnerPrintError {
  const { status, headers } = response;
  const { code, message } = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const known = typeof code === 'string' ? code : undefined;
  const retryAfter = retryAfterSeconds(headers, ctx.now);
  const policy = headers.get('x-ratelimit-policy');
  const limit = headers.get('x-ratelimit');
  let parsed: unknown;
  try {
    parsed = ctx.parseRateLimit?.(headers);
  } catch {
    // malformed rate-limit fields are ignored, never fatal
  }
  const Class =
    status === 429
      ? known === 'rendertoken_limit_exceeded'
        ? RendertokenLimitError
        : RateLimitedError
      : (BY_STATUS[status] ?? (status > 399 && status < 500 ? ValidationError : PartnerPrintError));
  return new Class(
    ctx.scrub(
      `${describeCall(ctx)} failed with ${status}${known ? ` ${known}` : ''}: ${
        typeof message === 'string' ? message : response.statusText || `HTTP ${status}`
      }`,
    ),
    {
      status,
      code: known,
      operation: ctx.operation,
      method: ctx.method,
      path: ctx.path,
      retryAfter,
      rateLimit: policy !== null || limit !== null ? { policy, limit, parsed } : undefined,
      requestId: headers.get('x-request-id') ?? undefined,
      ...(Class === RendertokenLimitError &&
        retryAfter !== undefined && { resetsAt: new Date(ctx.now + retryAfter * 1000) }),
    },
  );
}
