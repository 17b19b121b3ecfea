import { Hono } from 'hono';
import { createV2App } from './app.ts';
import { CallbackDeliverer } from './callbacks.ts';
import { createRealClock, type SandboxClock } from './clock.ts';
import type { Env, RenderOutcome, RenderOutcomeInput, SandboxContext } from './context.ts';
import { createControl, type SandboxControl } from './control/api.ts';
import { controlApp } from './control/http.ts';
import { LateCommits } from './domain/late-commits.ts';
import { withFaults } from './fault-layer.ts';
import { Faults } from './faults.ts';
import { fail } from './http.ts';
import { RateLimiter, type RateLimitOption, resolvePolicies } from './ratelimit.ts';
import { fileRoutes } from './routes/files.ts';
import type { OrganizationSeed } from './seed.ts';
import { World } from './state.ts';
import { createVirtualClock, type VirtualClock } from './virtual-clock.ts';

export interface SandboxOptions {
  /** Rate-limit policies (partial overrides of the reference's defaults), or `false` to turn limiting off. */
  rateLimits?: RateLimitOption;
  /** Maximum whole seconds of random jitter added to Retry-After on 429 rate_limited (default 0). */
  jitter?: number;
  /** `'virtual'` (default): time moves only when advanced. `'real'`: wall-clock time. */
  clock?: 'virtual' | 'real';
  /** Start of the virtual clock (default 2026-11-16T09:00:00Z, a Monday). */
  startTime?: number | string | Date;
  /** Page size of every list endpoint (default 25). */
  pageSize?: number;
  /** Time a render takes to finish (default 90 000 ms). */
  renderProcessingMs?: number;
  /** Decides how a render finishes once its processing time has passed (default: completed). */
  renderOutcome?: (input: RenderOutcomeInput) => RenderOutcome;
  /** Weekly rendertoken limit per organization (default 100). */
  rendertokenLimit?: number;
  /** The fetch used to deliver legacy callbacks (default: the global fetch). */
  callbackFetch?: typeof fetch;
  /** Timeout of one callback delivery attempt, in real milliseconds (default 10 000). */
  callbackTimeoutMs?: number;
  /** Delay before a failed callback delivery is retried, in sandbox time (default 5 minutes). */
  callbackRetryMs?: number;
  /** Text that seeds every generated reference and key (default "partner-print-sandbox"). */
  seed?: string;
  /** Origin the sandbox is reached at (default http://sandbox.localhost); baseUrl is `${origin}/v2`. */
  origin?: string;
}

export interface SandboxSeed extends OrganizationSeed {
  /** The same roles in organization B (keys.other): different references, same shapes. */
  otherOrganization: OrganizationSeed;
}

export interface SandboxKeys {
  /** Organization A. */
  primary: string;
  /** Organization A, sharing primary's rate-limit budget. */
  secondary: string;
  /** Organization B. */
  other: string;
}

export interface Sandbox {
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  readonly baseUrl: string;
  readonly keys: SandboxKeys;
  readonly seed: SandboxSeed;
  readonly clock: SandboxClock;
  readonly control: SandboxControl;
  /** Stops background timers (real-clock callback retries). */
  close(): void;
}

export const DEFAULT_START_TIME: number = Date.parse('2026-11-16T09:00:00Z');
export const DEFAULT_SEED = 'partner-print-sandbox';

function toEpoch(value: SandboxOptions['startTime']): number {
  if (value === undefined) return DEFAULT_START_TIME;
  const ms = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
  if (!Number.isFinite(ms)) throw new RangeError('startTime is not a valid time');
  return ms;
}

interface RequestLike {
  url: string;
  method?: string;
  headers?: HeadersInit;
  body?: BodyInit | null;
  signal?: AbortSignal | null;
}

/** Accepts what the global fetch accepts, plus Request objects of other fetch implementations. */
function toRequest(
  input: Request | string | URL | RequestLike,
  init: RequestInit | undefined,
  origin: string,
) {
  if (input instanceof Request) return init === undefined ? input : new Request(input, init);
  if (typeof input === 'string' || input instanceof URL)
    return new Request(new URL(String(input), origin), init);
  const { url, method, headers, body, signal } = input;
  return new Request(new URL(url, origin), {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? undefined : body,
    signal: signal ?? undefined,
    duplex: 'half',
    ...init,
  } as RequestInit);
}

interface Parts {
  ctx: SandboxContext;
  deliverer: CallbackDeliverer;
  virtual: VirtualClock | undefined;
  start: number;
  origin: string;
}

/** Number options: least value, and 1 when whole. Every one must be finite. */
const NUMBER_OPTIONS: Record<string, [least: number, whole?: 1]> = {
  jitter: [0],
  pageSize: [1, 1],
  renderProcessingMs: [0],
  rendertokenLimit: [0, 1],
  callbackTimeoutMs: [1],
  callbackRetryMs: [0],
};
const OTHER_OPTIONS = [
  'rateLimits',
  'clock',
  'startTime',
  'renderOutcome',
  'callbackFetch',
  'seed',
  'origin',
];

