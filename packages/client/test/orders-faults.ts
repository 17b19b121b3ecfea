// Order faults on top of the in-process sandbox, for the createOrder tests and bench: a POST /orders whose
// commit lands later than its answer (or than the client's giving up), and a custom-identifier lookup that
// lags commits. Times are the sandbox's virtual milliseconds: a client sleeping on that clock moves them.
import { createSandbox, type Sandbox } from '@partner-print/sandbox';
import { createClient, type Fetch, type OrderRequest } from '../src/index.ts';
import { withSignal } from './helpers.ts';
import { random, ref } from './orders-pool.ts';

export type PostFault =
  /** The sandbox's `late-commit` fault, answer `drop`: the connection drops at once, the order lands `commitAfterMs` later. */
  | 'late-commit-drop'
  /** The sandbox's `late-commit` fault, answer `hang`: no answer (the client times out), the order lands later. */
  | 'late-commit-hang'
  /** The order is stored, then the connection drops. */
  | 'drop-after'
  /** The connection drops before the order is stored. */
  | 'drop-before'
  /** 503 before anything is stored. */
  | 'status-503'
  /** 500 before anything is stored. */
  | 'status-500'
  /** 502 after the order was stored (this wrapper's; the sandbox has no such fault). */
  | 'status-502-after';

export interface OrderFaultOptions {
  /** Which fault a faulty POST /orders gets. */
  fault?: PostFault;
  /** Share of POST /orders requests that get it (0..1). */
  rate?: number;
  seed?: number;
  /** Sandbox milliseconds from a late-committed POST to its commit. */
  commitAfterMs?: number;
  /** The sandbox's `lookup-lag` fault: the lookup misses orders committed less than this long ago. */
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

/** The sandbox's fetch with order faults (the sandbox's own, injected per request), and counts of what reached it. */
export function faultyOrders(sandbox: Sandbox, options: OrderFaultOptions = {}) {
  const { rate = 0, commitAfterMs = 2_000, lookupLagMs = 0 } = options;
  const next = random(options.seed ?? 1);
  const send = withSignal(sandbox);
  const stats = { posts: 0, lookups: 0, reads: 0, faults: 0 };
  if (lookupLagMs > 0) sandbox.control.injectFault({ kind: 'lookup-lag', lagMs: lookupLagMs });

  const lookup = async (request: Request, init?: { signal: AbortSignal }) => {
    const n = ++stats.lookups;
    options.onLookup?.(n);
    if (options.lookupFailsAfter !== undefined && n > options.lookupFailsAfter)
      return json({ code: 'unavailable', message: 'lookup down' }, 503);
    return send(request, init);
  };

  const post = async (request: Request, init?: { signal: AbortSignal }) => {
    const n = ++stats.posts;
    const body = (await request.clone().json()) as { order: { customIdentifier?: string } };
    const fault = options.plan
      ? options.plan(body.order, n)
      : options.fault && next() < rate
        ? options.fault
        : undefined;
    if (!fault) return send(request, init);
    stats.faults++;
    const target = { path: '/v2/orders', method: 'POST' };
    if (fault === 'status-502-after') {
      await send(request, init);
      return json({ code: 'bad_gateway', message: 'upstream' }, 502);
    }
    const { control } = sandbox;
    if (fault === 'late-commit-drop' || fault === 'late-commit-hang')
      control.injectFault({
        kind: 'late-commit',
        commitDelayMs: commitAfterMs,
        answer: fault === 'late-commit-drop' ? 'drop' : 'hang',
      });
    else if (fault === 'status-503' || fault === 'status-500')
      control.injectFault({ ...target, kind: 'status', status: fault === 'status-503' ? 503 : 500 });
    else control.injectFault({ ...target, kind: fault });
    return send(request, init);
  };

  const fetch: Fetch = (request, init) => {
    const { pathname } = new URL(request.url);
    if (request.method === 'POST' && pathname === '/v2/orders') return post(request, init);
    if (request.method === 'GET' && pathname === LOOKUP) return lookup(request, init);
    if (request.method === 'GET' && pathname.startsWith('/v2/orders/')) stats.reads++;
    return send(request, init);
  };
  /** Moves sandbox time by `ms`: the late commits due by then land. */
  const advance = (ms: number) => sandbox.control.advance(ms);
  return { fetch, stats, advance };
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
    order: (customIdentifier?: string, quantity = 1): OrderRequest => ({
      storeReference: ref('Store', sandbox.seed.stores.combined),
      shippingKind: 'combined',
      ...(customIdentifier === undefined ? {} : { customIdentifier }),
      orderlines: [{ productReference: ref('Product', sandbox.seed.products.nonPrint), quantity }],
    }),
  };
}

/** What the service holds: every order's customIdentifier, through a client without faults. */
export async function storedIdentifiers(checker: ReturnType<typeof createClient>): Promise<string[]> {
  const orders = await checker.collect('/orders');
  return orders.map((o) => String(o.customIdentifier));
}
