import {
  AuthenticationError,
  GoneError,
  NotFoundError,
  PartnerPrintError,
  type PartnerPrintErrorInit,
  RateLimitedError,
  type RateLimitSnapshot,
  RendertokenLimitError,
  ValidationError,
} from './errors.ts';

/** Seconds from a `Retry-After` header (delta-seconds or HTTP-date), or undefined. */
export function retryAfterSeconds(headers: Headers, now: number): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

export type RateLimitParser = (headers: Headers) => unknown;

export function rateLimitSnapshot(headers: Headers, parse?: RateLimitParser): RateLimitSnapshot | undefined {
  const policy = headers.get('x-ratelimit-policy') ?? headers.get('ratelimit-policy');
  const limit = headers.get('x-ratelimit') ?? headers.get('ratelimit');
  if (policy === null && limit === null) return undefined;
  const snapshot: RateLimitSnapshot = { policy, limit };
  if (parse)
    try {
      snapshot.parsed = parse(headers);
    } catch {
      // malformed rate-limit fields are ignored, never fatal
    }
  return snapshot;
}

const requestIdOf = (h: Headers) =>
  h.get('x-request-id') ?? h.get('request-id') ?? h.get('x-correlation-id') ?? undefined;

export interface ErrorContext {
  operation?: string | undefined;
  method: string;
  path: string;
  now: number;
  parseRateLimit?: RateLimitParser | undefined;
  scrub: (text: string) => string;
}

/** The error for a non-2xx response, `body` being its parsed JSON (`{ code, message }`) or text. */
export function errorFromResponse(response: Response, body: unknown, ctx: ErrorContext): PartnerPrintError {
  const { status, headers } = response;
  const b = (body && typeof body === 'object' ? body : {}) as { code?: unknown; message?: unknown };
  const code = typeof b.code === 'string' ? b.code : undefined;
  const detail = typeof b.message === 'string' ? b.message : response.statusText || `HTTP ${status}`;
  const retryAfter = retryAfterSeconds(headers, ctx.now);
  const init: PartnerPrintErrorInit = {
    status,
    code,
    operation: ctx.operation,
    method: ctx.method,
    path: ctx.path,
    retryAfter,
    rateLimit: rateLimitSnapshot(headers, ctx.parseRateLimit),
    requestId: requestIdOf(headers),
  };
  const message = ctx.scrub(
    `${ctx.operation ?? `${ctx.method} ${ctx.path}`} failed with ${status}${code ? ` ${code}` : ''}: ${detail}`,
  );
  if (status === 401 || status === 403) return new AuthenticationError(message, init);
  if (status === 404) return new NotFoundError(message, init);
  if (status === 410) return new GoneError(message, init);
  if (status === 429) {
    if (code === 'rendertoken_limit_exceeded')
      return new RendertokenLimitError(message, {
        ...init,
        resetsAt: retryAfter === undefined ? undefined : new Date(ctx.now + retryAfter * 1000),
      });
    return new RateLimitedError(message, init);
  }
  if (status >= 400 && status < 500) return new ValidationError(message, init);
  return new PartnerPrintError(message, init);
}
