import type { ErrorCode } from './codes.ts';
import { docUrlOf } from './docs.ts';

export type { ErrorCode };

/** The rate-limit headers of the response that failed, as sent, plus their parsed form when available. */
export interface RateLimitSnapshot {
  /** Raw `X-RateLimit-Policy` value. */
  policy: string | null;
  /** Raw `X-RateLimit` value. */
  limit: string | null;
  /** The result of @partner-print/ratelimit's `parseRateLimitHeaders`, when it could be parsed. */
  parsed?: unknown;
}

export interface PartnerPrintErrorInit {
  status?: number;
  code?: ErrorCode;
  /** The operationId of the call (`createOrder`, `listClaims`…), when known. */
  operation?: string;
  method?: string;
  /** The request path below the base URL, e.g. `/orders/Order_…`. */
  path?: string;
  /** Seconds, from the `Retry-After` header. */
  retryAfter?: number;
  rateLimit?: RateLimitSnapshot;
  requestId?: string;
  cause?: unknown;
  /** Requests the call sent, retries and redirects included (every error after at least one send). */
  attempts?: number;
  /** Milliseconds the call waited between its attempts (backoff and Retry-After), with `attempts`. */
  retryDelayMs?: number;
  /** RendertokenLimitError only. */
  resetsAt?: Date;
  /** RedirectError only: the origin the service redirected to (`https://host:port`), never its path or query. */
  location?: string;
}

/** Marks the error classes of every copy of this package: a registered symbol is the same in each. */
const COPIES = Symbol.for('partner-print.error');
/** What names an error class in every copy: its own `defaultCode`, else (a subclass without one) its name. */
const classId = (c: typeof PartnerPrintError): string =>
  Object.hasOwn(c, 'defaultCode') ? c.defaultCode : c.name;

const up = Object.getPrototypeOf;

/** Whether `value` is an instance of the class `c`, of this copy or (by {@link classId}) of another. */
function isInstance(c: typeof PartnerPrintError, value: unknown): boolean {
  // Every prototype of every copy's errors holds the mark; PartnerPrintError's parent (Error) does not.
  const root = !(COPIES in up(c).prototype);
  const id = classId(c);
  for (let p = Object(value) === value ? up(value) : null; p && COPIES in p; p = up(p))
    if (p === c.prototype || root || classId(p.constructor) === id) return true;
  return false;
}

/**
 * The one error hierarchy of the SDK. It carries no request, headers or body, so the secret key
 * cannot leak through `message`, `toString()`, `JSON.stringify` or `util.inspect`.
 */
export class PartnerPrintError extends Error {
  /**
   * The `code` of an error made without one: every SDK error has a code (the service's, when its answer
   * had one; else its class's). Each subclass names its own.
   */
  static readonly defaultCode: string = 'sdk_error';
  static {
    Object.defineProperty(PartnerPrintError.prototype, COPIES, { value: true });
  }

  /**
   * `instanceof` across copies of this package in one program (two versions installed side by side, a
   * library's bundle, a test's fresh module graph): an error of another copy's class counts as an instance of
   * this copy's class that is the same class — the same own `defaultCode` (every class of this module has
   * one), else the same class name — or of PartnerPrintError.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: the class `instanceof` asks about (a subclass inherits this)
    return isInstance(this, value);
  }

  override name = 'PartnerPrintError';
  declare readonly status: number | undefined;
  declare readonly code: ErrorCode | undefined;
  declare readonly operation: string | undefined;
  declare readonly method: string | undefined;
  declare readonly path: string | undefined;
  declare readonly retryAfter: number | undefined;
  declare readonly rateLimit: RateLimitSnapshot | undefined;
  declare readonly requestId: string | undefined;
  declare readonly attempts: number | undefined;
  declare readonly retryDelayMs: number | undefined;

  // `docUrl` is derived (a getter): an init copied from another error's toJSON() may carry it.
  constructor(
    message: string,
    { cause, docUrl: _, ...fields }: PartnerPrintErrorInit & { docUrl?: unknown } = {},
  ) {
    super(message, cause === undefined ? undefined : { cause });
    Object.assign(this, fields);
    if (this.code === undefined)
      Object.assign(this, { code: (new.target as typeof PartnerPrintError).defaultCode });
  }

  /** This error's section of the docs site's error reference: its class, its codes and the guides on them. */
  get docUrl(): string {
    return docUrlOf(this.name);
  }

