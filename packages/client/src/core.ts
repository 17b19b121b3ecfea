import type { Clock } from '@partner-print/openapi/wire';
import type { CallContext } from './response.ts';
import type { TelemetryOption } from './telemetry/option.ts';
import type { RetryOptions } from './transport.ts';

/** The per-request options every method and helper takes (besides what a method takes of its own). */
export interface RequestOptions {
  /** Stops the call (queue, attempts and waits): it rejects with an `AbortedError` whose `cause` is the reason. */
  signal?: AbortSignal;
  /** Extra request headers: a record, a Headers (another library's too) or pairs; a V1 credential header is refused. */
  headers?: HeadersInit;
  /** This call's per-attempt timeout instead of the client's. */
  timeoutMs?: number;
  /** This call's retry policy (merged over the client's), or `false` for a single attempt. */
  retry?: RetryOptions | false;
}

/** What a call's `init` may hold as far as the core is concerned; openapi-fetch reads the rest. */
export interface CoreInit extends RequestOptions {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown>; header?: unknown };
  body?: unknown;
  parseAs?: 'json' | 'text' | 'blob' | 'arrayBuffer' | 'stream';
  bodySerializer?: (body: never) => unknown;
}

/** openapi-fetch's result of a call that got a 2xx answer. */
export interface Whole {
  data: unknown;
  response: Response;
}

/** What the helpers (orders, pagination, uploads, downloads) build on. */
export interface Core {
  /** The parsed body of a 2xx response; throws a PartnerPrintError otherwise. */
  call(method: 'GET' | 'POST', template: string, init?: object): Promise<unknown>;
  /** The same, with the response (for helpers that read status or headers). */
  callWhole(method: 'GET' | 'POST', template: string, init?: object): Promise<Whole>;
  /** operationId, method and concrete path of a call. */
  context(method: string, template: string, init?: object): CallContext;
  clock: Clock;
  retry: Required<RetryOptions>;
  /** The client's per-attempt timeout (a call's own `timeoutMs` overrides it). */
  timeoutMs: number;
  /** An INTERNAL span for a helper's logical call; absent without telemetry (the lite entry, `telemetry: false`). */
  operation?: ((name: string) => OperationSpan | undefined) | undefined;
  /** The client's `telemetry` option, the default of the packages built on the client. */
  telemetry?: TelemetryOption | undefined;
  /** `value` with the client's key redacted (redactSecret): for what a helper throws of its own. */
  redact?: <T>(value: T) => T;
}

/** A helper's span: `run` makes it the active span for the calls it makes; `end` once, with the failure if any. */
export interface OperationSpan {
  run<T>(fn: () => T): T;
  event(name: string, attributes?: Record<string, string | number | boolean>): void;
  end(error?: unknown): void;
}

/** `fn()` inside an INTERNAL span named `name` when the client has telemetry. */
export function traced<T>(core: Core, name: string, fn: () => Promise<T>): Promise<T> {
  const span = core.operation?.(name);
  if (!span) return fn();
  return span.run(fn).then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      span.end(error);
      throw error;
    },
  );
}

/**
 * A WeakMap on the global object under `Symbol.for(name)`: the same map for every copy of this package in one
 * program (its ES module and CommonJS builds both loaded, two versions side by side, a library's bundle), so that
 * each copy takes the clients another made. The name carries the format of the values: change its number
 * whenever they change.
 */
export function sharedMap<V>(name: string): WeakMap<object, V> {
  const global = globalThis as { [key: symbol]: WeakMap<object, V> | undefined };
  const key = Symbol.for(name);
  global[key] ??= new WeakMap();
  return global[key];
}

const cores = sharedMap<Core>('partner-print.client.cores.1');

/** Makes `client` usable by the standalone helpers (paginate, uploadImage…), which find its core here. */
export function register<C extends object>(client: C, core: Core): C {
  cores.set(client, core);
  return client;
}

/** The core of a client made by `createClient` (either entry); a TypeError for anything else. */
export function coreOf(client: object): Core {
  const core = cores.get(client);
  if (!core) throw new TypeError('expected a client made by createClient');
  return core;
}

/**
 * The `telemetry` option `client` was made with, for the packages built on it to follow by default: undefined
 * for a client made with none, made by the lite entry (no telemetry), or an object that is not a client.
 */
export function telemetryOf(client: unknown): TelemetryOption | undefined {
  return client !== null && typeof client === 'object' ? cores.get(client)?.telemetry : undefined;
}
