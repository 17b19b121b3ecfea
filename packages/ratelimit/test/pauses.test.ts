import { describe, expect, it } from 'vitest';
import { timeWithoutStalls } from '../../../test-utils/stall.ts';
import { seeded, simClock } from '../bench/sim.ts';
import { createTokenBucketApi } from '../bench/token-bucket-api.ts';
import {
  createScheduler,
  isRateLimitPaused,
  MemoryStore,
  type RateLimitPausedError,
  type SchedulerEvents,
} from '../src/index.ts';
import type { BucketRequest, TakeResult } from '../src/store.ts';

const BASE = 'https://api.example/v2';
const headers = { 'x-service-secret-key': 'sk_test_pauses' };
const WEEK = '604800';
const ok = () =>
  new Response('{}', {
    headers: { 'x-ratelimit-policy': '"default";q=100;w=10', 'x-ratelimit': '"default";r=50;t=0' },
  });

function recorder(clock: { now(): number }) {
  const calls: { at: number; route: string }[] = [];
  return {
    calls,
    note(request: Request) {
      calls.push({ at: clock.now(), route: `${request.method} ${new URL(request.url).pathname}` });
    },
  };
}

// The uploads bucket reported empty with an hour to go: a pause of an hour on it (at most an hour).
const emptyUploads = () =>
  new Response('{"code":"rate_limited"}', {
    status: 429,
    headers: {
      'retry-after': '3600',
      'x-ratelimit-policy': '"default";q=100;w=10, "uploads";q=5;w=86400',
      'x-ratelimit': '"default";r=50;t=0, "uploads";r=0;t=3600',
    },
  });
/** A server whose first upload's answer empties the uploads bucket for an hour; every other answer is a 200. */
const uploadsEmptiedOnce = () => {
  const clock = simClock();
  const { calls, note } = recorder(clock);
  let first = true;
  const fetch = async (request: Request): Promise<Response> => {
    note(request);
    if (first && request.method === 'POST') {
      first = false;
      return emptyUploads();
    }
    return ok();
  };
  return { clock, calls, fetch };
};

