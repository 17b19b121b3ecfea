import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { createTokenBucketApi } from '../bench/token-bucket-api.ts';
import { virtualClock } from '../test/helpers.ts';
import { createScheduler } from './scheduler.ts';

const storage = new AsyncLocalStorage<number>();
const headers = { 'x-service-secret-key': 'sk_test_context' };

describe('the scheduler and the caller’s async context', () => {
  it('sends every queued request, first try and retries, in the context of its caller', async () => {
    const clock = virtualClock();
    const api = createTokenBucketApi({ policies: { default: { q: 2, w: 2 } }, now: clock.now });
    const seen: Array<[number | undefined, number]> = [];
    const throttled = new Set<number>();
    const scheduler = createScheduler({
      clock,
      concurrency: 2,
      fetch: (request: Request) => {
        const n = Number(new URL(request.url).searchParams.get('n'));
        seen.push([storage.getStore(), n]);
        // Each odd request's first try gets a 429 without rate-limit fields: the scheduler retries it.
        if (n % 2 === 1 && !throttled.has(n)) {
          throttled.add(n);
          return Promise.resolve(new Response('{}', { status: 429, headers: { 'retry-after': '1' } }));
        }
        return api.fetch(request);
      },
    });
    const admitted: Array<number | undefined> = [];
    scheduler.on('admitted', () => admitted.push(storage.getStore()));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        storage.run(n, () => scheduler.fetch(`https://api.example/v2/orders?n=${n}`, { headers })),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(seen.length).toBe(8 + 4 + api.counts.limited);
    for (const [context, n] of seen) expect(context).toBe(n);
    expect(admitted.every((n) => n !== undefined)).toBe(true);
  });

  it('keeps the context of a request that went at once and then had to wait (empty bucket, 429 retry)', async () => {
    const clock = virtualClock();
    const api = createTokenBucketApi({ policies: { default: { q: 1, w: 1 } }, now: clock.now });
    const seen: Array<[number | undefined, number]> = [];
    let throttle = true;
    const scheduler = createScheduler({
      clock,
      fetch: (request: Request) => {
        const n = Number(new URL(request.url).searchParams.get('n'));
        seen.push([storage.getStore(), n]);
        if (n === 2 && throttle) {
          throttle = false;
          return Promise.resolve(new Response('{}', { status: 429, headers: { 'retry-after': '1' } }));
        }
        return api.fetch(request);
      },
    });
    // One at a time: each is queued with nothing else queued or pumping, so it goes through the pump its own
    // call starts; the second finds the bucket empty and waits for the clock, the third is retried.
    for (let n = 0; n < 4; n++) {
      const response = await storage.run(n, () =>
        scheduler.fetch(`https://api.example/v2/orders?n=${n}`, { headers }),
      );
      expect(response.status).toBe(200);
    }
    expect(seen.map(([, n]) => n)).toEqual([0, 1, 2, 2, 3]);
    for (const [context, n] of seen) expect(context).toBe(n);
  });
});
