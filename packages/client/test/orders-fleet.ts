// A fleet of order workers: N processes (test/orders-worker.ts) submit the same orders through
// RedisOrderClaims against one sandbox server, optionally with Redis unreachable for a while mid-run.
// Used by the Redis claims test and the client bench.
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
}

function runWorker(index: number, env: NodeJS.ProcessEnv): Promise<WorkerReport> {
  const worker = fileURLToPath(new URL('./orders-worker.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...env, WORKER: String(index) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as WorkerReport)
        : reject(new Error(`worker ${index}: ${code} ${out}`)),
    );
  });
}

/** `workers` processes × the same `count` orders; `cut` makes Redis unreachable from `at` ms for `for` ms. */
export async function runFleet(options: {
  workers: number;
  count: number;
  redisUrl: string;
  cut?: { at: number; for: number; proxy: { cut(): void; restore(): void } };
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
    };
    const started = Date.now();
    const runs = Array.from({ length: options.workers }, (_, k) => runWorker(k, env));
    const { cut } = options;
    if (cut) {
      setTimeout(() => cut.proxy.cut(), cut.at);
      setTimeout(() => cut.proxy.restore(), cut.at + cut.for);
    }
    const workers = await Promise.all(runs);
    const wallMs = Date.now() - started;
    const checker = createClient({ secretKey: sandbox.keys.primary, baseUrl: server.url, rateLimit: false });
    return { workers, stored: await storedIdentifiers(checker), wallMs };
  } finally {
    await server.close();
  }
}
