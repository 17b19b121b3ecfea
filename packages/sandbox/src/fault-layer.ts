import type { Hono } from 'hono';
import { createRealClock } from './clock.ts';
import type { Env } from './context.ts';
import type { LateCommits } from './domain/late-commits.ts';
import { type ActiveFault, droppedConnection, type Faults } from './faults.ts';
import type { VirtualClock } from './virtual-clock.ts';

const realTime = createRealClock();

type App = Pick<Hono<Env>, 'fetch'>;

function statusAnswer(fault: ActiveFault): Response {
  return Response.json(
    {
      code: fault.status === 503 ? 'service_unavailable' : 'internal_error',
      message: `Injected fault: ${fault.status}`,
    },
    { status: fault.status, headers: { 'X-Sandbox-Fault': 'status' } },
  );
}

/** Settles with `work`, or rejects with the abort reason as soon as the client gives up. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * POST /orders whose commit lands `commitDelayMs` later on the sandbox clock. A refused order is answered at
 * once; a valid one is scheduled, then the connection drops (`drop`) or the answer waits for the commit
 * (`hang`) unless the client gives up first. Either way the order lands on time.
 */
async function lateCommit(app: App, request: Request, fault: ActiveFault): Promise<Response> {
  let scheduled: (committed: Promise<unknown>) => void = () => undefined;
  const whenScheduled = new Promise<{ committed: Promise<unknown> }>((resolve) => {
    scheduled = (committed) => resolve({ committed });
  });
  const answer = Promise.resolve(
    app.fetch(request, { lateCommit: { delayMs: fault.commitDelayMs, onScheduled: scheduled } }),
  );
  const first = await Promise.race([answer, whenScheduled]);
  if (first instanceof Response) return first;
  answer.then(
    (res) => (fault.answer === 'drop' ? res.body?.cancel() : undefined),
    () => undefined,
  );
  if (fault.answer === 'drop') throw droppedConnection();
  // The answer follows the commit; a commit dropped by reset rejects first, as a dropped connection.
  return untilAborted(
    first.committed.then(() => answer),
    request.signal,
  );
}

/**
 * Latency is real time standing for network time. On a virtual clock it holds virtual time meanwhile, so
 * sleepers elsewhere do not jump ahead while the request travels: it arrives at the virtual time it was sent.
 */
async function latency(ms: number, signal: AbortSignal, virtual: VirtualClock | undefined): Promise<void> {
  const release = virtual?.hold();
  try {
    await realTime.sleep(ms, signal);
  } finally {
    release?.();
  }
}

/** The sandbox's front door: runs due late commits, then applies the first matching injected fault. */
export function withFaults(app: App, faults: Faults, lateCommits: LateCommits, virtual?: VirtualClock) {
  return async (request: Request): Promise<Response> => {
    lateCommits.runDue();
    const fault = faults.active() ? faults.take(request.method, new URL(request.url).pathname) : undefined;
    switch (fault?.kind) {
      case undefined:
      case 'lookup-lag':
        return app.fetch(request);
      case 'status':
        return statusAnswer(fault);
      case 'latency':
        await latency(fault.latencyMs, request.signal, virtual);
        return app.fetch(request);
      case 'drop-before':
        throw droppedConnection();
      case 'drop-after': {
        const res = await app.fetch(request);
        await res.body?.cancel();
        throw droppedConnection();
      }
      case 'late-commit':
        return lateCommit(app, request, fault);
    }
  };
}
