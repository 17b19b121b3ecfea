import type { Clock } from '@partner-print/openapi/wire';
import { createSandbox } from '@partner-print/sandbox';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/index.ts';

/**
 * The clock a test passes, counting sleeps. A loop of sleeps on a virtual clock moves time as fast as the
 * program runs and never ends by itself: past `limit` sleeps, sleeping fails instead.
 */
export function countingClock(clock: Clock, limit = 10_000) {
  const counted = {
    sleeps: 0,
    now: () => clock.now(),
    sleep(ms: number, signal?: AbortSignal) {
      if (++counted.sleeps > limit) return Promise.reject(new Error(`more than ${limit} sleeps`));
      return clock.sleep(ms, signal);
    },
  };
  return counted;
}

/** Whether a real timer fires while `work` runs (a loop of promise reactions would starve it). */
async function timersFire<T>(work: Promise<T>): Promise<{ result: T; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  let hung: ReturnType<typeof setTimeout> | undefined;
  try {
    const result = await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        hung = setTimeout(() => reject(new Error('not settled after 5 s of real time')), 5_000);
      }),
    ]);
    await new Promise((r) => setTimeout(r, 12));
    return { result, ticks };
  } finally {
    clearTimeout(hung);
    clearInterval(timer);
  }
}

describe('on the sandbox’s virtual clock', () => {
  it('settles 5 concurrent calls under a small quota and real latency (no loop of sleeps)', async () => {
    const sandbox = createSandbox({ jitter: 0, rateLimits: { default: { q: 3, w: 1 } } });
    const clock = countingClock(sandbox.clock);
    const client = createClient({
      secretKey: sandbox.keys.primary,
      baseUrl: sandbox.baseUrl,
      fetch: (request) => sandbox.fetch(request),
      clock,
    });
    sandbox.control.injectFault({ path: '/claimcategories', kind: 'latency', latencyMs: 40 });
    const { result, ticks } = await timersFire(
      Promise.allSettled(Array.from({ length: 5 }, () => client.get('/claimcategories'))),
    );
    expect(result.map((r) => r.status)).toEqual(Array(5).fill('fulfilled'));
    expect(clock.sleeps).toBeLessThanOrEqual(5 * 4);
    expect(ticks).toBeGreaterThan(0);
  });
});

interface Scenario {
  q: number;
  w: number;
  concurrency: number;
  calls: number;
  latencyMs: number | undefined;
  faultCount: number | undefined;
}

/** `calls` concurrent reads under a quota of q per w seconds, the first ones slowed by a latency fault. */
async function everyCallSettles({ q, w, concurrency, calls, latencyMs, faultCount }: Scenario) {
  const sandbox = createSandbox({ jitter: 0, rateLimits: { default: { q, w } } });
  const clock = countingClock(sandbox.clock, 2_000);
  const client = createClient({
    secretKey: sandbox.keys.primary,
    baseUrl: sandbox.baseUrl,
    fetch: (request) => sandbox.fetch(request),
    clock,
    rateLimit: { concurrency },
  });
  if (latencyMs !== undefined)
    sandbox.control.injectFault({
      path: '/claimcategories',
      kind: 'latency',
      latencyMs,
      ...(faultCount !== undefined && { count: faultCount }),
    });
  const { result, ticks } = await timersFire(
    Promise.allSettled(Array.from({ length: calls }, () => client.get('/claimcategories'))),
  );
  expect(result.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(
    Array(calls).fill('ok'),
  );
  // Waits for tokens as the estimate of the bucket moves (each ends at a token, or a step of its
  // refill) and retry waits: a few per request, never a loop.
  expect(clock.sleeps).toBeLessThanOrEqual(8 * calls);
  expect(ticks).toBeGreaterThan(0);
}

describe('property: on the virtual clock every call settles, in few sleeps', () => {
  // fast-check seed 166476501 in a clean-clone CI run: when every sleep moved the one shared clock at once,
  // concurrent 1 s retry waits added up, the 1 ms latency ended seconds of virtual time later and a retry
  // lost the last token of the window twice.
  it('the counterexample of seed 166476501: 8 calls, 4 at a time, 4 per 3 s, 4 latency faults of 1 ms', async () => {
    await everyCallSettles({ q: 4, w: 3, concurrency: 4, calls: 8, latencyMs: 1, faultCount: 4 });
  });

  it('over random quotas, concurrency, calls and latency faults', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          q: fc.integer({ min: 1, max: 6 }),
          w: fc.integer({ min: 1, max: 3 }),
          concurrency: fc.integer({ min: 1, max: 8 }),
          calls: fc.integer({ min: 1, max: 14 }),
          latencyMs: fc.option(fc.integer({ min: 1, max: 25 }), { nil: undefined }),
          faultCount: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
        }),
        everyCallSettles,
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
