/**
 * One bench process: 8 (or `callers`) concurrent callers hammering one route until `endAt`, with one of
 * three strategies. Started by bench/index.ts through child_process.fork; reports counts over IPC.
 */
import Bottleneck from 'bottleneck';
import { createClient } from 'redis';
import { createScheduler } from '../src/index.ts';
import { RedisStore } from '../src/redis.ts';

export type Strategy = 'scheduler' | 'naive' | 'bottleneck';

export interface WorkerTask {
  strategy: Strategy;
  url: string;
  secret: string;
  callers: number;
  startAt: number;
  endAt: number;
  quota: number;
  windowSeconds: number;
  redisUrl?: string;
}

export interface WorkerResult {
  ok: number;
  limited: number;
  other: number;
  errors: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export async function runWorker(task: WorkerTask): Promise<WorkerResult> {
  const result: WorkerResult = { ok: 0, limited: 0, other: 0, errors: 0 };
  const headers = { 'x-service-secret-key': task.secret };
  const target = `${task.url}/orders`;
  const stop = new AbortController();
  let redis: ReturnType<typeof createClient> | undefined;
  let send: (signal: AbortSignal) => Promise<Response>;
  // Every response the server sends counts, including 429s the scheduler retried.
  const count = (status: number): void => {
    if (status === 200) result.ok++;
    else if (status === 429) result.limited++;
    else result.other++;
  };
  const countingFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    count(response.status);
    return response;
  };

  if (task.strategy === 'scheduler') {
    let store: RedisStore | undefined;
    if (task.redisUrl) {
      redis = createClient({ url: task.redisUrl });
      await redis.connect();
      store = new RedisStore({ client: redis });
    }
    const scheduler = createScheduler({
      fetch: countingFetch,
      concurrency: task.callers,
      ...(store ? { store } : {}),
    });
    send = (signal) => scheduler.fetch(target, { headers, signal });
    if (process.env.BENCH_DEBUG) {
      const debugKey = `sha256:${Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(task.secret))).toString('hex')}`;
      const debug = setInterval(async () => {
        console.error(process.pid, JSON.stringify(await scheduler.snapshot(debugKey)));
      }, 1000);
      debug.unref();
    }
  } else if (task.strategy === 'bottleneck') {
    const limiter = new Bottleneck({
      maxConcurrent: task.callers,
      minTime: Math.ceil((task.windowSeconds * 1000) / task.quota),
    });
    send = (signal) => limiter.schedule(() => countingFetch(target, { headers, signal }));
  } else {
    send = (signal) => countingFetch(target, { headers, signal });
  }

  async function caller(): Promise<void> {
    while (Date.now() < task.endAt) {
      try {
        const response = await send(stop.signal);
        await response.arrayBuffer();
        if (task.strategy === 'naive' && response.status === 429) {
          const seconds = Number(response.headers.get('retry-after') ?? '1');
          await sleep(Math.min(seconds * 1000, task.endAt - Date.now()));
        }
      } catch {
        if (stop.signal.aborted) return;
        result.errors++;
      }
    }
  }

  await sleep(task.startAt - Date.now());
  const timer = setTimeout(() => stop.abort(), task.endAt - Date.now());
  await Promise.all(Array.from({ length: task.callers }, caller));
  clearTimeout(timer);
  stop.abort();
  // Let aborted requests settle with the store before the connection goes.
  await sleep(100);
  await redis?.quit();
  return result;
}

if (process.send) {
  // Only our task: the tsx loader may use the IPC channel for its own messages.
  const onMessage = (task: WorkerTask): void => {
    if (typeof task !== 'object' || task === null || !('strategy' in task)) return;
    process.off('message', onMessage);
    runWorker(task).then(
      (result) => process.send?.({ result }, () => process.exit(0)),
      (error: unknown) =>
        process.send?.({ error: String((error as Error)?.stack ?? error) }, () => process.exit(1)),
    );
  };
  process.on('message', onMessage);
  process.send({ ready: true });
}
