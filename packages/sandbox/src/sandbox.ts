import { Hono } from 'hono';
import { createV2App } from './app.ts';
import { CallbackDeliverer } from './callbacks.ts';
import { createRealClock, createVirtualClock, type SandboxClock } from './clock.ts';
import type { RenderOutcome, RenderOutcomeInput, SandboxContext } from './context.ts';
import { createControl, type SandboxControl } from './control/api.ts';
import { controlApp } from './control/http.ts';
import { droppedConnection, Faults } from './faults.ts';
import { fail } from './http.ts';
import { RateLimiter, type RateLimitOption, resolvePolicies } from './ratelimit.ts';
import type { OrganizationSeed } from './seed.ts';
import { World } from './state.ts';

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

export const DEFAULT_START_TIME = Date.parse('2026-11-16T09:00:00Z');
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

function abortable(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const start = toEpoch(options.startTime);
  const virtual = options.clock === 'real' ? undefined : createVirtualClock(start);
  const clock: SandboxClock = virtual ?? createRealClock();
  const seedText = options.seed ?? DEFAULT_SEED;
  const rendertokenLimit = options.rendertokenLimit ?? 100;
  const origin = (options.origin ?? 'http://sandbox.localhost').replace(/\/$/, '');
  const initialPolicies = resolvePolicies(options.rateLimits);
  const limiter = new RateLimiter(initialPolicies, () => clock.now());
  const faults = new Faults();
  const defaultOutcome = options.renderOutcome ?? (() => 'completed' as const);

  const deliverer = new CallbackDeliverer({
    clock,
    fetch: options.callbackFetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs: options.callbackTimeoutMs ?? 10_000,
    retryMs: options.callbackRetryMs ?? 300_000,
    environment: 'test',
  });

  const ctx: SandboxContext = {
    world: new World({ seed: seedText, rendertokenLimit }),
    clock,
    limiter,
    pageSize: options.pageSize ?? 25,
    jitter: options.jitter ?? 0,
    random: Math.random,
    renderProcessingMs: options.renderProcessingMs ?? 90_000,
    renderOutcome: defaultOutcome,
    filesUrl: `${origin}/files`,
    orderChanged(org, order, change) {
      deliverer.enqueue(org.id, org.stores.get(order.storeReference)!, order, change);
    },
  };

  const control = createControl({
    ctx,
    faults,
    deliverer,
    reset() {
      ctx.world = new World({ seed: seedText, rendertokenLimit });
      limiter.setPolicies(initialPolicies);
      faults.clear();
      deliverer.reset();
      ctx.renderOutcome = defaultOutcome;
      ctx.renderProcessingMs = options.renderProcessingMs ?? 90_000;
      virtual?.set(start);
    },
  });

  const keys = ctx.world.keys;
  const [a, b] = ctx.world.organizations;
  const seed: SandboxSeed = { ...a!.seed, otherOrganization: b!.seed };
  const baseUrl = `${origin}/v2`;

  const app = new Hono({ strict: false });
  app.route('/v2', createV2App(ctx));
  app.route(
    '/_sandbox',
    controlApp(control, () => ({ baseUrl, keys, seed, now: new Date(clock.now()).toISOString() })),
  );
  app.get('/files/evidence/:name', (c) => {
    const ref = c.req.param('name').replace(/\.(jpg|png)$/, '');
    for (const org of ctx.world.organizations) {
      const upload = org.uploads.get(ref);
      const claim = upload?.claimReference ? org.claims.get(upload.claimReference) : undefined;
      if (upload && upload.kind === 'evidence' && !upload.purged) {
        const closed = claim ? (claim.decision?.decided ?? claim.retracted) : null;
        if (closed !== null && clock.now() - closed >= 120 * 86_400_000) break;
        return c.body(upload.bytes as Uint8Array<ArrayBuffer>, 200, {
          'Content-Type': upload.format === 'png' ? 'image/png' : 'image/jpeg',
        });
      }
    }
    return c.json({ code: 'not_found', message: 'No such evidence file (it may have been purged)' }, 404);
  });
  app.notFound((c) => fail(c as never, 404, 'not_found', `No endpoint ${c.req.method} ${c.req.path}`));

  const handle = async (request: Request): Promise<Response> => {
    const fault = faults.active() ? faults.take(request.method, new URL(request.url).pathname) : undefined;
    if (fault) {
      switch (fault.kind) {
        case 'status':
          return Response.json(
            {
              code: fault.status === 503 ? 'service_unavailable' : 'internal_error',
              message: `Injected fault: ${fault.status}`,
            },
            { status: fault.status, headers: { 'X-Sandbox-Fault': 'status' } },
          );
        case 'latency':
          await abortable(fault.latencyMs, request.signal);
          break;
        case 'drop-before':
          throw droppedConnection();
        case 'drop-after': {
          const res = await app.fetch(request);
          await res.body?.cancel();
          throw droppedConnection();
        }
      }
    }
    return app.fetch(request);
  };

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
    clock,
    control,
    close() {
      deliverer.close();
    },
  };
}
