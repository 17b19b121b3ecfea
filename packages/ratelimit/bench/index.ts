/**
 * Rate-limit bench (issue 21): N worker processes of one organization (child_process.fork, 8 callers each)
 * against a token-bucket server on 127.0.0.1 (q=120, w=6 s, Retry-After jitter up to 1 s) that changes its
 * policy or misbehaves mid-run; per-process counts give utilization, the 429 share and Jain's index per row.
 * Then the scheduler's cost per request against bare openapi-fetch, and the queue's memory.
 *
 *   pnpm bench ratelimit [-- --duration=18] [--only=<text in a row name>] [--skip=rows,sim,overhead,memory]
 *
 * `--skip=rows,sim,memory` runs the overhead measure alone (seconds, no worker processes).
 *
 * Utilization = successes / (q + duration·q/w). Exits 1 when a target is missed.
 *
 * Every worker sets up (its scheduler, its Redis connection, one connection per caller opened) before the
 * shared start; the cold-start row skips the connections (a fleet deployed at once), judged like the others.
 * `BENCH_DEBUG=1` traces the server's balance every 500 ms and each worker's state every second;
 * `BENCH_TRACE=1` prints every answer of the first 2.5 s (process, sent, answered, status, `X-RateLimit`).
 */
import { execFile, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startRedisServer } from '../../../test-utils/redis-server.ts';
import { memoryBench } from './memory.ts';
import { CALLERS, QUOTA, type Row, type RowRun, rows, WINDOW } from './rows.ts';
import { startTokenBucketServer } from './token-bucket-api.ts';
import type { WorkerResult, WorkerTask } from './worker.ts';

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k ?? '', v ?? 'true'] as const;
  }),
);
const seconds = Number(args.get('duration') ?? 18);
const only = args.get('only');
const skip = new Set((args.get('skip') ?? '').split(','));

interface Child {
  /** Sends the task; `prepared` resolves once the worker is set up, `result` when it is done. */
  run(task: WorkerTask): { prepared: Promise<void>; result: Promise<WorkerResult> };
  go(startAt: number): void;
}

const workerPath = fileURLToPath(new URL('./worker.ts', import.meta.url));

