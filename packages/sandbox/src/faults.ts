export const FAULT_KINDS = ['status', 'latency', 'drop-before', 'drop-after'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
  /** Route pattern, e.g. `/v2/orders`, `/v2/orders/*` (one segment) or `/v2/**` (anything). `/v2` may be left off. */
  path: string;
  /** HTTP method to match; all methods when omitted. */
  method?: string;
  /**
   * `status`: answer with `status` (500 or 503) without running the request.
   * `latency`: wait `latencyMs` (real time) before handling.
   * `drop-before`: the connection drops before the request takes effect.
   * `drop-after`: the request takes effect, then the connection drops before the answer.
   */
  kind: FaultKind;
  status?: 500 | 503;
  latencyMs?: number;
  /** How many matching requests it affects (default 1). */
  count?: number;
}

export interface ActiveFault extends Required<Pick<FaultSpec, 'path' | 'kind'>> {
  id: number;
  method: string | null;
  status: number;
  latencyMs: number;
  remaining: number;
  pattern: RegExp;
}

/** Marks the error the in-process fetch rejects with, so the Node server can drop the socket. */
export const DROPPED = Symbol.for('partner-print.sandbox.dropped');

export function droppedConnection(): TypeError {
  const error = new TypeError('fetch failed', {
    cause: new Error('The sandbox dropped the connection (injected fault)'),
  });
  (error as unknown as Record<symbol, boolean>)[DROPPED] = true;
  return error;
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

export class Faults {
  private faults: ActiveFault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): ActiveFault {
    if (spec.kind === 'status' && spec.status !== 500 && spec.status !== 503) {
      throw new RangeError('a status fault needs status 500 or 503');
    }
    const fault: ActiveFault = {
      id: this.nextId++,
      path: spec.path,
      kind: spec.kind,
      method: spec.method ? spec.method.toUpperCase() : null,
      status: spec.status ?? 503,
      latencyMs: spec.latencyMs ?? 0,
      remaining: spec.count ?? 1,
      pattern: compile(spec.path),
    };
    this.faults.push(fault);
    return fault;
  }

  clear() {
    this.faults = [];
  }

  active(): boolean {
    return this.faults.length > 0;
  }

  list(): ActiveFault[] {
    return this.faults.slice();
  }

  /** Takes the first fault matching the request, counting it down. */
  take(method: string, path: string): ActiveFault | undefined {
    if (this.faults.length === 0) return undefined;
    const fault = this.faults.find((f) => (f.method === null || f.method === method) && f.pattern.test(path));
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault;
  }
}
