/**
 * Sends a sandbox call through Prism: the client's request goes to Prism (path without `/v2`, since the spec's
 * paths are relative to the base URL), Prism forwards it to the bridge, the bridge answers with the sandbox's
 * real response, and Prism reports what it found in the `sl-violations` header. The client gets the sandbox's
 * response itself, byte for byte (Prism re-encodes binary bodies as text).
 */
import { CALL_HEADER } from './bridge.ts';
import { type CallStats, close, count, open, type SandboxFetch, stats, type Violation } from './calls.ts';

let prismOrigin: string | undefined;

export function usePrism(origin: string | undefined): void {
  prismOrigin = origin;
}

interface PrismViolation {
  location?: string[];
  message?: string;
  severity?: string;
}

function readViolations(header: string | null): PrismViolation[] {
  if (!header) return [];
  try {
    return JSON.parse(header) as PrismViolation[];
  } catch {
    return [
      {
        location: [],
        message: `unreadable sl-violations header: ${header.slice(0, 200)}`,
        severity: 'Error',
      },
    ];
  }
}

function record(call: string, status: number, found: PrismViolation[], into: CallStats): void {
  for (const v of found) {
    const [side = '?', ...location] = v.location ?? [];
    const violation: Violation = {
      call,
      status,
      side,
      location: location.join('.'),
      message: v.message ?? '',
      severity: v.severity ?? '?',
    };
    // A request the spec forbids and the sandbox refuses (4xx) is a deliberate negative example, not a
    // disagreement; a forbidden request the sandbox accepts, and any response violation, is a finding.
    if (side === 'request' && status >= 400 && status < 500) into.refusedInvalidRequests.push(violation);
    else into.violations.push(violation);
  }
}

async function throughPrism(request: Request, sandboxFetch: SandboxFetch, origin: string): Promise<Response> {
  const url = new URL(request.url);
  const call = `${request.method} ${url.pathname}`;
  const body = request.body ? await request.clone().arrayBuffer() : undefined;
  const id = open(request, sandboxFetch);
  const headers = new Headers(request.headers);
  headers.set(CALL_HEADER, id);
  try {
    const prism = await fetch(`${origin}${url.pathname.slice('/v2'.length)}${url.search}`, {
      method: request.method,
      headers,
      body,
      redirect: 'manual',
    }).catch((error: unknown) => ({ error }));
    const outcome = close(id)?.outcome;
    if (!outcome) throw new Error(`${call}: Prism did not forward the call (${String(prism)})`);
    if ('error' in outcome) throw outcome.error;
    if ('error' in prism) throw prism.error;
    await prism.arrayBuffer();
    const found = readViolations(prism.headers.get('sl-violations'));
    if (prism.status !== outcome.response.status) {
      found.push({
        location: ['response'],
        message: `Prism answered ${prism.status}, the sandbox ${outcome.response.status}`,
        severity: 'Error',
      });
    }
    record(call, outcome.response.status, found, stats);
    count(stats.validated, call.replace(/\/[A-Z][a-z]*_[^/]+/g, '/{ref}'));
    return outcome.response;
  } finally {
    close(id);
  }
}

/** A sandbox fetch that goes through Prism for `/v2` calls when a Prism origin is set, else straight on. */
export function validatingFetch(sandboxFetch: SandboxFetch, sandboxOrigin: string) {
  return (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request =
      input instanceof Request
        ? init === undefined
          ? input
          : new Request(input, init)
        : new Request(new URL(String(input), sandboxOrigin), init);
    const { pathname } = new URL(request.url);
    if (!prismOrigin || !pathname.startsWith('/v2/')) {
      count(stats.bypassed, prismOrigin ? `not API V2: ${pathname.split('/')[1]}` : 'no Prism');
      return sandboxFetch(request);
    }
    return throughPrism(request, sandboxFetch, prismOrigin);
  };
}
