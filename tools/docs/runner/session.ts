/**
 * The page session: one in-page sandbox, what the session made in it, and the runs of samples against it.
 * A sample's inputs come from `process.env` (see inputs.ts). Web-standard only: the page and the Node tests
 * share it.
 */
import type { Sandbox } from '../../../packages/sandbox/src/index.ts';
import { errorView, execute } from './execute.ts';
import { Inputs } from './inputs.ts';
import { emptyMemory, learn, type Memory, newest } from './memory.ts';
import { createRecordingFetch, type OperationRoute } from './record.ts';
import type { RunEvent, RunnableSample, RunResult } from './types.ts';

/** The modules a sample may import, given the fetch and clock of the session. */
export type ModuleFactory = (context: {
  fetch: typeof fetch;
  clock: Sandbox['clock'];
}) => Record<string, unknown>;

export interface SessionOptions {
  createSandbox(): Sandbox;
  samples: readonly RunnableSample[];
  modules: ModuleFactory;
  routes: readonly OperationRoute[];
}

export interface Session {
  readonly sandbox: Sandbox;
  readonly memory: Memory;
  run(id: string, listener?: (event: RunEvent) => void): Promise<RunResult>;
  reset(): Promise<void>;
  /** Control actions, each reported to the listener as a step. */
  advance(ms: number, listener?: (event: RunEvent) => void): Promise<void>;
  shipNewestOrder(listener?: (event: RunEvent) => void): string;
  decideNewestClaim(outcome: 'refund' | 'rejection', listener?: (event: RunEvent) => void): string;
}

/** `sk_test_…` and the length: enough to see which kind of key it is, nothing of the key itself. */
export function maskKey(key: string): string {
  const prefix = /^sk_(test|live)_/.exec(key)?.[0] ?? '';
  return `${prefix}… (${key.length} characters, hidden)`;
}

export function createSession(options: SessionOptions): Session {
  const sandbox = options.createSandbox();
  const memory = emptyMemory();
  let shopOrderNumber = 10042;
  const byId = new Map(options.samples.map((s) => [s.id, s]));
  const byOperation = new Map(options.samples.filter((s) => s.operationId).map((s) => [s.operationId!, s]));
  const inputs = new Inputs({
    sandbox,
    memory,
    prerequisite: (id, why, emit) => prerequisite(id, why, emit),
  });

  async function runSample(sample: RunnableSample, emit: (event: RunEvent) => void): Promise<RunResult> {
    const started = performance.now();
    const events: RunEvent[] = [];
    const record = (event: RunEvent) => {
      events.push(event);
      emit(event);
    };
    const fetch = createRecordingFetch({
      target: (request) => sandbox.fetch(request),
      baseUrl: sandbox.baseUrl,
      routes: options.routes,
      now: () => sandbox.clock.now(),
      onExchange: (exchange) => {
        learn(memory, exchange);
        record({ kind: 'exchange', exchange });
      },
    });
    let env: Record<string, string> = {};
    try {
      env = await inputs.prepare(sample, shopOrderNumber, record);
      if (sample.env.includes('SHOP_ORDER_NUMBER')) shopOrderNumber++;
      await execute(sample.js, {
        modules: options.modules({ fetch, clock: sandbox.clock }),
        env,
        fetch,
        emit: record,
      });
      return { ok: true, events, env: shown(sample, env), ms: performance.now() - started };
    } catch (error) {
      const view = errorView(error);
      record({ kind: 'error', error: view });
      return { ok: false, events, error: view, env: shown(sample, env), ms: performance.now() - started };
    }
  }

  /** The values a sample read, the secret key masked (it is never shown, even the sandbox's). */
  const shown = (sample: RunnableSample, env: Record<string, string>): [string, string][] =>
    sample.env
      .filter((name) => env[name] !== undefined)
      .map((name) => [name, name === 'PARTNER_PRINT_SECRET_KEY' ? maskKey(env[name]!) : env[name]!]);

  /** Runs another operation's sample first, reporting it, and fails when it failed. */
  async function prerequisite(operationId: string, why: string, emit: (e: RunEvent) => void): Promise<void> {
    const sample = byOperation.get(operationId);
    if (!sample) throw new Error(`${why}, and there is no "${operationId}" sample to make one`);
    emit({ kind: 'step', text: `${why}: running "${sample.title}" first.` });
    const result = await runSample(sample, emit);
    if (!result.ok) throw new Error(`"${sample.title}" failed, so this sample has no input`);
  }

  const quiet = () => {};
  return {
    sandbox,
    memory,
    run(id, listener = quiet) {
      const sample = byId.get(id);
      if (!sample) return Promise.reject(new Error(`no runnable sample ${id}`));
      return runSample(sample, listener);
    },
    async reset() {
      await sandbox.control.reset();
      Object.assign(memory, emptyMemory());
      shopOrderNumber = 10042;
    },
    advance: (ms, listener = quiet) => inputs.advance(ms, listener),
    shipNewestOrder(listener = quiet) {
      const order = newest(memory.orders);
      if (!order) throw new Error('No order in this session yet: run "Create an order" first.');
      return inputs.ship(order.reference, listener);
    },
    decideNewestClaim(outcome, listener = quiet) {
      const claim = [...memory.claims].reverse().find((c) => c.status === 'pending');
      if (!claim) throw new Error('No pending claim in this session: file one first.');
      sandbox.control.decideClaim(claim.reference, { outcome, comment: 'Decided from the docs panel.' });
      claim.status = outcome === 'rejection' ? 'rejected' : 'resolved';
      listener({ kind: 'step', text: `Sandbox control: decided ${claim.reference} (${outcome}).` });
      return claim.reference;
    },
  };
}
