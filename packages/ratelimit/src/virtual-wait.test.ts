import { describe, expect, it } from 'vitest';
import { createTokenBucketApi } from '../bench/token-bucket-api.ts';
import { virtualClock } from '../test/helpers.ts';
import { createScheduler } from './scheduler.ts';

const headers = { 'x-service-secret-key': 'sk_test_virtual_wait' };

describe('waiting on a virtual clock while answers take real time', () => {
  it('waits for the answer that frees a token instead of sleeping again and again', async () => {
    const base = virtualClock();
    let sleeps = 0;
    const clock = {
      now: base.now,
      sleep(ms: number, signal?: AbortSignal) {
        // A loop of virtual sleeps never yields to the event loop: fail it rather than hang the suite.
        if (++sleeps > 1000) return Promise.reject(new Error('more than 1000 sleeps'));
        return base.sleep(ms, signal);
      },
    };
    const api = createTokenBucketApi({ policies: { default: { q: 1, w: 1 } }, now: clock.now });
    const scheduler = createScheduler({
      clock,
      concurrency: 2,
      // Each answer takes 5 ms of real time, as a latency fault or a real network does.
      fetch: (request: Request) => new Promise((r) => setTimeout(r, 5)).then(() => api.fetch(request)),
    });
    const results = await Promise.all(
      Array.from({ length: 4 }, () => scheduler.fetch('https://api.example/v2/orders', { headers })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(sleeps).toBeLessThanOrEqual(4 * 3);
  });

  it('a 429 retried while another request waits for the store keeps its place (no lost request)', async () => {
    const clock = virtualClock();
    let first = true;
    const scheduler = createScheduler({
      clock,
      concurrency: 2,
      fetch: async () => {
        if (first) {
          first = false;
          return new Response('{}', { status: 429, headers: { 'retry-after': '1' } });
        }
        return new Response('{}', { status: 200 });
      },
    });
    const results = await Promise.all(
      Array.from({ length: 3 }, () => scheduler.fetch('https://api.example/v2/orders', { headers })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(scheduler.stats()).toMatchObject({ queued: 0, inflight: 0, retried: 1 });
  });
});