describe('a 429 pauses only what it is about', () => {
  it('a rendertoken 429 with a week of Retry-After and no rate-limit fields pauses nothing', async () => {
    const clock = simClock();
    const { calls, note } = recorder(clock);
    const fetch = async (request: Request): Promise<Response> => {
      note(request);
      if (request.method === 'POST')
        return new Response('{"code":"rendertoken_limit_exceeded","message":"no tokens"}', {
          status: 429,
          headers: { 'retry-after': WEEK, 'content-type': 'application/json' },
        });
      return ok();
    };
    const scheduler = createScheduler({ fetch, clock, key: 'org' });
    const throttled: SchedulerEvents['throttled'][] = [];
    scheduler.on('throttled', (e) => throttled.push(e));
    const t0 = clock.now();
    const render = () => scheduler.fetch(`${BASE}/renders`, { method: 'POST', headers, body: '{}' });
    // Fails fast: the caller gets the 429 (and its Retry-After) at once, not after a week.
    const first = await render();
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe(WEEK);
    // Other routes go on at once…
    expect((await scheduler.fetch(`${BASE}/orders`, { headers })).status).toBe(200);
    // …and so does the next render request (a cheaper composition may still fit): nothing waits.
    expect((await render()).status).toBe(429);
    expect(calls.map((c) => [c.at - t0, c.route])).toEqual([
      [0, 'POST /v2/renders'],
      [0, 'GET /v2/orders'],
      [0, 'POST /v2/renders'],
    ]);
    expect(throttled.map((e) => [e.scope, e.pauseMs])).toEqual([
      ['none', 0],
      ['none', 0],
    ]);
    expect(scheduler.stats().retried).toBe(0);
  });

  it('a 429 without rate-limit fields pauses only its route, bounded and backed off', async () => {
    const clock = simClock();
    const { calls, note } = recorder(clock);
    const fetch = async (request: Request): Promise<Response> => {
      note(request);
      if (request.url.includes('/orders/'))
        return new Response('busy', { status: 429, headers: { 'retry-after': WEEK } });
      return ok();
    };
    const scheduler = createScheduler({ fetch, clock, key: 'org' });
    const t0 = clock.now();
    const order = (n: number) => scheduler.fetch(`${BASE}/orders/Order_${n}`, { headers });
    const claims = () => scheduler.fetch(`${BASE}/claims`, { headers });
    const results = [order(1), order(2), order(3), claims(), claims()];
    await clock.runUntil(t0 + 10_000);
    const statuses = await Promise.all(results.map((p) => p.then((r) => r.status)));
    // A week is beyond maxRetryAfterMs: each order request is handed back, none waits a week.
    expect(statuses).toEqual([429, 429, 429, 200, 200]);
    const at = (route: string) => calls.filter((c) => c.route.startsWith(route)).map((c) => c.at - t0);
    // Other routes: at once, while the orders route waits 1 s, then 2 s.
    expect(at('GET /v2/claims')).toEqual([0, 0]);
    expect(at('GET /v2/orders')).toEqual([0, 1000, 3000]);
  });

  it('a queued request leaves at once when its signal aborts (its deadline), with the reason', async () => {
    // The uploads bucket is empty for an hour after the first upload.
    const { clock, calls, fetch } = uploadsEmptiedOnce();
    const scheduler = createScheduler({ fetch, clock, key: 'org' });
    const t0 = clock.now();
    const upload = (signal?: AbortSignal) =>
      scheduler.fetch(`${BASE}/images`, {
        method: 'POST',
        headers,
        body: 'x',
        ...(signal ? { signal } : {}),
      });
    expect((await upload()).status).toBe(429);
    const deadline = new AbortController();
    const reason = new DOMException('The operation timed out.', 'TimeoutError');
    void clock.sleep(500).then(() => deadline.abort(reason));
    const waiting = upload(deadline.signal);
    const settled = waiting.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    const order = scheduler.fetch(`${BASE}/orders`, { headers });
    await clock.runUntil(t0 + 500);
    expect(await settled).toBe(reason);
    expect(clock.now() - t0).toBe(500);
    // Never blocked: a default-only request went at once.
    expect((await order).status).toBe(200);
    expect(calls.map((c) => [c.at - t0, c.route])).toEqual([
      [0, 'POST /v2/images'],
      [0, 'GET /v2/orders'],
    ]);
    expect(scheduler.stats()).toMatchObject({ queued: 0, aborted: 1 });
  });

  it('an aborted signal while a throttled request waits for its retry rejects with the reason', async () => {
    const clock = simClock();
    const fetch = async (): Promise<Response> =>
      new Response('{"code":"rate_limited"}', {
        status: 429,
        headers: { 'retry-after': '30', 'x-ratelimit': '"default";r=0;t=30' },
      });
    const scheduler = createScheduler({ fetch, clock, key: 'org' });
    const controller = new AbortController();
    const waiting = scheduler.fetch(`${BASE}/orders`, { headers, signal: controller.signal }).catch((e) => e);
    await clock.runUntil(clock.now() + 1000);
    expect(scheduler.stats()).toMatchObject({ queued: 1, retried: 1 });
    controller.abort(new Error('deadline'));
    expect(await waiting).toEqual(new Error('deadline'));
  });
});

