import { createClient } from '@partner-print/client';
import { createScheduler, type Scheduler } from '@partner-print/ratelimit';
import { UsageError } from './files.ts';
import type { CliIO, FetchFn, SandboxLike } from './io.ts';

export interface ConnectionOptions {
  baseUrl?: string;
  secretKey?: string;
  sandbox?: boolean;
  concurrency: number;
}

export interface Connection {
  client: ReturnType<typeof createClient>;
  scheduler: Scheduler;
  sandbox?: SandboxLike;
  clock: { now(): number };
  /** True once the API answered 401: the key was refused. */
  keyRefused(): boolean;
  close(): void;
}

export const KEY_REFUSED =
  'The API refused the secret key (401). Check PARTNER_PRINT_SECRET_KEY / --secret-key and --base-url (test and production keys differ); V1 credentials do not work against V2.';

async function embeddedSandbox(): Promise<SandboxLike> {
  try {
    // Optional: only needed for --sandbox, so it is not a runtime dependency of the CLI.
    const name = '@partner-print/sandbox';
    const mod = (await import(name)) as { createSandbox(o?: unknown): SandboxLike };
    return mod.createSandbox();
  } catch (e) {
    throw new UsageError(
      `--sandbox needs the @partner-print/sandbox package (npm i -D @partner-print/sandbox): ${(e as Error).message}`,
    );
  }
}

/** Builds the client: the given or embedded sandbox, or a base URL and secret key; rate-limited by the scheduler. */
export async function connect(options: ConnectionOptions, io: CliIO): Promise<Connection> {
  let transport: FetchFn | undefined;
  let baseUrl = options.baseUrl ?? io.env.PARTNER_PRINT_BASE_URL;
  let secretKey = options.secretKey ?? io.env.PARTNER_PRINT_SECRET_KEY;
  let sandbox: SandboxLike | undefined;
  let clock: { now(): number; sleep(ms: number, signal?: AbortSignal): Promise<void> } | undefined;
  if (options.sandbox) {
    sandbox = io.sandbox ?? (await embeddedSandbox());
    const sb = sandbox;
    transport = (input, init) => sb.fetch(input, init);
    baseUrl = sb.baseUrl;
    secretKey = sb.keys.primary;
    clock = sb.clock;
  } else {
    if (!baseUrl)
      throw new UsageError('No base URL: pass --base-url or set PARTNER_PRINT_BASE_URL (or use --sandbox)');
    if (!secretKey) {
      throw new UsageError(
        'No secret key: set PARTNER_PRINT_SECRET_KEY or pass --secret-key (or use --sandbox)',
      );
    }
  }
  if (io.wrapFetch) transport = io.wrapFetch(transport ?? ((input, init) => globalThis.fetch(input, init)));
  // A refused key fails every request: notice the first 401 so commands stop instead of listing each line.
  let refused = false;
  const base =
    transport ?? ((input: Request | string | URL, init?: RequestInit) => globalThis.fetch(input, init));
  transport = async (input, init) => {
    const res = await base(input, init);
    if (res.status === 401) refused = true;
    return res;
  };
  // Our own scheduler instance (paced by the same clock), so the CLI can close it when done.
  const scheduler: Scheduler = createScheduler({
    fetch: transport,
    concurrency: options.concurrency,
    ...(clock ? { clock } : {}),
  });
  let client: ReturnType<typeof createClient>;
  try {
    client = createClient({
      secretKey: secretKey!,
      baseUrl: baseUrl!,
      fetch: transport,
      ...(clock ? { clock } : {}),
      rateLimit: scheduler,
    });
  } catch (e) {
    // Configuration errors (a V1 or malformed base URL) are usage errors; their messages carry no key.
    throw new UsageError((e as Error).message);
  }
  return {
    client,
    scheduler,
    ...(sandbox ? { sandbox } : {}),
    clock: clock ?? { now: () => Date.now() },
    keyRefused: () => refused,
    close() {
      scheduler.close();
      if (sandbox && !io.sandbox) sandbox.close?.();
    },
  };
}
