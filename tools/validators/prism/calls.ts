/**
 * The validating proxy's bookkeeping, shared by the bridge (which answers Prism with the sandbox's real
 * response) and the fetch that sends each sandbox call through Prism. One module instance per process.
 */

export type SandboxFetch = (request: Request) => Promise<Response>;

export interface Violation {
  call: string;
  status: number;
  /** `request` or `response`, as Prism reports it. */
  side: string;
  location: string;
  message: string;
  severity: string;
}

interface Pending {
  request: Request;
  sandboxFetch: SandboxFetch;
  outcome?: { response: Response } | { error: unknown };
}

export interface CallStats {
  /** Calls that went through Prism, per `METHOD /path template` Prism matched (or the concrete path). */
  validated: Map<string, number>;
  /** Calls that did not go through Prism, with the reason. */
  bypassed: Map<string, number>;
  violations: Violation[];
  /** Request violations on calls the sandbox refused with a 4xx: deliberate negative examples. */
  refusedInvalidRequests: Violation[];
}

const pending = new Map<string, Pending>();
let nextId = 1;

export const stats: CallStats = {
  validated: new Map(),
  bypassed: new Map(),
  violations: [],
  refusedInvalidRequests: [],
};

export function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

export function open(request: Request, sandboxFetch: SandboxFetch): string {
  const id = String(nextId++);
  pending.set(id, { request, sandboxFetch });
  return id;
}

export function take(id: string): Pending | undefined {
  return pending.get(id);
}

export function close(id: string): Pending | undefined {
  const entry = pending.get(id);
  pending.delete(id);
  return entry;
}
