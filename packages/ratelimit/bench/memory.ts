/** The queue's own cost: heap and time per request with 100,000 queued requests. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createScheduler } from '../src/index.ts';

export async function memoryBench(): Promise<{
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
