/**
 * Runs a compiled sample (a CommonJS function body, see compile.ts) with the modules, `process.env`, console
 * and fetch the runner gives it. Web-standard only.
 */
import type { ErrorView, RunEvent } from './types.ts';

export interface ExecuteOptions {
  modules: Readonly<Record<string, unknown>>;
  env: Readonly<Record<string, string>>;
  fetch: typeof fetch;
  emit(event: RunEvent): void;
}

const ERROR_FIELDS = [
  'status',
  'code',
  'operation',
  'method',
  'path',
  'retryAfter',
  'requestId',
  'attempts',
  'docUrl',
] as const;

/** An error as the SDK raised it: its class name, message and the SDK's fields. */
export function errorView(error: unknown): ErrorView {
  if (!(error instanceof Error)) return { name: 'Thrown value', message: formatValue(error), fields: [] };
  const fields: [string, string][] = [];
  for (const key of ERROR_FIELDS) {
    const value: unknown = Reflect.get(error, key);
    if (typeof value === 'string' || typeof value === 'number') fields.push([key, String(value)]);
  }
  if (error.cause instanceof Error) fields.push(['cause', `${error.cause.name}: ${error.cause.message}`]);
  return { name: error.name, message: error.message, fields };
}

/** A console argument as Node prints it, roughly: strings bare, other values as indented JSON. */
export function formatValue(value: unknown, nested = false): string {
  if (typeof value === 'string') return nested ? JSON.stringify(value) : value;
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function') return `[Function ${value.name || '(anonymous)'}]`;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (value instanceof Uint8Array) return `Uint8Array(${value.byteLength})`;
  if (value instanceof ArrayBuffer) return `ArrayBuffer(${value.byteLength})`;
  if (typeof Blob !== 'undefined' && value instanceof Blob) return `Blob(${value.size}, ${value.type})`;
  try {
    const text = JSON.stringify(
      value,
      (_key, v: unknown) => (v instanceof Uint8Array ? `Uint8Array(${v.byteLength})` : v),
      2,
    );
    return text ?? String(value);
  } catch {
    return String(value);
  }
}

function captureConsole(
  emit: ExecuteOptions['emit'],
): Pick<Console, 'log' | 'info' | 'warn' | 'error' | 'debug'> {
  const line =
    (level: 'log' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]) =>
      emit({ kind: 'console', level, text: args.map((a) => formatValue(a)).join(' ') });
  return {
    log: line('log'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    debug: line('log'),
  };
}

type SampleFunction = (
  require: (name: string) => unknown,
  exports: Record<string, unknown>,
  module: { exports: Record<string, unknown> },
  process: { env: Readonly<Record<string, string>> },
  console: Pick<Console, 'log' | 'info' | 'warn' | 'error' | 'debug'>,
  fetch: typeof globalThis.fetch,
) => Promise<void>;

/** Runs the sample; resolves with its module exports, rejects with what it threw. */
export async function execute(js: string, options: ExecuteOptions): Promise<Record<string, unknown>> {
  const require = (name: string): unknown => {
    const found = options.modules[name];
    if (found === undefined) throw new Error(`Cannot find module '${name}' in the in-page sandbox`);
    return found;
  };
  const module: { exports: Record<string, unknown> } = { exports: {} };
  const fn = new Function(
    'require',
    'exports',
    'module',
    'process',
    'console',
    'fetch',
    `return (async () => {\n${js}\n})();`,
  ) as SampleFunction;
  await fn(
    require,
    module.exports,
    module,
    { env: options.env },
    captureConsole(options.emit),
    options.fetch,
  );
  return module.exports;
}
