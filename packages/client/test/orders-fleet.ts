// A fleet of order workers: N processes (test/orders-worker.ts) submit the same orders through
// RedisOrderClaims against one sandbox server, optionally with Redis unreachable for a while mid-run.
// Used by the Redis claims test and the client bench. The workers start their calls together: each
// reports over IPC when it is connected and ready, and the fleet tells them all to go once every one is;
// process start-up takes from under a second on a quiet machine to several on a loaded one, and a worker
// started seconds before the others could run through its orders alone, so that the outage reached it
// only as it ended. The cut starts once the workers together have finished a given number of calls (each
// reports every finished call), not at a fixed time, so it lands mid-run whatever the machine's speed.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSandboxServer } from '@partner-print/sandbox/node';
import { workerScript } from '../../../test-utils/worker-script.ts';
import { createClient } from '../src/index.ts';
import { storedIdentifiers } from './orders-faults.ts';

export interface WorkerReport {
  created: number;
  existing: number;
  errors: string[];
  events: string[];
  /** When the worker had finished its calls, ms into the run. */
  endedMs: number;
}

export interface FleetRun {
  workers: WorkerReport[];
  /** customIdentifiers of every order the service holds afterwards. */
  stored: string[];
  wallMs: number;
  /** When Redis became unreachable and reachable again (ms into the run), with `cut`. */
  cutMs?: { from: number; to: number };
}

/** One worker process; `onMessage` gets its IPC messages: 'ready', a 'call' per finished call, 'done'. */
function runWorker(
  script: string,
  index: number,
  env: NodeJS.ProcessEnv,
  onMessage: (index: number, message: unknown) => void,
): { child: ChildProcess; report: Promise<Omit<WorkerReport, 'endedMs'>> } {
  const child = spawn(process.execPath, [script], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...env, WORKER: String(index) },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  child.on('message', (message) => onMessage(index, message));
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const report = new Promise<Omit<WorkerReport, 'endedMs'>>((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as Omit<WorkerReport, 'endedMs'>)
        : reject(new Error(`worker ${index}: ${code} ${out}`)),
    );
  });
  return { child, report };
}

/**
 * `workers` processes × the same `count` orders; `cut` makes Redis unreachable for `for` ms once the workers
 * have finished `afterCalls` calls between them.
 */
export async function runFleet(options: {
  workers: number;
  count: number;
  redisUrl: string;
  /** createOrder's `settleWindowMs` in the workers (default: the client's). */
  settleWindowMs?: number;
  cut?: { afterCalls: number; for: number; proxy: { cut(): void; restore(): void } };
}): Promise<FleetRun> {
  const script = workerScript(new URL('./orders-worker.ts', import.meta.url));
  const server = await startSandboxServer({ port: 0, sandbox: { rateLimits: false, pageSize: 500 } });
  const { sandbox } = server;
  try {
    const env = {
      ...process.env,
      SANDBOX_URL: server.url,
      SECRET: sandbox.keys.primary,
      REDIS_URL: options.redisUrl,
      COUNT: String(options.count),
      STORE: sandbox.seed.stores.combined,
      PRODUCT: sandbox.seed.products.nonPrint,
      ...(options.settleWindowMs === undefined ? {} : { SETTLE_WINDOW_MS: String(options.settleWindowMs) }),
    };
    let started = Date.now();
    const { cut } = options;
    let calls = 0;
    let ready = 0;
    let cutMs: FleetRun['cutMs'];
    const onCall = () => {
      calls += 1;
      if (!cut || cutMs || calls < cut.afterCalls) return;
      cut.proxy.cut();
      const from = Date.now() - started;
      cutMs = { from, to: from + cut.for };
      setTimeout(() => cut.proxy.restore(), cut.for);
    };
    const ended: number[] = [];
    const onMessage = (index: number, message: unknown) => {
      if (message === 'call') return onCall();
      if (message === 'done') ended[index] = Date.now() - started;
      if (message !== 'ready' || ++ready < options.workers) return;
      started = Date.now();
      for (const { child } of fleet) child.send('go');
    };
    const fleet = Array.from({ length: options.workers }, (_, k) => runWorker(script, k, env, onMessage));
    const workers = await Promise.all(
      fleet.map(({ report }, k) => report.then((r) => ({ ...r, endedMs: ended[k] ?? Date.now() - started }))),
    ).catch((error: unknown) => {
      for (const { child } of fleet) child.kill(); // the others may be waiting for a 'go' that never comes
      throw error;
    });
    const wallMs = Date.now() - started;
    const checker = createClient({ secretKey: sandbox.keys.primary, baseUrl: server.url, rateLimit: false });
    return { workers, stored: await storedIdentifiers(checker), wallMs, ...(cutMs ? { cutMs } : {}) };
  } finally {
    await server.close();
  }
}
