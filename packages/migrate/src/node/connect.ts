import {
  AuthenticationError,
  createClient,
  type Logger,
  NetworkError,
  NotFoundError,
  type PartnerPrintClient,
  TimeoutError,
  V1CredentialsError,
} from '@partner-print/client';
import { checkSecretKey } from '@partner-print/openapi/wire';
import type { Scheduler } from '@partner-print/ratelimit';
import { UsageError } from './files.ts';
import type { CliIO, FetchFn, SandboxLike } from './io.ts';
import { redactingFetch } from './redact.ts';
import { describeRunFailure, KEY_REFUSED } from './run-failure.ts';

export { KEY_REFUSED };

export interface ConnectionOptions {
  baseUrl?: string;
  secretKey?: string;
  sandbox?: boolean;
  concurrency: number;
  /** Per-attempt timeout of every request, in milliseconds (`--timeout`; the client's `timeoutMs`). */
  timeout?: number;
  /** Every request, retry and failure on stderr (`--verbose`; the client's `logger` at level `debug`). */
  verbose?: boolean;
}

export interface Connection {
  client: PartnerPrintClient;
  scheduler: Scheduler | undefined;
  sandbox?: SandboxLike;
  clock: { now(): number };
  /** True once the API answered 401: the key was refused. */
  keyRefused(): boolean;
  close(): void;
}

type Clock = { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> };

interface Target {
  baseUrl: string;
  secretKey: string;
  fetch: FetchFn;
  sandbox?: SandboxLike;
  clock?: Clock;
}

async function embeddedSandbox(): Promise<SandboxLike> {
  try {
    // Optional: only needed for --sandbox, so it is not a runtime dependency of the CLI.
    const name = '@partner-print/sandbox';
    const mod: { createSandbox(o?: unknown): SandboxLike } = await import(name);
    return mod.createSandbox();
  } catch (e) {
    throw new UsageError(
      `--sandbox needs the @partner-print/sandbox package (npm i -D @partner-print/sandbox): ${e instanceof Error ? e.message : e}`,
    );
  }
}

/** A base URL is checked before anything uses it; the message gives its length, never its text. */
function checkBaseUrl(baseUrl: string): void {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new UsageError(
      `The base URL (${baseUrl.length} characters) is not an http(s) URL; expected https://<host>/…/v2 in --base-url or PARTNER_PRINT_BASE_URL`,
    );
  }
}

/** The key is checked to be a valid header value; the message describes it, never contains it. */
function checkKey(secretKey: string): void {
  try {
    checkSecretKey(secretKey, 'The secret key (PARTNER_PRINT_SECRET_KEY or --secret-key)');
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : 'The secret key is not valid');
  }
}

async function target(options: ConnectionOptions, io: CliIO): Promise<Target> {
  if (options.sandbox) {
    const sb = io.sandbox ?? (await embeddedSandbox());
    return {
      baseUrl: sb.baseUrl,
      secretKey: sb.keys.primary,
      fetch: (i, init) => sb.fetch(i, init),
      sandbox: sb,
      clock: sb.clock,
    };
  }
  const baseUrl = options.baseUrl ?? io.env.PARTNER_PRINT_BASE_URL;
  const secretKey = options.secretKey ?? io.env.PARTNER_PRINT_SECRET_KEY;
  if (!baseUrl)
    throw new UsageError('No base URL: pass --base-url or set PARTNER_PRINT_BASE_URL (or use --sandbox)');
  if (!secretKey) {
    throw new UsageError(
      'No secret key: set PARTNER_PRINT_SECRET_KEY or pass --secret-key (or use --sandbox)',
    );
  }
  checkBaseUrl(baseUrl);
  checkKey(secretKey);
  return { baseUrl, secretKey, fetch: (input, init) => globalThis.fetch(input, init) };
}

/**
 * One cheap authenticated call (the first page of GET /products) before the first line: a refused key,
 * a wrong base URL or an unreachable API stops the command with exit code 2 before anything is written.
 */
async function verify(client: PartnerPrintClient, baseUrl: string): Promise<void> {
  const where = new URL(baseUrl).origin;
  try {
    const page = await client.get('/products', {});
    if (Array.isArray(page.products)) return;
  } catch (e) {
    if (e instanceof AuthenticationError || e instanceof V1CredentialsError)
      throw new UsageError(KEY_REFUSED, { cause: e });
    if (e instanceof NotFoundError) {
      throw new UsageError(
        `${where} answered GET /products with 404: check --base-url (the V2 base URL ends in /v2)`,
        { cause: e },
      );
    }
    if (e instanceof NetworkError || e instanceof TimeoutError)
      throw new UsageError(describeRunFailure(e), { cause: e });
    throw new UsageError(
      `The API at ${where} failed the first request (${e instanceof Error ? e.message : e}); nothing was done`,
      { cause: e },
    );
  }
  throw new UsageError(
    `${where} does not answer GET /products like the Partner Print V2 API: check --base-url`,
  );
}

const logValue = (v: unknown) => {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && !Number.isInteger(v)) return v.toFixed(1);
  return JSON.stringify(v);
};

/** The client's log lines on stderr (already redacted by the client, and by the CLI's stderr). */
export function stderrLogger(io: CliIO): Logger {
  const line = (level: string) => (message: string, fields: Record<string, unknown>) => {
    const pairs = Object.entries(fields)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${logValue(v)}`);
    io.stderr.write(`[${level}] ${message}${pairs.length ? ` ${pairs.join(' ')}` : ''}\n`);
  };
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}

/**
 * Builds the client (the given or embedded sandbox, or a checked base URL and key), rate-limited by its
 * scheduler (`--concurrency`), with the per-attempt `--timeout`, and checks the key with one request.
 * Responses reach nothing before the key is redacted from them.
 */
export async function connect(options: ConnectionOptions, io: CliIO): Promise<Connection> {
  const t = await target(options, io);
  let transport: FetchFn = io.wrapFetch ? io.wrapFetch(t.fetch) : t.fetch;
  transport = redactingFetch(transport, [t.secretKey]);
  // A refused key fails every request: notice the first 401 so commands stop instead of listing each line.
  let refused = false;
  const base = transport;
  transport = async (input, init) => {
    const res = await base(input, init);
    if (res.status === 401) refused = true;
    return res;
  };
  let client: PartnerPrintClient;
  try {
    client = createClient({
      secretKey: t.secretKey,
      baseUrl: t.baseUrl,
      fetch: transport,
      ...(t.clock ? { clock: t.clock } : {}),
      ...(options.timeout !== undefined ? { timeoutMs: options.timeout } : {}),
      ...(options.verbose ? { logger: stderrLogger(io), logLevel: 'debug' as const } : {}),
      rateLimit: { concurrency: options.concurrency },
    });
  } catch (e) {
    // Configuration errors (a V1 or malformed base URL) are usage errors; their messages carry no key.
    throw new UsageError(e instanceof Error ? e.message : String(e), { cause: e });
  }
  const close = () => {
    client.scheduler?.close();
    if (t.sandbox && !io.sandbox) t.sandbox.close?.();
  };
  try {
    await verify(client, t.baseUrl);
  } catch (e) {
    close();
    throw e;
  }
  return {
    client,
    scheduler: client.scheduler,
    ...(t.sandbox ? { sandbox: t.sandbox } : {}),
    clock: t.clock ?? { now: () => Date.now() },
    keyRefused: () => refused,
    close,
  };
}
