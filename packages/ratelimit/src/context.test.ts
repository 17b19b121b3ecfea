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
});