describe('never a hot loop', { timeout: 60_000 }, () => {
  for (const retryAfter of ['0', undefined, 'soon']) {
    it(`Retry-After ${retryAfter ?? 'missing'}: backoff with jitter from 250 ms, no request lost in a 3 s storm`, async () => {
      const clock = simClock();
      const api = createTokenBucketApi({ policies: { default: { q: 120, w: 6 } }, now: clock.now });
      const t0 = clock.now();
      const storm = { from: t0 + 2000, to: t0 + 5000 };
      const limited: number[] = [];
      const fetch = async (request: Request): Promise<Response> => {
        await clock.sleep(2);
        const now = clock.now();
        if (now >= storm.from && now < storm.to) {
          limited.push(now);
          const h = new Headers({
            'x-ratelimit-policy': '"default";q=120;w=6',
            'x-ratelimit': '"default";r=0;t=0',
          });
          if (retryAfter !== undefined) h.set('retry-after', retryAfter);
          return new Response('{"code":"rate_limited"}', { status: 429, headers: h });
        }
        return api.handle(request);
      };
      const scheduler = createScheduler({ fetch, clock, key: 'org', concurrency: 8, random: seeded(7) });
      const delays: number[] = [];
      scheduler.on('retried', (e) => delays.push(e.delayMs));
      const statuses: number[] = [];
      const caller = async () => {
        while (clock.now() < t0 + 12_000) {
          const response = await scheduler.fetch(`${BASE}/orders`, { headers });
          statuses.push(response.status);
        }
      };
      const callers = Array.from({ length: 8 }, caller);
      await clock.runUntil(t0 + 20_000);
      await Promise.all(callers);
      // No request lost: every caller got a 200 each time.
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      // At most 2 429s per second over the storm (3 s), the first in-flight ones included.
      expect(limited.length).toBeLessThanOrEqual(6);
      expect(limited.length).toBeGreaterThan(1);
      expect(Math.min(...delays)).toBeGreaterThanOrEqual(250);
    });
  }

  it('backs off exponentially with full jitter over the upper half: 250–500, 500–1000, 1000–2000 ms', async () => {
    const clock = simClock();
    const attempts: number[] = [];
    const fetch = async (): Promise<Response> => {
      attempts.push(clock.now());
      return attempts.length < 5
        ? new Response('{}', {
            status: 429,
            headers: { 'retry-after': '0', 'x-ratelimit': '"default";r=0;t=0' },
          })
        : ok();
    };
    const scheduler = createScheduler({ fetch, clock, key: 'org', random: seeded(3) });
    const result = scheduler.fetch(`${BASE}/orders`, { headers });
    await clock.runUntil(clock.now() + 60_000);
    expect((await result).status).toBe(200);
    const gaps = attempts.slice(1).map((t, i) => t - (attempts[i] ?? 0));
    expect(gaps).toHaveLength(4);
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(250 * 2 ** i);
      expect(gap).toBeLessThanOrEqual(500 * 2 ** i + 1);
    });
  });
});

describe('deadlines under a scheduler instance', () => {
  it('AbortSignal.timeout ends a call to a server that never answers, even if the fetch ignores the signal', async () => {
    const never = (): Promise<Response> => new Promise(() => {});
    const scheduler = createScheduler({ fetch: never, key: 'org', concurrency: 1 });
    // Timed without the process's stalls (test-utils/stall.ts): a starved test is not a missed deadline.
    const { result: reasons, ms } = await timeWithoutStalls(() => {
      const inFlight = scheduler.fetch(`${BASE}/orders`, { headers, signal: AbortSignal.timeout(100) });
      // Queued behind it (concurrency 1), with a deadline of its own, via AbortSignal.any.
      const queued = scheduler.fetch(`${BASE}/orders`, {
        headers,
        signal: AbortSignal.any([new AbortController().signal, AbortSignal.timeout(150)]),
      });
      return Promise.all([inFlight.catch((e: unknown) => e), queued.catch((e: unknown) => e)]);
    });
    for (const reason of reasons) {
      expect(reason).toBeInstanceOf(DOMException);
      expect((reason as DOMException).name).toBe('TimeoutError');
    }
    expect(ms).toBeLessThan(2000);
    expect(scheduler.stats()).toMatchObject({ queued: 0, inflight: 0 });
  });
});