/**
 * The options checked once, when the sandbox is made: a setting read with `Number()` from an unset variable is
 * NaN, and a NaN or 0 `pageSize` listed nothing with `nextCursor: null` (a pagination test passed on an empty
 * catalog); a NaN `rendertokenLimit` answered `limit: null`; a misspelt name (in the CLI's --seed file too)
 * was ignored. `undefined` is the default. Only a number's value is shown.
 */
function checkOptions(options: SandboxOptions): void {
  for (const [name, value] of Object.entries(options)) {
    const rule = NUMBER_OPTIONS[name];
    const ok =
      value === undefined ||
      (rule
        ? typeof value === 'number' &&
          value >= rule[0] &&
          (rule[1] ? Number.isSafeInteger : Number.isFinite)(value)
        : name === 'clock'
          ? value === 'virtual' || value === 'real'
          : OTHER_OPTIONS.includes(name));
    if (!ok)
      throw new RangeError(
        rule
          ? `${name} must be a finite${rule[1] ? ' whole' : ''} number ≥ ${rule[0]}, got ${typeof value === 'number' ? value : typeof value}`
          : name === 'clock'
            ? "clock must be 'virtual' or 'real'"
            : `${name} is not an option of createSandbox`,
      );
  }
}

function createContext(options: SandboxOptions): Parts {
  checkOptions(options);
  const start = toEpoch(options.startTime);
  const virtual = options.clock === 'real' ? undefined : createVirtualClock(start);
  const clock: SandboxClock = virtual ?? createRealClock();
  const origin = (options.origin ?? 'http://sandbox.localhost').replace(/\/$/, '');
  const deliverer = new CallbackDeliverer({
    clock,
    fetch: options.callbackFetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs: options.callbackTimeoutMs ?? 10_000,
    retryMs: options.callbackRetryMs ?? 300_000,
    environment: 'test',
  });
  const ctx: SandboxContext = {
    world: new World({
      seed: options.seed ?? DEFAULT_SEED,
      rendertokenLimit: options.rendertokenLimit ?? 100,
    }),
    clock,
    limiter: new RateLimiter(resolvePolicies(options.rateLimits), () => clock.now()),
    faults: new Faults(),
    lateCommits: new LateCommits(clock),
    pageSize: options.pageSize ?? 25,
    jitter: options.jitter ?? 0,
    random: Math.random,
    renderProcessingMs: options.renderProcessingMs ?? 90_000,
    renderOutcome: options.renderOutcome ?? (() => 'completed'),
    filesUrl: `${origin}/files`,
    orderChanged(org, order, change) {
      deliverer.enqueue(org.id, org.stores.get(order.storeReference)!, order, change);
    },
  };
  return { ctx, deliverer, virtual, start, origin };
}

/** Back to the seed: state, clock, buckets, faults, pending commits and the delivery log. */
function resetter(parts: Parts, options: SandboxOptions): () => void {
  const { ctx, deliverer, virtual, start } = parts;
  return () => {
    ctx.world = new World({
      seed: options.seed ?? DEFAULT_SEED,
      rendertokenLimit: options.rendertokenLimit ?? 100,
    });
    ctx.limiter.setPolicies(resolvePolicies(options.rateLimits));
    ctx.faults.clear();
    ctx.lateCommits.cancelAll();
    deliverer.reset();
    ctx.renderOutcome = options.renderOutcome ?? (() => 'completed');
    ctx.renderProcessingMs = options.renderProcessingMs ?? 90_000;
    virtual?.set(start);
  };
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const parts = createContext(options);
  const { ctx, deliverer, origin } = parts;
  const control = createControl({
    ctx,
    faults: ctx.faults,
    deliverer,
    virtual: parts.virtual,
    reset: resetter(parts, options),
  });
  const keys = ctx.world.keys;
  const [a, b] = ctx.world.organizations;
  const seed: SandboxSeed = { ...a!.seed, otherOrganization: b!.seed };
  const baseUrl = `${origin}/v2`;

  const app = new Hono<Env>({ strict: false });
  app.route('/v2', createV2App(ctx));
  app.route(
    '/_sandbox',
    controlApp(control, () => ({ baseUrl, keys, seed, now: new Date(ctx.clock.now()).toISOString() })),
  );
  fileRoutes(app, ctx);
  app.notFound((c) => fail(c, 404, 'not_found', `No endpoint ${c.req.method} ${c.req.path}`));
  const handle = withFaults(app, ctx.faults, ctx.lateCommits, parts.virtual);

  return {
    fetch(input, init) {
      try {
        return handle(toRequest(input, init, origin));
      } catch (e) {
        return Promise.reject(e);
      }
    },
    baseUrl,
    keys,
    seed,
    clock: ctx.clock,
    control,
    close() {
      deliverer.close();
    },
  };
}
