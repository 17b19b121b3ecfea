import { parseRetryAfter } from '@partner-print/openapi/wire';
import {
  AuthenticationError,
  GoneError,
  NotFoundError,
  PartnerPrintError,
  RateLimitedError,
  RendertokenLimitError,
  ValidationError,
} from './errors.ts';

/** Seconds from a `Retry-After` header (delta-seconds, or HTTP-date against the `Date` header), or undefined. */
export function retryAfterSeconds(headers: Headers, now: number): number | undefined {
  const ms = parseRetryAfter(headers.get('retry-after'), now, headers.get('date'));
  return ms === undefined ? undefined : ms / 1000;
}

/** A Node.js stream (node-fetch v2's body, `fs.createReadStream`) or any other async iterable of byte chunks. */
export const isAsyncIterable = (value: unknown): value is AsyncIterable<Uint8Array> =>
  typeof (value as AsyncIterable<Uint8Array> | null)?.[Symbol.asyncIterator] === 'function';

/**
 * Byte chunks as a web stream pulling the iterator chunk by chunk, which closes it when the stream is cancelled:
 * what the Streams standard's `ReadableStream.from` does, which Chromium and Safari do not have.
 */
export const streamFrom = (chunks: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> => {
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream({
    pull: (controller) =>
      iterator.next().then((next) => (next.done ? controller.close() : controller.enqueue(next.value))),
    cancel: (reason) => iterator.return?.(reason).then(() => {}),
  });
};

/**
 * An answer of a fetch of the partner's own whose body is a Node stream (node-fetch v2's `Readable`), as a web
 * Response: the client reads, cancels and hands on web streams only. Any async-iterable body is read so.
 */
export const webAnswer = (response: Response): Response =>
  response.body instanceof ReadableStream || !isAsyncIterable(response.body)
    ? response
    : // A Response refuses a body with the statuses that have none.
      new Response([204, 205, 304].includes(response.status) ? null : streamFrom(response.body), response);

export type RateLimitParser = (headers: Headers) => unknown;

/** What a call was: `operation` (operationId) when the path is in the spec, else `METHOD /path`. */
export interface CallContext {
  operation?: string | undefined;
  method: string;
  path: string;
}

export const describeCall = (c: CallContext): string => c.operation ?? `${c.method} ${c.path}`;

export interface ErrorContext extends CallContext {
  now: number;
  parseRateLimit?: RateLimitParser | undefined;
}

const BY_STATUS: Record<number, typeof PartnerPrintError> = {
  401: AuthenticationError,
  403: AuthenticationError,
  404: NotFoundError,
  410: GoneError,
};

/**
 * The SDK's code for an answer whose body had none (the service's own code wins): every error has one. Where
 * the status's class has the code as its own (401 unauthorized, 404 not_found, 410 gone, 429 rate_limited, any
 * other 4xx invalid_request), the class gives it. Listed in CONTRIBUTING's error contract; not codes the
 * service sends.
 */
const codeOfStatus = (status: number): string | undefined =>
  status === 403
    ? 'forbidden'
    : status > 499
      ? 'server_error'
      : status < 400
        ? 'unexpected_status'
        : undefined;

/** `value[key]` when `value` is an object that has `key` (its own or inherited), else undefined. */
export const fieldOf = (value: unknown, key: string): unknown =>
  value && typeof value === 'object' && key in value ? Reflect.get(value, key) : undefined;

const field = (body: unknown, name: string): string | undefined => {
  const value = fieldOf(body, name);
  return typeof value === 'string' ? value : undefined;
};

/**
 * The error for a non-2xx response, `body` being its parsed JSON (`{ code, message }`) or text. The caller
 * redacts it: every string here may come from the server.
 */
export function errorFromResponse(response: Response, body: unknown, ctx: ErrorContext): PartnerPrintError {
  const { status, headers } = response;
  const known = field(body, 'code');
  const message = field(body, 'message');
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
    `${describeCall(ctx)} failed with ${status}${known ? ` ${known}` : ''}: ${message ?? (response.statusText || `HTTP ${status}`)}`,
    {
      status,
      code: known ?? codeOfStatus(status),
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
