import { quietly, V2_SECRET_KEY_HEADER } from '@partner-print/openapi/wire';
import type { PartnerPrintError } from './errors.ts';
import { REDACTED, redactSecret } from './redact.ts';

/** What hooks receive: never a body; `headers` is a copy in which the secret key is `[redacted]`. */
export interface ClientEvent {
  method: string;
  url: string;
  /** operationId (`createOrder`…) when the path is in the spec. */
  operation: string | undefined;
  /** 1 for the first attempt. */
  attempt: number;
  headers: Headers;
  status?: number;
  /** The whole attempt: the wait in the rate-limit queue and the network time. */
  durationMs?: number;
  /** Time in the rate-limit queue (0 without one); undefined with a `Scheduler` instance, which the client cannot see into. */
  queueMs?: number;
  /** From sending to the response headers; undefined with a `Scheduler` instance. */
  networkMs?: number;
  /** retry: how long the client waits before the next attempt. */
  delayMs?: number;
  error?: PartnerPrintError;
}

export interface Hooks {
  /** Before each attempt. */
  request?(event: ClientEvent): void;
  /** After each attempt that got a response (any status). */
  response?(event: ClientEvent): void;
  /** Before waiting for the next attempt. */
  retry?(event: ClientEvent): void;
  /** When a call gives up without a response: network error, timeout, abort or a refused redirect. */
  error?(event: ClientEvent): void;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
/**
 * Any object with some of these methods, e.g. `console`, pino or winston, passed as it is. Lines never
 * hold the key. Each line is called as `(message, fields)` (console, winston, and most loggers), or as
 * `(fields, message)` on a pino logger (recognised by its `bindings()` and `levelVal`), so its fields stay
 * fields of the line.
 */
export type Logger = Partial<Record<LogLevel, (message: string, fields: Record<string, unknown>) => void>>;

/** pino (and its API twins) take the fields object first: `logger.info(fields, message)`. */
const takesFieldsFirst = (logger: Logger & { bindings?: unknown; levelVal?: unknown }): boolean =>
  typeof logger.bindings === 'function' && typeof logger.levelVal === 'number';

export const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Hooks that write to a logger: each attempt and response at debug, retries at warn, failures at error. */
export function loggerHooks(logger: Logger, level: LogLevel = 'info'): Hooks {
  const min = LEVELS.indexOf(level);
  const fieldsFirst = takesFieldsFirst(logger);
  // What the logger's method returns is handed back: the emitter catches an async logger's rejection.
  const log = (at: LogLevel, message: string, e: ClientEvent): unknown => {
    if (LEVELS.indexOf(at) < min) return;
    const write = logger[at];
    if (!write) return;
    const { headers: _, error, ...rest } = e;
    const fields = { ...rest, ...(error && { error: error.name, code: error.code }) };
    // A method call: pino's and winston's methods need their logger as `this`.
    return fieldsFirst
      ? Reflect.apply(write, logger, [fields, message])
      : write.call(logger, message, fields);
  };
  const name = (e: ClientEvent) => e.operation ?? `${e.method} ${e.url}`;
  const ms = (n: number | undefined) => (n === undefined ? '?' : `${Math.round(n)} ms`);
  return {
    request: (e) => log('debug', `${name(e)}: attempt ${e.attempt}`, e),
    response: (e) =>
      log(
        'debug',
        `${name(e)}: ${e.status} in ${ms(e.durationMs)} (queue ${ms(e.queueMs)}, network ${ms(e.networkMs)})`,
        e,
      ),
    retry: (e) =>
      log(
        'warn',
        `${name(e)}: retrying in ${ms(e.delayMs)} after ${e.status ?? e.error?.code} (attempt ${e.attempt})`,
        e,
      ),
    error: (e) => log('error', e.error?.message ?? `${name(e)} failed`, e),
  };
}

/** Tells the hooks and the logger of one event of `req`. */
export type Emit = (
  name: keyof Hooks,
  req: Request,
  fields: Omit<ClientEvent, 'headers' | 'url' | 'method'>,
) => void;

/** The hooks and the logger as one, every event redacted once before anyone sees it; a throwing hook is ignored. */
export function createEmitter(
  hooks: Hooks | undefined,
  logger: Hooks | undefined,
  secret: string,
): Emit | undefined {
  const targets = [hooks, logger].filter((h): h is Hooks => h !== undefined);
  if (!targets.length) return undefined;
  return (name, req, fields) => {
    const headers = new Headers(req.headers);
    if (headers.has(V2_SECRET_KEY_HEADER)) headers.set(V2_SECRET_KEY_HEADER, REDACTED);
    const event = redactSecret({ method: req.method, url: req.url, ...fields }, secret);
    // A failing hook or logger, a throw or an async one's rejection, must not change the outcome of a request.
    for (const target of targets)
      quietly(() => target[name]?.({ ...event, headers: redactSecret(headers, secret) }));
  };
}