/** Forks a worker and resolves once it has loaded, so start-up time never eats into a run. */
function spawnWorker(): Promise<Child> {
  return new Promise((resolveReady, rejectReady) => {
    const child = fork(workerPath, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let settle: { resolve: (r: WorkerResult) => void; reject: (e: Error) => void } | undefined;
    let onPrepared: (() => void) | undefined;
    type Message = { ready?: boolean; prepared?: boolean; result?: WorkerResult; error?: string };
    child.on('message', (message: Message) => {
      if (message.ready) {
        resolveReady({
          run: (task) => {
            const prepared = new Promise<void>((resolve) => {
              onPrepared = resolve;
            });
            const result = new Promise<WorkerResult>((resolve, reject) => {
              settle = { resolve, reject };
              child.send(task);
            });
            return { prepared, result };
          },
          go: (startAt) => child.send({ go: startAt }),
        });
      } else if (message.prepared) onPrepared?.();
      else if (message.result) settle?.resolve(message.result);
      else if (message.error) settle?.reject(new Error(message.error));
    });
    child.once('exit', (code) => {
      const error = new Error(`worker exited with ${code}`);
      rejectReady(error);
      if (code !== 0) settle?.reject(error);
    });
  });
}

/** One row: a fresh server (a full bucket), its workers, its mid-run events. */
async function runRow(row: Row, redisUrl: string | undefined): Promise<RowRun> {
  const children = await Promise.all(Array.from({ length: row.processes }, () => spawnWorker()));
  const server = await startTokenBucketServer({ policies: { default: { q: QUOTA, w: WINDOW } }, jitter: 1 });
  // Every worker sets up first (its scheduler, its Redis connection); then all start together.
  const runs = children.map((child, i) => {
    const stop = row.stops?.[i];
    return child.run({
      strategy: row.strategy,
      url: server.url,
      secret: 'bench-organization',
      callers: CALLERS,
      startAt: 0,
      endAt: row.seconds * 1000,
      ...(stop !== undefined ? { stopAt: stop * 1000 } : {}),
      quota: QUOTA,
      windowSeconds: WINDOW,
      ...(row.paths ? { paths: row.paths } : {}),
      ...(row.cold ? { cold: true } : {}),
      ...(row.redis && redisUrl ? { redisUrl } : {}),
    });
  });
  await Promise.all(runs.map((r) => r.prepared));
  const startAt = Date.now() + 100;
  for (const child of children) child.go(startAt);
  const timers = (row.events ?? []).map((e) =>
    setTimeout(() => e.apply(server.api), startAt - Date.now() + e.at * 1000),
  );
  if (process.env.BENCH_DEBUG) {
    // The server's side every 500 ms: balance of `default` and successes in the half second.
    let okBefore = 0;
    const trace = setInterval(() => {
      const balance = server.api.peek('bench-organization', 'default');
      const ok = server.api.counts.ok;
      console.log(
        ` server +${((Date.now() - startAt) / 1000).toFixed(1)}s r=${balance?.toFixed(1)} ok+${ok - okBefore}`,
      );
      okBefore = ok;
    }, 500);
    timers.push(trace);
  }
  try {
    const results = await Promise.all(runs.map((r) => r.result));
    return { row, results, serverLimited: server.api.counts.limited };
  } finally {
    for (const t of timers) clearTimeout(t);
    await server.close();
  }
}

async function main(): Promise<void> {
  const selected = skip.has('rows') ? [] : rows(seconds).filter((r) => !only || r.name.includes(only));
  const redis = selected.some((r) => r.redis) ? await startRedisServer() : undefined;
  let failed = false;
  try {
    console.log(
      `ratelimit bench: q=${QUOTA}, w=${WINDOW}s, ${seconds}s steady rows, ${CALLERS} callers per process, ` +
        'the bench token-bucket server (bench/token-bucket-api.ts, Retry-After jitter up to 1 s), rows one after another',
    );
    const table = [];
    for (const row of selected) {
      const run = await runRow(row, redis?.url);
      const verdict = row.judge?.(run);
      if (verdict && !verdict.pass) failed = true;
      const counts = run.results.map((r) => r.ok).join(' / ');
      table.push({
        scenario: row.name,
        'successes per process': counts,
        '429s': run.serverLimited,
        ...verdict?.figures,
        target: verdict?.target ?? '',
        pass: verdict ? (verdict.pass ? 'yes' : 'NO') : '',
      });
      console.log(JSON.stringify(table.at(-1)));
      if (process.env.BENCH_DEBUG)
        for (const r of run.results)
          console.log(' ok/s', r.okPerSecond.join(' '), ' 429/s', r.limitedPerSecond.join(' '));
    }
    if (table.length > 0) console.table(table);
    if (!skip.has('sim') && !only) {
      const { simulatedRows } = await import('./sim-rows.ts');
      console.log('\nThe same rows on a virtual clock (bench/sim.ts; seeds 1–3, worst – best):');
      console.table(await simulatedRows());
    }
    if (!skip.has('overhead') && !only) {
      // In a process of its own, on the built packages (overhead-built.ts).
      const o = await overheadInItsOwnProcess();
      const pass = o.ratio <= 1.5;
      if (!pass) failed = true;
      console.table([
        {
          measure: 'scheduler per request ÷ bare openapi-fetch (in-process sandbox)',
          ratio: o.ratio.toFixed(3),
          IQR: `${o.iqr[0].toFixed(3)}–${o.iqr[1].toFixed(3)}`,
          'bare µs': o.bareUs.toFixed(1),
          'scheduled µs': o.scheduledUs.toFixed(1),
          target: '≤1.5×',
          pass: pass ? 'yes' : 'NO',
        },
      ]);
    }
    if (!skip.has('memory') && !only) {
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

/** overhead-built.ts's result: the scheduler's cost per request, measured in a child process. */
function overheadInItsOwnProcess(): Promise<
  Awaited<ReturnType<typeof import('./overhead.ts').overheadBench>>
> {
  return new Promise((resolve, reject) => {
    execFile(
      'npx',
      ['tsx', fileURLToPath(new URL('./overhead-built.ts', import.meta.url))],
      { maxBuffer: 1 << 20 },
      (error, stdout) => {
        if (error) reject(error);
        else resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? ''));
      },
    );
  });
}
