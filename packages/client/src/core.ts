import type { Clock } from './clock.ts';
import { AmbiguousOutcomeError, type PartnerPrintError } from './errors.ts';
import type { CallContext } from './response.ts';
import type { RetryOptions } from './transport.ts';

export type AnyInit = {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  headers?: Record<string, string>;
  signal?: AbortSignal;
  [option: string]: unknown;
};
// biome-ignore lint/suspicious/noExplicitAny: the core is untyped; index.ts types it from the spec
export type Loose = any;

/** What the helpers (orders, pagination, uploads, downloads) build on. */
export interface Core {
  /** openapi-fetch's result when the response is 2xx (`data` only unless `whole`); throws a PartnerPrintError otherwise. */
  call(method: 'GET' | 'POST', template: string, init?: AnyInit, whole?: boolean): Promise<Loose>;
  /** operationId, method and concrete path of a call. */
  context(method: string, template: string, init?: AnyInit): CallContext;
  clock: Clock;
  retry: Required<RetryOptions>;
}

const cores = new WeakMap<object, Core>();

/** Makes `client` usable by the standalone helpers (paginate, uploadImage…), which find its core here. */
export function register<C extends object>(client: C, core: Core): C {
  cores.set(client, core);
  return client;
}

/** The core of a client made by `createClient` (either entry); a TypeError for anything else. */
export function coreOf(client: unknown): Core {
  const core = cores.get(client as object);
  if (!core) throw new TypeError('expected a client made by createClient');
  return core;
}

/** The error for a call that may have taken effect: `cause` holds the failure. */
export function ambiguous(cause: PartnerPrintError, hint = ''): AmbiguousOutcomeError {
  const { name, message, ...fields } = cause.toJSON();
  return new AmbiguousOutcomeError(`${message}: it may have taken effect, so it was not repeated${hint}`, {
    ...fields,
    code: 'ambiguous_outcome',
    cause,
  });
}
