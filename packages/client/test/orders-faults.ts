// Order faults on top of the in-process sandbox, for the createOrder tests and bench: a POST /orders whose
// commit lands later than its answer (or than the client's giving up), and a custom-identifier lookup that
// lags commits. Times are the sandbox's virtual milliseconds: a client sleeping on that clock moves them.
import { createSandbox, type Sandbox } from '@partner-print/sandbox';
import { createClient, type Fetch } from '../src/index.ts';
import { withSignal } from './helpers.ts';

/** Deterministic pseudo-random numbers (mulberry32), so a failing run can be repeated. */
export function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type PostFault =
  /** The service answers 503 at once and commits the order `commitAfterMs` later. */
  | 'slow-commit-after-answer'
  /** The service never answers (the client times out) and commits `commitAfterMs` later. */
  | 'slow-commit-after-timeout'
  /** The order is stored, then the connection drops. */
  | 'drop-after'
  /** The connection drops before the order is stored. */
  | 'drop-before'
  /** 503 before anything is stored. */
  | 'status-503'
  /** 502 after the order was stored. */
  | 'status-502-after'
  /** 500 before anything is stored. */
  | 'status-500';

export interface OrderFaultOptions {
  /** Which fault a faulty POST /orders gets. */
  fault?: PostFault;
  /** Share of POST /orders requests that get it (0..1). */
  rate?: number;
  seed?: number;
  commitAfterMs?: number;
  /** The lookup answers "absent" until an order is this old (virtual ms). */
  lookupLagMs?: number;
  /** Lookups after this many answer 503 (the transport retries them, then gives up). */
  lookupFailsAfter?: number;
  /** Called before each lookup is answered, with its number. */
  onLookup?: (n: number) => void;
  /** Decides per POST (overrides fault and rate): the fault to apply, or undefined. */
  plan?: (order: { customIdentifier?: string }, post: number) => PostFault | undefined;
}

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const LOOKUP = '/v2/utilities/lookup-order-reference-by-custom-identifier';

