import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from '@partner-print/openapi/wire';
import { describe, expect, it } from 'vitest';
import { createTokenBucketApi } from '../bench/token-bucket-api.ts';
import { virtualClock } from '../test/helpers.ts';
import { createScheduler } from './scheduler.ts';

const storage = new AsyncLocalStorage<number>();
const headers = { 'x-service-secret-key': 'sk_test_context' };

/**
 * A 1-request-per-second API behind a scheduler, recording the context each request is sent in;
 * `throttled`'s first try gets a 429 without rate-limit fields.
 */
function oneBySecond(clock: Clock, throttled?: number) {
  const api = createTokenBucketApi({ policies: { default: { q: 1, w: 1 } }, now: clock.now });
  const seen: Array<[number | undefined, number]> = [];
  let throttle = throttled !== undefined;
  const scheduler = createScheduler({
    clock,
    fetch: (request: Request) => {
      const n = Number(new URL(request.url).searchParams.get('n'));
      seen.push([storage.getStore(), n]);
      if (n === throttled && throttle) {
        throttle = false;
        return Promise.resolve(new Response('{}', { status: 429, headers: { 'retry-after': '1' } }));
      }
      return api.fetch(request);
    },
  });
  const send = (n: number, signal?: AbortSignal) =>
    storage.run(n, () => scheduler.fetch(`https://api.example/v2/orders?n=${n}`, { headers, signal }));
  return { seen, send };
}

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
    const { seen, send } = oneBySecond(virtualClock(), 2);
    // One at a time: each is queued with nothing else queued or pumping, so it goes through the pump its own
    // call starts; the second finds the bucket empty and waits for the clock, the third is retried.
    for (let n = 0; n < 4; n++) expect((await send(n)).status).toBe(200);
    expect(seen.map(([, n]) => n)).toEqual([0, 1, 2, 2, 3]);
    for (const [context, n] of seen) expect(context).toBe(n);
  });

  // A clock whose sleeps never end: the scheduler's own timer never wakes it, so the only pump that can
  // admit a waiting request is the one a later caller's call starts — in that later caller's context.
  function stoppedClock() {
    let now = Date.parse('2026-11-16T09:00:00Z');
    return {
      now: () => now,
      pass(ms: number) {
        now += ms;
      },
      sleep: (_ms: number, signal?: AbortSignal) =>
        new Promise<void>((_, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    };
  }

  /**
   * Request 1 goes at once and is left waiting (`sentBefore` requests sent so far); once time has passed,
   * request 2 — queued behind it — starts the only pump there is, which must send request 1 in request 1's
   * own context. Request 2 itself is aborted after.
   */
  async function sentByALaterPump(throttled: number | undefined, passFirst: number, sentBefore: number) {
    const clock = stoppedClock();
    const { seen, send } = oneBySecond(clock, throttled);
    expect((await send(0)).status).toBe(200); // teaches the scheduler the 1-per-second policy
    clock.pass(passFirst);
    const first = send(1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toHaveLength(sentBefore);
    clock.pass(1_500);
    const stop = new AbortController();
    const second = send(2, stop.signal);
    expect((await first).status).toBe(200);
    stop.abort(new Error('done'));
    await expect(second).rejects.toThrow('done');
    return seen;
  }

  it('a request that went at once but found the bucket empty is sent in its own context by a later caller’s pump', async () => {
    // Nothing ahead of request 1: it goes at once and finds the bucket empty.
    expect(await sentByALaterPump(undefined, 0, 1)).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('a request retried after a 429 is sent again in its own context by a later caller’s pump', async () => {
    // Request 1 goes at once, gets a 429 and waits out its pause at the front of its lane.
    expect(await sentByALaterPump(1, 1_500, 2)).toEqual([
      [0, 0],
      [1, 1],
      [1, 1],
    ]);
  });
});