describe('maxPauseMs: a pause a request would not wait out', () => {
  const outcome = (p: Promise<Response>) =>
    p.then(
      (r) => r.status,
      (e: unknown) => e,
    );

  it('refuses at once, unsent, a request queued behind a pause that outlasts its maxPauseMs; the others wait', async () => {
    const { clock, calls, fetch } = uploadsEmptiedOnce();
    const scheduler = createScheduler({ fetch, clock, key: 'org' });
    const t0 = clock.now();
    const upload = (maxPauseMs?: number) =>
      outcome(
        scheduler.fetch(`${BASE}/images`, {
          method: 'POST',
          headers,
          body: 'x',
          ...(maxPauseMs === undefined ? {} : { rateLimit: { maxPauseMs } }),
        }),
      );
    // Queued while the first request, the buckets' probe, is on its way: the 429 pauses them for an hour.
    const probe = upload();
    const patient = upload();
    const minute = upload(60_000);
    const twoHours = upload(7_200_000);
    expect(await probe).toBe(429);
    const refused = await minute;
    expect(isRateLimitPaused(refused)).toBe(true);
    expect(refused).toMatchObject({
      name: 'RateLimitPausedError',
      code: 'rate_limit_paused',
      scope: 'buckets',
      route: 'POST /images',
      retryAfterMs: 3_600_000,
    });
    expect((refused as Error).message).toBe(
      'POST /images: not sent, its buckets paused after a 429 for another 3600 s, past its maxPauseMs',
    );
    // One queued later is refused as it is queued; one given no maxPauseMs waits, as before.
    await clock.runUntil(t0 + 1_000);
    const late = upload(1_000);
    expect(isRateLimitPaused(await late)).toBe(true);
    expect(((await late) as RateLimitPausedError).retryAfterMs).toBe(3_599_000);
    expect(scheduler.stats()).toMatchObject({ queued: 2, refused: 2 });
    expect(calls).toHaveLength(1);
    // Other buckets' requests were never held.
    expect((await scheduler.fetch(`${BASE}/orders`, { headers })).status).toBe(200);
    await clock.runUntil(t0 + 3_600_000 + 60_000);
    expect([await patient, await twoHours]).toEqual([200, 200]);
    expect(calls.map((c) => c.route)).toEqual([
      'POST /v2/images',
      'GET /v2/orders',
      'POST /v2/images',
      'POST /v2/images',
    ]);
    // Both went once the pause was over, not before.
    expect(calls[2]!.at - t0).toBeGreaterThanOrEqual(3_600_000);
  });

  it('a request sent at once into a pause it would not wait out (its lane idle) is refused at its take', async () => {
    const { clock, calls, fetch } = uploadsEmptiedOnce();
    const scheduler = createScheduler({ fetch, clock, key: 'org', maxPauseMs: 30_000 });
    const upload = () => outcome(scheduler.fetch(`${BASE}/images`, { method: 'POST', headers, body: 'x' }));
    expect(await upload()).toBe(429);
    // An answer of another route unblocks every lane: the next upload asks the store, which answers the pause.
    expect((await scheduler.fetch(`${BASE}/orders`, { headers })).status).toBe(200);
    const refused = await upload();
    expect(isRateLimitPaused(refused)).toBe(true);
    expect(refused).toMatchObject({ scope: 'buckets' });
    expect(calls).toHaveLength(2);
    expect(scheduler.stats()).toMatchObject({ queued: 0, refused: 1 });
  });

  it("a route's pause (a 429 without rate-limit fields) refuses the requests of its route past their maxPauseMs", async () => {
    const clock = simClock();
    const { calls, note } = recorder(clock);
    const fetch = async (request: Request): Promise<Response> => {
      note(request);
      if (calls.length === 1) return new Response('busy', { status: 429, headers: { 'retry-after': '1' } });
      return ok();
    };
    const scheduler = createScheduler({ fetch, clock, key: 'org', maxRetries: 0 });
    const t0 = clock.now();
    const order = (maxPauseMs: number) =>
      outcome(scheduler.fetch(`${BASE}/orders/Order_1`, { headers, rateLimit: { maxPauseMs } }));
    const first = order(60_000);
    const short = order(500);
    const long = order(5_000);
    expect(await first).toBe(429);
    const refused = await short;
    expect(isRateLimitPaused(refused)).toBe(true);
    expect(refused).toMatchObject({ scope: 'route', route: 'GET /orders/*' });
    await clock.runUntil(t0 + 10_000);
    expect(await long).toBe(200);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - t0).toBeGreaterThanOrEqual(1_000);
  });

  it('a pause of a bucket the route no longer needs refuses nothing (the route learned other buckets meanwhile)', async () => {
    const clock = simClock();
    const t0 = clock.now();
    let n = 0;
    const orders = { 'x-ratelimit-policy': '"orders";q=100;w=10', 'x-ratelimit': '"orders";r=50;t=0' };
    const fetch = async (): Promise<Response> => {
      n++;
      if (n === 1) return ok();
      if (n === 2) {
        await clock.sleep(100);
        return new Response('{"code":"rate_limited"}', {
          status: 429,
          headers: {
            'retry-after': '3600',
            'x-ratelimit-policy': '"default";q=100;w=10',
            'x-ratelimit': '"default";r=0;t=3600',
          },
        });
      }
      // An answer already on its way when default was paused: GET /orders now spends "orders" only.
      if (n === 3) await clock.sleep(500);
      return new Response('{}', { headers: orders });
    };
    const scheduler = createScheduler({ fetch, clock, key: 'org', maxRetries: 0 });
    const get = (maxPauseMs?: number) =>
      outcome(
        scheduler.fetch(`${BASE}/orders`, { headers, ...(maxPauseMs ? { rateLimit: { maxPauseMs } } : {}) }),
      );
    expect(await get()).toBe(200);
    const paused = get();
    const onItsWay = get();
    await clock.runUntil(t0 + 200);
    expect(await paused).toBe(429);
    // While default is paused and the route still spends it, an impatient request is refused…
    expect(isRateLimitPaused(await get(60_000))).toBe(true);
    await clock.runUntil(t0 + 1_000);
    expect(await onItsWay).toBe(200);
    // …but once the route spends "orders" only, default's pause holds it no more (review: it was refused).
    const after = get(60_000);
    await clock.runUntil(t0 + 2_000);
    expect(await after).toBe(200);
  });

  it("a request refused by a route's pause while a custom store's take is pending, which then throws, leaves the queue sound", async () => {
    const tick = async () => {
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    };
    const clock = simClock();
    let release: (() => void) | undefined;
    let takes = 0;
    class Failing extends MemoryStore {
      override async take(key: string, b: readonly BucketRequest[], now: number): Promise<TakeResult> {
        if (++takes === 2) {
          await new Promise<void>((r) => {
            release = r;
          });
          throw new Error('store down');
        }
        return this.takeNow(key, b, now);
      }
    }
    let answerFirst: ((r: Response) => void) | undefined;
    let sends = 0;
    const fetch = (): Promise<Response> =>
      ++sends === 1 ? new Promise((r) => (answerFirst = r)) : Promise.resolve(new Response('{}'));
    const scheduler = createScheduler({ fetch, clock, key: 'org', store: new Failing(), maxRetries: 0 });
    const first = outcome(scheduler.fetch(`${BASE}/orders/Order_1`, { headers }));
    await tick();
    const waiting = outcome(
      scheduler.fetch(`${BASE}/orders/Order_2`, { headers, rateLimit: { maxPauseMs: 100 } }),
    );
    await tick();
    // A 429 without rate-limit fields pauses the route for a second: the request waiting for its take is refused.
    answerFirst!(new Response('busy', { status: 429, headers: { 'retry-after': '1' } }));
    expect(await first).toBe(429);
    expect(isRateLimitPaused(await waiting)).toBe(true);
    // The take it was waiting for fails now: it had left its lane already (counted once, failed never), where the
    // queue was counted at -1, the failure went unhandled and a later request was never sent.
    release!();
    await tick();
    expect(scheduler.stats()).toMatchObject({ queued: 0, failed: 0, refused: 1 });
    let later: unknown = 'pending';
    void outcome(scheduler.fetch(`${BASE}/orders/Order_3`, { headers })).then((v) => {
      later = v;
    });
    // A store of its own is polled on a real timer while the route's probe is awaited: real time passes too.
    for (let i = 0; i < 30 && later === 'pending'; i++) {
      await clock.runUntil(clock.now() + 1_000);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(later).toBe(200);
  });

  it("the scheduler's own retry after a 429 is not made when its pause outlasts maxPauseMs: the caller gets the 429", async () => {
    const clock = simClock();
    const { calls, note } = recorder(clock);
    const fetch = async (request: Request): Promise<Response> => {
      note(request);
      if (calls.length > 1) return ok();
      return new Response('{"code":"rate_limited"}', {
        status: 429,
        headers: {
          'retry-after': '30',
          'x-ratelimit-policy': '"default";q=100;w=10',
          'x-ratelimit': '"default";r=0;t=30',
        },
      });
    };
    const scheduler = createScheduler({ fetch, clock, key: 'org' });
    const t0 = clock.now();
    const impatient = await scheduler.fetch(`${BASE}/orders`, { headers, rateLimit: { maxPauseMs: 10_000 } });
    expect(impatient.status).toBe(429);
    expect(clock.now()).toBe(t0);
    expect(scheduler.stats()).toMatchObject({ retried: 0 });
    // Within its maxPauseMs the same 429 is waited out and retried, as without one.
    const patient = outcome(
      scheduler.fetch(`${BASE}/orders`, { headers, rateLimit: { maxPauseMs: 60_000 } }),
    );
    await clock.runUntil(t0 + 60_000);
    expect(await patient).toBe(200);
  });
});
