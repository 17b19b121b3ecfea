/**
 * One bench process: `callers` concurrent callers hitting the server until `endAt` (or `stopAt`, when this
 * process leaves mid-run), with one of three strategies. Started by bench/index.ts through
 * child_process.fork; reports its counts over IPC.
 */
import Bottleneck from 'bottleneck';
import { createClient } from 'redis';
import { createScheduler } from '../src/index.ts';
import { RedisStore } from '../src/redis.ts';
import { WARM_UP_PATH } from './token-bucket-api.ts';

export type Strategy = 'scheduler' | 'naive' | 'bottleneck';

export interface WorkerTask {
  strategy: Strategy;
  url: string;
  secret: string;
  callers: number;
  /** Times (ms) relative to the shared start, which comes once every process is set up. */
  startAt: number;
  endAt: number;
  /** This process stops early (a process leaving mid-run). */
  stopAt?: number;
  quota: number;
  windowSeconds: number;
  redisUrl?: string;
  /** Paths below the base URL, one per caller in turn (default `/orders`). */
  paths?: string[];
  /** Start cold: no connections opened before the shared start (see `runWorker`). */
  cold?: boolean;
}

export interface WorkerResult {
  /** Every response this process saw, retried 429s included. */
  ok: number;
  limited: number;
  other: number;
  errors: number;
  /** Calls whose caller got something other than a 200 (a 429 handed back, an error). */
  lost: number;
  /** Successes and 429s per second since `startAt`. */
  okPerSecond: number[];
  limitedPerSecond: number[];
  /** Per path: successes of the callers and the longest call (ms). */
  paths: Record<string, { ok: number; maxMs: number; okPerSecond: number[] }>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

function counter(task: WorkerTask) {
  const result: WorkerResult = {
    ...{ ok: 0, limited: 0, other: 0, errors: 0, lost: 0 },
    ...{ okPerSecond: [], limitedPerSecond: [], paths: {} },
  };
  const second = () => Math.floor((Date.now() - task.startAt) / 1000);
  const bump = (xs: number[]) => {
    const s = second();
    if (s >= 0) xs[s] = (xs[s] ?? 0) + 1;
  };
  return {
    result,
    second,
    bump,
    /** Every response the server sends counts, including 429s the scheduler retried. */
    count(status: number): void {
      if (status === 200) {
        result.ok++;
        bump(result.okPerSecond);
      } else if (status === 429) {
        result.limited++;
        bump(result.limitedPerSecond);
      } else result.other++;
    },
  };
}

async function sender(
  task: WorkerTask,
  countingFetch: (input: Request) => Promise<Response>,
): Promise<{ send: (url: string, signal: AbortSignal) => Promise<Response>; close(): Promise<void> }> {
  const headers = { 'x-service-secret-key': task.secret };
  if (task.strategy === 'scheduler') {
    let redis: ReturnType<typeof createClient> | undefined;
    if (task.redisUrl) {
      redis = createClient({ url: task.redisUrl, disableOfflineQueue: true });
      redis.on('error', () => {});
      await redis.connect();
    }
    const scheduler = createScheduler({
      fetch: countingFetch,
      concurrency: task.callers,
      ...(redis ? { store: new RedisStore({ client: redis }) } : {}),
    });
    if (process.env.BENCH_DEBUG) {
      const timer = setInterval(async () => {
        const key = `sha256:${Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(task.secret))).toString('hex')}`;
        const d = (await scheduler.snapshot(key)).default;
        const st = scheduler.stats();
        const h = redis ? await redis.hGetAll(`pp:rl:{${key}}:b:default`) : {};
        const f = (k: string) => Number(h[k] ?? Number.NaN).toFixed(2);
        console.error(
          process.pid,
          'q',
          st.queued,
          'in',
          st.inflight,
          JSON.stringify(d),
          redis
            ? `level ${f('level')} others ${f('others')} unseen ${f('unseenRate')} rtt ${f('rttMs')} sampled ${h.sampled}`
            : '',
        );
      }, 1000);
      timer.unref();
    }
    return {
      send: (url, signal) => scheduler.fetch(url, { headers, signal }),
      close: async () => {
        await redis?.quit();
      },
    };
  }
  if (task.strategy === 'bottleneck') {
    const limiter = new Bottleneck({
      maxConcurrent: task.callers,
      minTime: Math.ceil((task.windowSeconds * 1000) / task.quota),
    });
    return {
      send: (url, signal) => limiter.schedule(() => countingFetch(new Request(url, { headers, signal }))),
      close: async () => {},
    };
  }
  return {
    send: (url, signal) => countingFetch(new Request(url, { headers, signal })),
    close: async () => {},
  };
}

/**
 * Runs a task. Its times are relative to a start that `start` gives once this process is set up (its
 * scheduler made, Redis connected): set-up time, which differs between processes, never eats into a run.
 */
export async function runWorker(
  task: WorkerTask,
  start: () => Promise<number> = async () => Date.now(),
): Promise<WorkerResult> {
  const c = counter(task);
  const { result } = c;
  let first = process.env.BENCH_DEBUG !== undefined;
  const trace = process.env.BENCH_TRACE !== undefined;
  const countingFetch = async (request: Request): Promise<Response> => {
    if (first) {
      first = false;
      console.error(process.pid, 'first request at', Date.now() - task.startAt, 'ms');
    }
    const sent = trace ? Date.now() - task.startAt : 0;
    const response = await fetch(request);
    c.count(response.status);
    if (trace && sent < 2500)
      console.error(
        'T',
        process.pid,
        sent,
        Date.now() - task.startAt,
        response.status,
        [...response.headers].find(([k]) => k.endsWith('ratelimit'))?.[1] ?? '',
      );
    return response;
  };
  const { send, close } = await sender(task, countingFetch);
  // Unless the row starts cold: open as many connections as there are callers, and run the fetch path once,
  // before the shared start. Started cold on 2 cores shared by 7 processes, some processes' first requests
  // reach the server 200–400 ms after the others' (connection set-up, compiling the HTTP stack), and the
  // others have drained the full bucket by then (the trace: docs/benchmarks-history.md#ratelimit, session 21).
  if (!task.cold)
    await Promise.all(
      Array.from({ length: task.callers }, () =>
        fetch(`${new URL(task.url).origin}${WARM_UP_PATH}`).then((r) => r.arrayBuffer()),
      ),
    );
  const at = await start();
  task.startAt += at;
  task.endAt += at;
  if (task.stopAt !== undefined) task.stopAt += at;
  const endAt = task.stopAt ?? task.endAt;
  const stop = new AbortController();
  const paths = task.paths ?? ['/orders'];

  async function caller(path: string): Promise<void> {
    result.paths[path] ??= { ok: 0, maxMs: 0, okPerSecond: [] };
    const stats = result.paths[path];
    while (Date.now() < endAt) {
      const t0 = Date.now();
      try {
        const response = await send(`${task.url}${path}`, stop.signal);
        await response.arrayBuffer();
        stats.maxMs = Math.max(stats.maxMs, Date.now() - t0);
        if (response.status === 200) {
          stats.ok++;
          c.bump(stats.okPerSecond);
        } else if (task.strategy === 'scheduler') result.lost++;
        if (task.strategy === 'naive' && response.status === 429) {
          const seconds = Number(response.headers.get('retry-after') ?? '1');
          await sleep(Math.min(seconds * 1000, endAt - Date.now()));
        }
      } catch {
        if (stop.signal.aborted) return;
        result.errors++;
        result.lost++;
      }
    }
  }

  await sleep(task.startAt - Date.now());
  const timer = setTimeout(() => stop.abort(), endAt - Date.now());
  await Promise.all(
    Array.from({ length: task.callers }, (_, i) => caller(paths[i % paths.length] ?? '/orders')),
  );
  clearTimeout(timer);
  stop.abort();
  // Let aborted requests settle with the store before the connection goes.
  await sleep(100);
  await close();
  return result;
}

if (process.send) {
  // Only our task: the tsx loader may use the IPC channel for its own messages.
  // The task, then (once this process said it is set up) the start time all processes share.
  let go: ((at: number) => void) | undefined;
  const onGo = (message: { go?: number }): void => {
    if (typeof message === 'object' && message !== null && typeof message.go === 'number') {
      process.off('message', onGo);
      go?.(message.go);
    }
  };
  const start = (): Promise<number> =>
    new Promise((resolve) => {
      go = resolve;
      process.on('message', onGo);
      process.send?.({ prepared: true });
    });
  const onMessage = (task: WorkerTask): void => {
    if (typeof task !== 'object' || task === null || !('strategy' in task)) return;
    process.off('message', onMessage);
    runWorker(task, start).then(
      (result) => process.send?.({ result }, () => process.exit(0)),
      (error: unknown) =>
        process.send?.({ error: String(error instanceof Error ? error.stack : error) }, () =>
          process.exit(1),
        ),
    );
  };
  process.on('message', onMessage);
  process.send({ ready: true });
}
