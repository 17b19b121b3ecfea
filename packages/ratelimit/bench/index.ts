/**
 * Rate-limit bench: the scheduler against a naive client (sleeps Retry-After on each 429) and Bottleneck
 * configured statically from the documented quota, with 1 and 3 worker processes of one organization
 * (3 with the Redis store too), 8 concurrent callers per process, against a token-bucket server with a
 * small quota. Also the queue's memory and per-request cost with 100,000 queued requests.
 *
 *   pnpm --filter @partner-print/ratelimit bench [--duration=30] [--parallel] [--only=scheduler|naive|bottleneck|memory]
 *     [--server=bench]   (default: the sandbox's Node server; `bench` uses bench/token-bucket-api.ts)
 *
 * Utilization = successes / (q + duration·q/w). Exits 1 when a target is missed.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startSandboxServer } from '@partner-print/sandbox/node';
import { createScheduler } from '../src/index.ts';
import { startRedisServer } from './redis-server.ts';
import { startTokenBucketServer } from './token-bucket-api.ts';
import type { Strategy, WorkerResult, WorkerTask } from './worker.ts';

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k ?? '', v ?? 'true'] as const;
  }),
);
const durationSeconds = Number(args.get('duration') ?? 30);
const serial = !args.has('parallel');
const only = args.get('only');
const serverKind = args.get('server') === 'bench' ? 'bench' : 'sandbox';
const QUOTA = 120;
const WINDOW = 6;
const CALLERS = 8;

interface Scenario {
  name: string;
  strategy: Strategy;
  processes: number;
  redis?: boolean;
  target?: { utilization: number; limited: number };
}

const allScenarios: Scenario[] = [
  {
    name: 'scheduler, 1 process',
    strategy: 'scheduler',
    processes: 1,
    target: { utilization: 0.98, limited: 0.005 },
  },
  {
    name: 'scheduler, 3 processes, no store',
    strategy: 'scheduler',
    processes: 3,
    target: { utilization: 0.95, limited: 0.02 },
  },
  {
    name: 'scheduler, 3 processes, Redis store',
    strategy: 'scheduler',
    processes: 3,
    redis: true,
    target: { utilization: 0.97, limited: 0.005 },
  },
  { name: 'naive (sleep Retry-After), 1 process', strategy: 'naive', processes: 1 },
  { name: 'naive (sleep Retry-After), 3 processes', strategy: 'naive', processes: 3 },
  { name: 'Bottleneck static, 1 process', strategy: 'bottleneck', processes: 1 },
  { name: 'Bottleneck static, 3 processes', strategy: 'bottleneck', processes: 3 },
];
const scenarios = allScenarios.filter((s) => !only || s.strategy === only);

const workerPath = fileURLToPath(new URL('./worker.ts', import.meta.url));

interface Child {
  run(task: WorkerTask): Promise<WorkerResult>;
}

/** Forks a worker and resolves once it has loaded, so start-up time never eats into a run. */
function spawnWorker(): Promise<Child> {
  return new Promise((resolveReady, rejectReady) => {
    const child = fork(workerPath, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let settle: { resolve: (r: WorkerResult) => void; reject: (e: Error) => void } | undefined;
    child.on('message', (message: { ready?: boolean; result?: WorkerResult; error?: string }) => {
      if (message.ready) {
        resolveReady({
          run: (task) =>
            new Promise<WorkerResult>((resolve, reject) => {
              settle = { resolve, reject };
              child.send(task);
            }),
        });
      } else if (message.result) settle?.resolve(message.result);
      else if (message.error) settle?.reject(new Error(message.error));
    });
    child.once('exit', (code) => {
      const error = new Error(`worker exited with ${code}`);
      rejectReady(error);
      if (code !== 0) settle?.reject(error);
    });
  });
}

interface Target {
  url: string;
  secret: string;
  close(): Promise<void>;
}

/** A fresh server per scenario, so every scenario starts with a full bucket of its own. */
async function startTarget(): Promise<Target> {
  if (serverKind === 'sandbox') {
    const server = await startSandboxServer({
      port: 0,
      sandbox: { rateLimits: { default: { q: QUOTA, w: WINDOW } }, jitter: 1 },
    });
    return { url: server.url, secret: server.sandbox.keys.primary, close: () => server.close() };
  }
  const server = await startTokenBucketServer({ policies: { default: { q: QUOTA, w: WINDOW } }, jitter: 1 });
  return { url: server.url, secret: 'bench-organization', close: () => server.close() };
}

async function runScenario(
  s: Scenario,
  redisUrl: string | undefined,
): Promise<{ s: Scenario; ok: number; limited: number; other: number; errors: number }> {
  const children = await Promise.all(Array.from({ length: s.processes }, () => spawnWorker()));
  const target = await startTarget();
  try {
    return await runOn(children, s, target, redisUrl, Date.now() + 300);
  } finally {
    await target.close();
  }
}

async function runOn(
  children: Child[],
  s: Scenario,
  target: Target,
  redisUrl: string | undefined,
  startAt: number,
): Promise<{ s: Scenario; ok: number; limited: number; other: number; errors: number }> {
  const endAt = startAt + durationSeconds * 1000;
  const { url, secret } = target;
  const results = await Promise.all(
    children.map((child) =>
      child.run({
        strategy: s.strategy,
        url,
        secret,
        callers: CALLERS,
        startAt,
        endAt,
        quota: QUOTA,
        windowSeconds: WINDOW,
        ...(s.redis && redisUrl ? { redisUrl } : {}),
      }),
    ),
  );
  const sum = (k: keyof WorkerResult): number => results.reduce((a, r) => a + r[k], 0);
  return { s, ok: sum('ok'), limited: sum('limited'), other: sum('other'), errors: sum('errors') };
}

async function memoryBench(): Promise<{
  mb: number;
  enqueueUsPerRequest: number;
  drainUsPerRequest: number;
}> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const N = 100_000;
  const pending: ((r: Response) => void)[] = [];
  let release = false;
  // The queue's own cost: a quota that never binds (rate limiting is measured above).
  const scheduler = createScheduler({
    key: 'memory',
    concurrency: 1,
    defaults: {
      policies: { default: { quota: 1e9, windowSeconds: 1 } },
      buckets: () => ['default'],
    },
    fetch: () =>
      release
        ? Promise.resolve(new Response(null, { status: 204 }))
        : new Promise<Response>((resolve) => pending.push(resolve)),
  });
  gc();
  const before = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const promises: Promise<Response>[] = [];
  for (let i = 0; i < N; i++) {
    promises.push(
      scheduler.fetch('http://api.example/v2/orders', { headers: { 'x-service-secret-key': 'k' } }),
    );
  }
  // Wait until every request is queued (the key is hashed asynchronously).
  while (scheduler.stats().queued < N - 1) await new Promise((r) => setTimeout(r, 5));
  const enqueueMs = performance.now() - t0;
  gc();
  const after = process.memoryUsage().heapUsed;
  release = true;
  const t1 = performance.now();
  for (const resolve of pending.splice(0)) resolve(new Response(null, { status: 204 }));
  await Promise.all(promises);
  const drainMs = performance.now() - t1;
  return {
    mb: (after - before) / 1024 / 1024,
    enqueueUsPerRequest: (enqueueMs * 1000) / N,
    drainUsPerRequest: (drainMs * 1000) / N,
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;

async function main(): Promise<void> {
  const redis = scenarios.some((s) => s.redis) ? await startRedisServer() : undefined;
  const max = QUOTA + (durationSeconds * QUOTA) / WINDOW;
  let failed = false;
  try {
    console.log(
      `ratelimit bench: q=${QUOTA}, w=${WINDOW}s, ${durationSeconds}s runs, ${CALLERS} callers per process, ` +
        `${serverKind === 'sandbox' ? "the sandbox's Node server (@partner-print/sandbox/node, jitter 1 s)" : 'the bench token-bucket server (bench/token-bucket-api.ts)'}, ${serial ? 'scenarios one after another' : 'scenarios side by side, one organization each'}`,
    );
    const rows = [];
    if (serial) {
      for (const s of scenarios) rows.push(await runScenario(s, redis?.url));
    } else {
      const children = await Promise.all(
        scenarios.map((s) => Promise.all(Array.from({ length: s.processes }, () => spawnWorker()))),
      );
      const targets = await Promise.all(scenarios.map(() => startTarget()));
      const startAt = Date.now() + 500;
      try {
        rows.push(
          ...(await Promise.all(
            scenarios.map((s, i) => runOn(children[i] ?? [], s, targets[i]!, redis?.url, startAt)),
          )),
        );
      } finally {
        await Promise.all(targets.map((t) => t.close()));
      }
    }
    const table = rows.map(({ s, ok, limited, other, errors }) => {
      const utilization = ok / max;
      const limitedShare = limited / Math.max(1, ok + limited + other);
      const pass = s.target
        ? utilization >= s.target.utilization && limitedShare <= s.target.limited
        : undefined;
      if (pass === false) failed = true;
      return {
        scenario: s.name,
        successes: ok,
        '429s': limited,
        utilization: pct(utilization),
        '429 share': pct(limitedShare),
        errors: errors + other,
        target: s.target ? `≥${pct(s.target.utilization)}, ≤${pct(s.target.limited)} 429` : '',
        pass: pass === undefined ? '' : pass ? 'yes' : 'NO',
      };
    });
    console.table(table);
    if (!only || only === 'memory') {
      const memory = await memoryBench();
      const pass = memory.mb <= 50;
      if (!pass) failed = true;
      console.table([
        {
          measure: '100,000 queued requests',
          'heap MB': memory.mb.toFixed(1),
          'enqueue µs/request': memory.enqueueUsPerRequest.toFixed(1),
          'dispatch µs/request': memory.drainUsPerRequest.toFixed(1),
          target: '≤50 MB',
          pass: pass ? 'yes' : 'NO',
        },
      ]);
    }
  } finally {
    await redis?.stop();
  }
  process.exit(failed ? 1 : 0);
}

await main();
