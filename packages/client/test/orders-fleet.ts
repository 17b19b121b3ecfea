// A fleet of order workers: N processes (test/orders-worker.ts) submit the same orders through
// RedisOrderClaims against one sandbox server, optionally with Redis unreachable for a while mid-run.
// Used by the Redis claims test and the client bench. The cut starts once the workers together have
// finished a given number of calls (each worker reports every finished call over IPC), not at a fixed time:
// process start-up takes from under a second on a quiet machine to several on a loaded one, so a cut at a
// fixed time could land before the workers reach Redis or after a short run has ended.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSandboxServer } from '@partner-print/sandbox/node';
import { createClient } from '../src/index.ts';
import { storedIdentifiers } from './orders-faults.ts';

export interface WorkerReport {
  created: number;
  existing: number;
  errors: string[];
  events: string[];
}

export interface FleetRun {
  workers: WorkerReport[];
  /** customIdentifiers of every order the service holds afterwards. */
  stored: string[];
  wallMs: number;
  /** When Redis became unreachable and reachable again (ms into the run), with `cut`. */
  cutMs?: { from: number; to: number };
}

function runWorker(index: number, env: NodeJS.ProcessEnv, onCall: () => void): Promise<WorkerReport> {
  const worker = fileURLToPath(new URL('./orders-worker.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...env, WORKER: String(index) },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    child.on('message', onCall);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as WorkerReport)
        : reject(new Error(`worker ${index}: ${code} ${out}`)),
    );
  });
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
    const started = Date.now();
    const { cut } = options;
    let calls = 0;
    let cutMs: FleetRun['cutMs'];
    const onCall = () => {
      calls += 1;
      if (!cut || cutMs || calls < cut.afterCalls) return;
      cut.proxy.cut();
      const from = Date.now() - started;
      cutMs = { from, to: from + cut.for };
      setTimeout(() => cut.proxy.restore(), cut.for);
    };
    const runs = Array.from({ length: options.workers }, (_, k) => runWorker(k, env, onCall));
    const workers = await Promise.all(runs);
    const wallMs = Date.now() - started;
    const checker = createClient({ secretKey: sandbox.keys.primary, baseUrl: server.url, rateLimit: false });
    return { workers, stored: await storedIdentifiers(checker), wallMs, ...(cutMs ? { cutMs } : {}) };
  } finally {
    await server.close();
  }
}