/** The sandbox's fetch with order faults, and counts of what reached it. */
export function faultyOrders(sandbox: Sandbox, options: OrderFaultOptions = {}) {
  const { rate = 0, commitAfterMs = 2_000, lookupLagMs = 0 } = options;
  const next = random(options.seed ?? 1);
  const send = withSignal(sandbox);
  const committedAt = new Map<string, number>();
  const due: Array<{ at: number; request: Request }> = [];
  const committing = new Set<Promise<unknown>>();
  const stats = { posts: 0, lookups: 0, reads: 0, faults: 0, lateCommits: 0 };
  const now = () => sandbox.clock.now();

  const commit = async (request: Request) => {
    const response = await send(request);
    if (response.ok) {
      const { order } = (await response.clone().json()) as { order: { reference: string } };
      committedAt.set(order.reference, now());
    }
    return response;
  };
  // Late commits run when virtual time passes them (a client sleeping on the clock moves it).
  const runDue = () => {
    for (let i = due.length - 1; i >= 0; i--) {
      const entry = due[i]!;
      if (entry.at > now()) continue;
      due.splice(i, 1);
      stats.lateCommits++;
      const landing: Promise<unknown> = commit(entry.request).finally(() => committing.delete(landing));
      committing.add(landing);
    }
  };
  sandbox.clock.onAdvance(runDue);

  const lookup = async (request: Request, init?: { signal: AbortSignal }) => {
    const n = ++stats.lookups;
    options.onLookup?.(n);
    if (options.lookupFailsAfter !== undefined && n > options.lookupFailsAfter)
      return json({ code: 'unavailable', message: 'lookup down' }, 503);
    const response = await send(request, init);
    if (!response.ok || lookupLagMs <= 0) return response;
    const { orderReference } = (await response.clone().json()) as { orderReference?: string };
    const at = orderReference ? committedAt.get(orderReference) : undefined;
    if (at !== undefined && now() - at < lookupLagMs)
      return json({ code: 'not_found', message: 'lagging' }, 404);
    return response;
  };

  const post = async (request: Request, init?: { signal: AbortSignal }) => {
    const n = ++stats.posts;
    const body = (await request.clone().json()) as { order: { customIdentifier?: string } };
    const fault = options.plan
      ? options.plan(body.order, n)
      : options.fault && next() < rate
        ? options.fault
        : undefined;
    if (!fault) return commit(request);
    stats.faults++;
    const target = { path: '/v2/orders', method: 'POST' };
    switch (fault) {
      case 'slow-commit-after-answer':
        due.push({ at: now() + commitAfterMs, request: request.clone() });
        return json({ code: 'unavailable', message: 'try later' }, 503);
      case 'slow-commit-after-timeout':
        due.push({ at: now() + commitAfterMs, request: request.clone() });
        return new Promise<Response>((_, reject) => {
          init?.signal.addEventListener('abort', () => reject(init.signal.reason));
        });
      case 'status-502-after':
        await commit(request);
        return json({ code: 'bad_gateway', message: 'upstream' }, 502);
      case 'status-500':
        return json({ code: 'internal', message: 'failed' }, 500);
      case 'drop-after':
        await commit(request);
        throw new TypeError('fetch failed', { cause: new Error('connection reset after the commit') });
      case 'drop-before':
        throw new TypeError('fetch failed', { cause: new Error('connection reset') });
      case 'status-503':
        // The sandbox's own fault: answered before the request takes effect.
        sandbox.control.injectFault({ ...target, kind: 'status', status: 503 });
        return send(request, init);
    }
  };

  const fetch: Fetch = (request, init) => {
    const { pathname } = new URL(request.url);
    if (request.method === 'POST' && pathname === '/v2/orders') return post(request, init);
    if (request.method === 'GET' && pathname === LOOKUP) return lookup(request, init);
    if (request.method === 'GET' && pathname.startsWith('/v2/orders/')) stats.reads++;
    return send(request, init);
  };
  /** Moves virtual time by `ms` and waits until the late commits due by then have landed. */
  const advance = async (ms: number) => {
    sandbox.clock.advance(ms);
    await Promise.all(committing);
  };
  return { fetch, stats, committedAt, advance };
}

/** A sandbox without rate limits, a client on its virtual clock through the faults, and a clean checker. */
export function orderSetup(
  options: OrderFaultOptions = {},
  client: Partial<Parameters<typeof createClient>[0]> = {},
) {
  const sandbox = createSandbox({ rateLimits: false, pageSize: 500, jitter: 0 });
  const faults = faultyOrders(sandbox, options);
  const base = { secretKey: sandbox.keys.primary, baseUrl: sandbox.baseUrl, clock: sandbox.clock };
  return {
    sandbox,
    ...faults,
    client: createClient({ ...base, fetch: faults.fetch, timeoutMs: 5_000, ...client }),
    checker: createClient({ ...base, fetch: withSignal(sandbox) }),
    order: (customIdentifier?: string, quantity = 1) => ({
      storeReference: sandbox.seed.stores.combined,
      shippingKind: 'combined' as const,
      ...(customIdentifier === undefined ? {} : { customIdentifier }),
      orderlines: [{ productReference: sandbox.seed.products.nonPrint, quantity }],
    }),
  };
}

/** `count` tasks, `concurrency` at a time; each result or error in its slot. */
export async function pool<T>(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<T>,
): Promise<Array<{ value: T } | { error: unknown }>> {
  const results: Array<{ value: T } | { error: unknown }> = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
      }
    }),
  );
  return results;
}

/** What the service holds: every order's customIdentifier, through a client without faults. */
export async function storedIdentifiers(checker: ReturnType<typeof createClient>): Promise<string[]> {
  const orders = await checker.collect('/orders');
  return orders.map((o) => String(o.customIdentifier));
}