  /** Every field but `cause` and `stack`, and `docUrl`. */
  toJSON(): Record<string, unknown> {
    return {
      ...(this as object),
      name: this.name,
      message: this.message,
      docUrl: this.docUrl,
    };
  }
}

/** 401 or 403: the secret key is missing, wrong, revoked, or not allowed to do this. */
export class AuthenticationError extends PartnerPrintError {
  static override readonly defaultCode: string = 'unauthorized';
  override name = 'AuthenticationError';
}
/** 404. */
export class NotFoundError extends PartnerPrintError {
  static override readonly defaultCode: string = 'not_found';
  override name = 'NotFoundError';
}
/** 410: the resource existed but is no longer available (e.g. a deprecated composition). */
export class GoneError extends PartnerPrintError {
  static override readonly defaultCode: string = 'gone';
  override name = 'GoneError';
}
/** Any other 4xx (400, 409, 422…): the request was understood and refused; `code` says why. */
export class ValidationError extends PartnerPrintError {
  static override readonly defaultCode: string = 'invalid_request';
  override name = 'ValidationError';
}
/** 429 `rate_limited`: a rate-limit bucket is empty; wait `retryAfter` seconds. */
export class RateLimitedError extends PartnerPrintError {
  static override readonly defaultCode: string = 'rate_limited';
  override name = 'RateLimitedError';
}
/** 429 `rendertoken_limit_exceeded`: the weekly rendertokens do not cover the composition's cost. */
export class RendertokenLimitError extends PartnerPrintError {
  static override readonly defaultCode: string = 'rendertoken_limit_exceeded';
  override name = 'RendertokenLimitError';
  /** When the weekly limit resets (now + Retry-After); earlier retries fail. */
  declare readonly resetsAt: Date | undefined;
}
/** The connection failed; no HTTP response was received. The message names the cause and the attempts made. */
export class NetworkError extends PartnerPrintError {
  static override readonly defaultCode: string = 'network_error';
  override name = 'NetworkError';
}
/** No response within `timeoutMs` (or a caller's `AbortSignal.timeout(…)` fired). */
export class TimeoutError extends PartnerPrintError {
  /** Every timeout of the SDK, whatever timed out (a call, a render, a handler round, a store). */
  static override readonly defaultCode: string = 'timeout';
  override name = 'TimeoutError';
}
/** The caller's `signal` aborted the call; `cause` is the signal's reason. */
export class AbortedError extends PartnerPrintError {
  static override readonly defaultCode: string = 'aborted';
  override name = 'AbortedError';
}
/**
 * The service answered with a redirect the client does not follow with the key: to another origin, from https
 * to http, one too many, or one the runtime hides (an opaque redirect in browsers). `location` is the target's
 * origin when it is known.
 */
export class RedirectError extends PartnerPrintError {
  static override readonly defaultCode: string = 'redirect_refused';
  override name = 'RedirectError';
  declare readonly location: string | undefined;
}
/**
 * A non-idempotent request (e.g. POST /orders without customIdentifier, POST /renders) failed in a
 * way that does not tell whether the service acted on it; `cause` holds the failure. Check the
 * resource before trying again.
 */
export class AmbiguousOutcomeError extends PartnerPrintError {
  static override readonly defaultCode: string = 'ambiguous_outcome';
  override name = 'AmbiguousOutcomeError';
}
/** V1 credentials or a V1 base URL were used with the V2 client. */
export class V1CredentialsError extends PartnerPrintError {
  static override readonly defaultCode: string = 'v1_credentials';
  override name = 'V1CredentialsError';
}
/** The client was configured or called in a way that cannot work (bad base URL, not an image…). */
export class ConfigurationError extends PartnerPrintError {
  static override readonly defaultCode: string = 'invalid_option';
  override name = 'ConfigurationError';
}

export const isPartnerPrintError = (value: unknown): value is PartnerPrintError =>
  value instanceof PartnerPrintError;
