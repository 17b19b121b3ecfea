/**
 * The lazily loaded part of the page: the sandbox, the SDK packages a sample may import, the session and the
 * panel. The page's small loader (loader.ts) decodes this bundle on the first Run and calls `boot`.
 */
import { createSandbox } from '../../../packages/sandbox/src/index.ts';
import { createModules } from './modules.ts';
import { createPanel } from './panel.ts';
import type { OperationRoute } from './record.ts';
import { createSession, type Session } from './session.ts';
import type { RunnableSample, RunResult } from './types.ts';

export interface RunnerData {
  samples: RunnableSample[];
  routes: OperationRoute[];
}

export interface Runner {
  open(id: string): void;
}

/** Legacy callbacks are never sent from the page: it makes no network request. */
const noCallbacks: typeof fetch = () =>
  Promise.reject(new TypeError('The in-page sandbox sends no callbacks (the page makes no network request)'));

function newSession(data: RunnerData): Session {
  return createSession({
    createSandbox: () => createSandbox({ jitter: 0, callbackFetch: noCallbacks }),
    samples: data.samples,
    modules: createModules,
    routes: data.routes,
  });
}

export function boot(data: RunnerData): Runner {
  const samples = new Map(data.samples.map((s) => [s.id, s]));
  const session = newSession(data);
  const panel = createPanel(session, samples);
  return {
    open(id) {
      const sample = samples.get(id);
      if (!sample) throw new Error(`no runnable sample ${id}`);
      panel.open(sample);
    },
  };
}

/** The page's one runner, kept for scripts and tests (`PartnerPrintRunner.runner.open('op:getOrder')`). */
export let runner: Runner | undefined;

export function bootOnce(data: RunnerData): Runner {
  runner ??= boot(data);
  return runner;
}

/**
 * Runs each group of samples in a session of its own (its own sandbox, no panel), one after the other within a
 * group, all groups at once: how the tests run every sample of the page in one call. The page's own session and
 * panel are not touched.
 */
export function runEach(data: RunnerData, groups: readonly (readonly string[])[]): Promise<RunResult[][]> {
  return Promise.all(
    groups.map(async (ids) => {
      const session = newSession(data);
      const results: RunResult[] = [];
      for (const id of ids) results.push(await session.run(id));
      return results;
    }),
  );
}
