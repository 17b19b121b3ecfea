export const FAULT_KINDS = [
  'status',
  'latency',
  'drop-before',
  'drop-after',
  'late-commit',
  'lookup-lag',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** How a `late-commit` request is answered while its commit is pending. */
export type LateCommitAnswer = 'drop' | 'hang';

export interface FaultSpec {
  /**
   * Route pattern, e.g. `/v2/orders`, `/v2/orders/*` (one segment) or `/v2/**` (anything). `/v2` may be left off.
   * Optional for `late-commit` (POST /orders) and `lookup-lag` (the custom-identifier lookup), which have one route.
   */
  path?: string;
  /** HTTP method to match; all methods when omitted. */
  method?: string;
  /**
   * `status`: answer with `status` (500 or 503) without running the request.
   * `latency`: wait `latencyMs` (real time) before handling.
   * `drop-before`: the connection drops before the request takes effect.
   * `drop-after`: the request takes effect, then the connection drops before the answer.
   * `late-commit` (POST /orders): a valid order is committed `commitDelayMs` of sandbox time after the request
   *   arrived; meanwhile the request is answered as `answer` says.
   * `lookup-lag`: the custom-identifier lookup does not see orders committed less than `lagMs` of sandbox
   *   time ago; it applies to every lookup until cleared (or to `count` lookups when `count` is given).
   */
  kind: FaultKind;
  status?: 500 | 503;
  latencyMs?: number;
  /** `late-commit`: sandbox milliseconds from the request to the commit. */
  commitDelayMs?: number;
  /**
   * `late-commit`: `drop` (default): the connection drops at once, the order lands later.
   * `hang`: no answer until the order lands (then `200`); a client that gives up first (abort, timeout) gets
   * its abort error, and the order still lands.
   */
  answer?: LateCommitAnswer;
  /** `lookup-lag`: sandbox milliseconds a commit takes to reach the lookup. */
  lagMs?: number;
  /** How many matching requests it affects (default 1; `lookup-lag`: every lookup until cleared). */
  count?: number;
}

export interface ActiveFault {
  id: number;
  path: string;
  kind: FaultKind;
  method: string | null;
  status: number;
  latencyMs: number;
  commitDelayMs: number;
  answer: LateCommitAnswer;
  lagMs: number;
  /** Matching requests it still affects; null: until cleared. */
  remaining: number | null;
  pattern: RegExp;
}

export const ORDERS_PATH = '/v2/orders';
export const LOOKUP_PATH = '/v2/utilities/lookup-order-reference-by-custom-identifier';

/** Marks the error the in-process fetch rejects with, so the Node server can drop the socket. */
export const DROPPED: unique symbol = Symbol.for('partner-print.sandbox.dropped');

export function droppedConnection(): TypeError {
  const error = new TypeError('fetch failed', {
    cause: new Error('The sandbox dropped the connection (injected fault)'),
  });
  Object.defineProperty(error, DROPPED, { value: true });
  return error;
}

export function isDroppedConnection(error: unknown): boolean {
  return error instanceof TypeError && Object.hasOwn(error, DROPPED);
}

function compile(path: string): RegExp {
  const full =
    path.startsWith('/v2') || path.startsWith('/_') ? path : `/v2${path.startsWith('/') ? '' : '/'}${path}`;
  const source = full
    .split('/')
    .map((seg) => (seg === '**' ? '.*' : seg === '*' ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** The one route of a kind that has one, and whether a given path and method fit it. */
function fixedRoute(spec: FaultSpec): { path: string; method: string } | undefined {
  if (spec.kind === 'late-commit') return { path: ORDERS_PATH, method: 'POST' };
  if (spec.kind === 'lookup-lag') return { path: LOOKUP_PATH, method: 'GET' };
  return undefined;
}

function activate(spec: FaultSpec, id: number): ActiveFault {
  const fixed = fixedRoute(spec);
  const path = spec.path ?? fixed?.path;
  if (path === undefined) throw new RangeError(`a ${spec.kind} fault needs a path`);
  const pattern = compile(path);
  const method = spec.method ? spec.method.toUpperCase() : (fixed?.method ?? null);
  if (fixed && (!pattern.test(fixed.path) || method !== fixed.method)) {
    throw new RangeError(`a ${spec.kind} fault applies to ${fixed.method} ${fixed.path} only`);
  }
  if (spec.kind === 'status' && spec.status !== undefined && spec.status !== 500 && spec.status !== 503) {
    throw new RangeError('a status fault needs status 500 or 503');
  }
  return {
    id,
    path,
    kind: spec.kind,
    method,
    status: spec.status ?? 503,
    latencyMs: spec.latencyMs ?? 0,
    commitDelayMs: spec.commitDelayMs ?? 0,
    answer: spec.answer ?? 'drop',
    lagMs: spec.lagMs ?? 0,
    remaining: spec.count ?? (spec.kind === 'lookup-lag' ? null : 1),
    pattern,
  };
}

export class Faults {
  private faults: ActiveFault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): ActiveFault {
    const fault = activate(spec, this.nextId++);
    this.faults.push(fault);
    return fault;
  }

  clear(): void {
    this.faults = [];
  }

  active(): boolean {
    return this.faults.length > 0;
  }

  list(): ActiveFault[] {
    return this.faults.slice();
  }

  /** Takes the first request fault matching the request, counting it down (`lookup-lag` is read by the lookup). */
  take(method: string, path: string): ActiveFault | undefined {
    if (this.faults.length === 0) return undefined;
    return this.consume(
      (f) => f.kind !== 'lookup-lag' && (f.method === null || f.method === method) && f.pattern.test(path),
    );
  }

  /** The lag of the custom-identifier lookup now (0 without a `lookup-lag` fault), counting it down. */
  lookupLag(): number {
    if (this.faults.length === 0) return 0;
    return this.consume((f) => f.kind === 'lookup-lag')?.lagMs ?? 0;
  }

  private consume(match: (fault: ActiveFault) => boolean): ActiveFault | undefined {
    const fault = this.faults.find(match);
    if (!fault || fault.remaining === null) return fault;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault;
  }
}
