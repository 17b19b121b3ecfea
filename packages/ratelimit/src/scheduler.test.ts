import { getEventListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { unhandledDuring } from '../../../test-utils/unhandled.ts';
import { createTokenBucketApi } from '../bench/token-bucket-api.ts';
import { flush, manualClock, virtualClock, waitFor } from '../test/helpers.ts';
import type { RateLimitDefaults } from './routes.ts';
import { createScheduler } from './scheduler.ts';

const BASE = 'https://api.example/v2';
const SECRET = 'sk_test_do-not-log-me';
const headers = { 'x-service-secret-key': SECRET };

function smallDefaults(q: number, w: number): RateLimitDefaults {
  return {
    policies: { default: { quota: q, windowSeconds: w }, uploads: { quota: 1, windowSeconds: 60 } },
    buckets: (method, path) =>
      method === 'POST' && path === '/images' ? ['default', 'uploads'] : ['default'],
  };
}

function response(status: number, fields: Record<string, string>): Response {
  return new Response(status === 429 ? '{"code":"rate_limited"}' : '{}', { status, headers: fields });
}

describe('createScheduler', () => {
  it('spends the quota without a 429 and waits in (virtual) time for refills', async () => {
    const clock = virtualClock();
    const api = createTokenBucketApi({ policies: { default: { q: 10, w: 10 } }, now: clock.now });
    const scheduler = createScheduler({ fetch: api.fetch, clock });
    const start = clock.now();
    const results = await Promise.all(
      Array.from({ length: 30 }, () => scheduler.fetch(`${BASE}/orders`, { headers })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(api.counts).toEqual({ ok: 30, limited: 0 });
    // 10 from the full bucket, 20 more at one per second.
    expect(clock.now() - start).toBeGreaterThanOrEqual(19_000);
    expect(clock.now() - start).toBeLessThan(22_000);
    expect(scheduler.stats()).toMatchObject({ queued: 0, inflight: 0, completed: 30, throttled: 0 });
    expect(scheduler.stats().routes).toEqual({ 'GET /orders': ['default'] });
  });

  it('follows a policy change in the middle of a run', async () => {
    const clock = virtualClock();
    const api = createTokenBucketApi({ policies: { default: { q: 10, w: 10 } }, now: clock.now });
    const scheduler = createScheduler({ fetch: api.fetch, clock, defaults: smallDefaults(10, 10) });
    const changes: unknown[] = [];
    scheduler.on('policy-changed', (e) => changes.push(e));
    await Promise.all(Array.from({ length: 10 }, () => scheduler.fetch(`${BASE}/orders`, { headers })));
    expect(changes).toEqual([]);
    api.setPolicy('default', { q: 100, w: 10 });
    const start = clock.now();
    await Promise.all(Array.from({ length: 60 }, () => scheduler.fetch(`${BASE}/orders`, { headers })));
    expect(changes).toEqual([
      { name: 'default', quota: 100, windowSeconds: 10, previous: { quota: 10, windowSeconds: 10 } },
    ]);
    expect(scheduler.stats().policies.default).toEqual({ quota: 100, windowSeconds: 10 });
    // 10 tokens/s now instead of 1/s.
    expect(clock.now() - start).toBeLessThan(8_000);
    expect(api.counts.limited).toBeLessThanOrEqual(1);
  });

  it('pauses the whole bucket for Retry-After after a 429, and retries at the front (no octokit #629)', async () => {
    const clock = virtualClock();
    const calls: { at: number; id: string }[] = [];
    let first = true;
    const fetch = async (request: Request): Promise<Response> => {
      calls.push({ at: clock.now(), id: request.headers.get('x-id') ?? '' });
      if (first) {
        first = false;
        return response(429, {
          'retry-after': '5',
          'x-ratelimit-policy': '"default";q=100;w=10',
          'x-ratelimit': '"default";r=0;t=1',
        });
      }
      return response(200, {
        'x-ratelimit-policy': '"default";q=100;w=10',
        'x-ratelimit': '"default";r=50;t=0',
      });
    };
    const scheduler = createScheduler({ fetch, clock, concurrency: 1 });
    const events: string[] = [];
    scheduler.on('throttled', (e) => events.push(`throttled ${e.retryAfterSeconds}s ${e.buckets.join()}`));
    scheduler.on('retried', (e) => events.push(`retried ${e.delayMs}ms`));
    const t0 = clock.now();
    const a = scheduler.fetch(`${BASE}/orders`, { headers: { ...headers, 'x-id': 'A' } });
    const b = scheduler.fetch(`${BASE}/orders`, { headers: { ...headers, 'x-id': 'B' } });
    const c = scheduler.fetch(`${BASE}/claims`, { headers: { ...headers, 'x-id': 'C' } });
    const statuses = (await Promise.all([a, b, c])).map((r) => r.status);
    expect(statuses).toEqual([200, 200, 200]);
    expect(calls.map((x) => x.id)).toEqual(['A', 'A', 'B', 'C']);
    // Nothing else went out during the pause: not B, not C (another route on the same bucket).
    for (const call of calls.slice(1)) expect(call.at - t0).toBeGreaterThanOrEqual(5000);
    expect(events).toEqual(['throttled 5s default', 'retried 5000ms']);
  });

  it('bounds retries and then hands the 429 to the caller', async () => {
    const clock = virtualClock();
    let attempts = 0;
    const fetch = async (): Promise<Response> => {
      attempts++;
      return response(429, { 'retry-after': '2', 'x-ratelimit': '"default";r=0;t=2' });
    };
    const scheduler = createScheduler({ fetch, clock, maxRetries: 2 });
    const result = await scheduler.fetch(`${BASE}/orders`, { headers });
    expect(result.status).toBe(429);
    expect(await result.json()).toEqual({ code: 'rate_limited' });
    expect(attempts).toBe(3);
    expect(scheduler.stats()).toMatchObject({ throttled: 3, retried: 2, completed: 1 });
  });

  it('returns a 429 that is not about an empty bucket (e.g. rendertokens) without pausing', async () => {
    const clock = virtualClock();
    const calls: number[] = [];
    const fetch = async (request: Request): Promise<Response> => {
      calls.push(clock.now());
      if (request.method === 'POST') {
        return response(429, { 'retry-after': '86400', 'x-ratelimit': '"default";r=40;t=0' });
      }
      return response(200, { 'x-ratelimit': '"default";r=39;t=0' });
    };
    const scheduler = createScheduler({ fetch, clock });
    const t0 = clock.now();
    expect((await scheduler.fetch(`${BASE}/renders`, { method: 'POST', headers, body: '{}' })).status).toBe(
      429,
    );
    expect((await scheduler.fetch(`${BASE}/orders`, { headers })).status).toBe(200);
    expect(calls).toEqual([t0, t0]);
    expect(scheduler.stats().retried).toBe(0);
  });

  it('sends a fresh copy of the body on every attempt', async () => {
    const clock = virtualClock();
    const bodies: string[] = [];
    const fetch = async (request: Request): Promise<Response> => {
      bodies.push(await request.text());
      return bodies.length === 1
        ? response(429, { 'retry-after': '1', 'x-ratelimit': '"default";r=0;t=1' })
        : response(201, { 'x-ratelimit': '"default";r=5;t=0' });
    };
    const scheduler = createScheduler({ fetch, clock });
    const result = await scheduler.fetch(`${BASE}/images`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: new Uint8Array([1, 2, 3]),
    });
    expect(result.status).toBe(201);
    expect(bodies).toEqual(['\u0001\u0002\u0003', '\u0001\u0002\u0003']);
  });

  it('sends a Request passed alone as it is, again after a 429, and a copy when it has a body', async () => {
    const clock = virtualClock();
    const seen: Array<[Request, string, string | null]> = [];
    const fetch = async (request: Request): Promise<Response> => {
      seen.push([request, await request.text(), request.headers.get('x-ratelimit-priority')]);
      return seen.length % 2
        ? response(429, { 'retry-after': '1', 'x-ratelimit': '"default";r=0;t=1' })
        : response(200, { 'x-ratelimit': '"default";r=5;t=0' });
    };
    const scheduler = createScheduler({ fetch, clock });
    const get = new Request(`${BASE}/orders`, { headers });
    expect((await scheduler.fetch(get)).status).toBe(200);
    expect(seen.map(([r]) => r)).toEqual([get, get]);

    const post = new Request(`${BASE}/images`, { method: 'POST', headers, body: new Uint8Array([7, 8]) });
    expect((await scheduler.fetch(post)).status).toBe(200);
    expect(seen.slice(2).map(([, body]) => body)).toEqual(['\u0007\u0008', '\u0007\u0008']);

    // The priority header is removed from a copy; the caller's Request keeps it.
    const prioritized = new Request(`${BASE}/orders`, {
      headers: { ...headers, 'x-ratelimit-priority': '2' },
    });
    expect((await scheduler.fetch(prioritized)).status).toBe(200);
    expect(seen.slice(4).map(([r, , priority]) => [r === prioritized, priority])).toEqual([
      [false, null],
      [false, null],
    ]);
    expect(prioritized.headers.get('x-ratelimit-priority')).toBe('2');
    // So with an init holding only the scheduler's own options (which alone leaves the Request as it is).
    expect((await scheduler.fetch(prioritized, { rateLimit: { priority: 1 } })).status).toBe(200);
    expect(seen.slice(6).map(([r, , priority]) => [r === prioritized, priority])).toEqual([
      [false, null],
      [false, null],
    ]);
  });

  it('removes an aborted request from the queue and rejects it with the reason', async () => {
    const clock = manualClock();
    const sent: string[] = [];
    const release: (() => void)[] = [];
    const fetch = (request: Request): Promise<Response> => {
      sent.push(request.headers.get('x-id') ?? '');
      return new Promise((resolve) => release.push(() => resolve(response(200, {}))));
    };
    const scheduler = createScheduler({ fetch, clock, concurrency: 1 });
    const first = scheduler.fetch(`${BASE}/orders`, { headers: { ...headers, 'x-id': '1' } });
    const controller = new AbortController();
    const second = scheduler.fetch(`${BASE}/orders`, {
      headers: { ...headers, 'x-id': '2' },
      signal: controller.signal,
    });
    const third = scheduler.fetch(`${BASE}/orders`, { headers: { ...headers, 'x-id': '3' } });
    await waitFor(() => scheduler.stats().queued === 2);
    const reason = new Error('no longer needed');
    controller.abort(reason);
    await expect(second).rejects.toBe(reason);
    expect(scheduler.stats()).toMatchObject({ queued: 1, aborted: 1 });
    release.shift()?.();
    await first;
    await waitFor(() => release.length === 1);
    release.shift()?.();
    await third;
    expect(sent).toEqual(['1', '3']);
  });

  it('leaves no abort listener on a signal once its calls end (sent at once, queued, retried, reused)', async () => {
    const clock = virtualClock();
    const api = createTokenBucketApi({ policies: { default: { q: 5, w: 5 } }, now: clock.now });
    let calls = 0;
    const fetch = (request: Request): Promise<Response> =>
      ++calls === 3 ? Promise.resolve(response(429, { 'retry-after': '1' })) : api.fetch(request);
    const scheduler = createScheduler({ fetch, clock, random: () => 0.5 });
    // Requests passed alone are sent as they are: only the scheduler listens to their own signals.
    const requests = Array.from({ length: 12 }, () => new Request(`${BASE}/orders`, { headers }));
    for (const request of requests.slice(0, 4)) await scheduler.fetch(request);
    await Promise.all(requests.slice(4).map((request) => scheduler.fetch(request)));
    const reused = requests[0] as Request;
    for (let i = 0; i < 5; i++) await scheduler.fetch(reused);
    expect(scheduler.stats()).toMatchObject({ completed: 17, retried: 1, inflight: 0, queued: 0 });
    for (const request of requests) expect(getEventListeners(request.signal, 'abort')).toHaveLength(0);
  });

  it('listens to a request’s signal while it is sent, unless rateLimit.watchSignal is false', async () => {
    const counts: number[] = [];
    const scheduler = createScheduler({
      fetch: async (request: Request) => {
        await new Promise((r) => setTimeout(r, 1));
        counts.push(getEventListeners(request.signal, 'abort').length);
        return response(200, {});
      },
    });
    const request = () => new Request(`${BASE}/orders`, { headers, signal: new AbortController().signal });
    await scheduler.fetch(request());
    await scheduler.fetch(request(), { rateLimit: { watchSignal: false } });
    expect(counts).toEqual([1, 0]);
  });

  // A partner's own fetch whose answers are not the runtime's Response (node-fetch v2: the body a Node stream,
  // no cancel()): a 429 threw at the body's cancel, left unhandled, and the call never settled.
  it("retries a 429 of a fetch whose answers' bodies are Node streams, and hands over the next answer", async () => {
    const { Readable } = await import('node:stream');
    const nodeAnswer = (status: number, body: string): Response => {
      const make = (): Response =>
        ({
          status,
          ok: status < 300,
          headers: new Headers(status === 429 ? { 'retry-after': '0' } : {}),
          body: Readable.from([Buffer.from(body)]),
          text: async () => body,
          clone: make,
        }) as unknown as Response;
      return make();
    };
    let calls = 0;
    const unhandled = await unhandledDuring(async () => {
      const scheduler = createScheduler({
        fetch: async () =>
          ++calls === 1 ? nodeAnswer(429, '{"code":"rate_limited"}') : nodeAnswer(200, '{}'),
        clock: virtualClock(),
        key: 'org',
      });
      const answer = await scheduler.fetch(`${BASE}/orders`, { headers });
      expect(answer.status).toBe(200);
    });
    expect(unhandled).toEqual([]);
    expect(calls).toBe(2);
  });

  it('fails the call with the error, not left pending, when an answer cannot be read as a Response', async () => {
    const unreadable = {
      status: 429,
      ok: false,
      headers: new Headers({ 'retry-after': '0' }),
      body: {}, // a body, but no clone() to read its error code from
    } as unknown as Response;
    const unhandled = await unhandledDuring(async () => {
      const scheduler = createScheduler({ fetch: async () => unreadable, clock: virtualClock(), key: 'org' });
      await expect(scheduler.fetch(`${BASE}/orders`, { headers })).rejects.toThrow(TypeError);
      expect(scheduler.stats()).toMatchObject({ inflight: 0, failed: 1 });
      // The queue goes on.
      await expect(scheduler.fetch(`${BASE}/orders`, { headers })).rejects.toThrow(TypeError);
    });
    expect(unhandled).toEqual([]);
  });

  it('drops the late answer of a fetch that ignored the abort, cancelling its body', async () => {
    const answers: ((r: Response) => void)[] = [];
    const fetch = (): Promise<Response> => new Promise((resolve) => answers.push(resolve));
    const scheduler = createScheduler({ fetch, clock: virtualClock(), key: 'org' });
    const controller = new AbortController();
    const call = scheduler.fetch(`${BASE}/orders`, { headers, signal: controller.signal });
    await waitFor(() => answers.length === 1);
    const reason = new Error('deadline');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(scheduler.stats()).toMatchObject({ inflight: 0, failed: 1 });
    let cancelled = false;
    const body = new ReadableStream({
      cancel: () => {
        cancelled = true;
      },
    });
    answers[0]?.(new Response(body, { status: 200 }));
    await waitFor(() => cancelled);
    expect(scheduler.stats()).toMatchObject({ inflight: 0, failed: 1, completed: 0 });
    // The queue goes on.
    const next = scheduler.fetch(`${BASE}/orders`, { headers });
    await waitFor(() => answers.length === 2);
    answers[1]?.(response(200, {}));
    expect((await next).status).toBe(200);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const scheduler = createScheduler({ fetch: async () => response(200, {}), clock: virtualClock() });
    const controller = new AbortController();
    controller.abort(new Error('early'));
    await expect(scheduler.fetch(`${BASE}/orders`, { headers, signal: controller.signal })).rejects.toThrow(
      'early',
    );
  });

  it('runs higher priorities first, FIFO within one, and strips the priority header', async () => {
    const clock = manualClock();
    const sent: string[] = [];
    const seenHeaders: (string | null)[] = [];
    const release: (() => void)[] = [];
    const fetch = (request: Request): Promise<Response> => {
      sent.push(request.headers.get('x-id') ?? '');
      seenHeaders.push(request.headers.get('x-ratelimit-priority'));
      return new Promise((resolve) => release.push(() => resolve(response(200, {}))));
    };
    const scheduler = createScheduler({ fetch, clock, concurrency: 1 });
    const send = (id: string, init: Record<string, unknown> = {}, extra: Record<string, string> = {}) =>
      scheduler.fetch(`${BASE}/orders`, { headers: { ...headers, 'x-id': id, ...extra }, ...init });
    const all = [
      send('first'),
      send('low', { rateLimit: { priority: -1 } }),
      send('normal-1'),
      send('high', { rateLimit: { priority: 5 } }),
      send('normal-2'),
      send('header-high', {}, { 'x-ratelimit-priority': '3' }),
    ];
    await waitFor(() => scheduler.stats().queued === 5);
    for (let i = 0; i < all.length; i++) {
      await waitFor(() => release.length > 0);
      release.shift()?.();
    }
    await Promise.all(all);
    expect(sent).toEqual(['first', 'high', 'header-high', 'normal-1', 'normal-2', 'low']);
    expect(seenHeaders.every((h) => h === null)).toBe(true);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    const clock = manualClock();
    let inflight = 0;
    let max = 0;
    const release: (() => void)[] = [];
    const fetch = (): Promise<Response> => {
      inflight++;
      max = Math.max(max, inflight);
      return new Promise((resolve) =>
        release.push(() => {
          inflight--;
          resolve(
            response(200, {
              'x-ratelimit': '"default";r=100;t=0',
              'x-ratelimit-policy': '"default";q=200;w=1',
            }),
          );
        }),
      );
    };
    const scheduler = createScheduler({ fetch, clock, concurrency: 3 });
    let done = 0;
    const all = Array.from({ length: 12 }, () =>
      scheduler.fetch(`${BASE}/orders`, { headers }).then(() => done++),
    );
    while (done < 12) {
      await flush();
      release.shift()?.();
    }
    await Promise.all(all);
    expect(max).toBe(3);
  });

  it('lets default-only requests pass while an empty uploads bucket holds uploads back', async () => {
    const clock = manualClock();
    const api = createTokenBucketApi({
      policies: { default: { q: 100, w: 10 }, uploads: { q: 1, w: 60 } },
      now: clock.now,
    });
    const calls: { at: number; route: string }[] = [];
    const fetch = async (request: Request) => {
      calls.push({ at: clock.now(), route: `${request.method} ${new URL(request.url).pathname}` });
      return api.handle(request);
    };
    const scheduler = createScheduler({ fetch, clock, defaults: smallDefaults(100, 10) });
    const t0 = clock.now();
    const upload = () => scheduler.fetch(`${BASE}/images`, { method: 'POST', headers, body: 'x' });
    const uploads = [upload(), upload()];
    await waitFor(() => scheduler.stats().queued === 1 && scheduler.stats().inflight === 0);
    const ordering = Promise.all(
      Array.from({ length: 5 }, () => scheduler.fetch(`${BASE}/orders`, { headers })),
    );
    // The fresh default bucket is spent along the start pace (6 s at most), not held for the uploads' 60 s.
    await clock.advance(6000);
    const orders = await ordering;
    expect(orders.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(calls.filter((c) => c.route === 'GET /v2/orders').every((c) => c.at <= t0 + 6000)).toBe(true);
    expect(calls.filter((c) => c.route === 'POST /v2/images')).toHaveLength(1);
    // One timer waits for the next upload token.
    expect(clock.pending()).toBe(1);
    await clock.advance(54_000);
    expect((await Promise.all(uploads)).map((r) => r.status)).toEqual([200, 200]);
    expect(calls.filter((c) => c.route === 'POST /v2/images').map((c) => c.at - t0)).toEqual([0, 60_000]);
    expect(api.counts.limited).toBe(0);
    expect(scheduler.stats().routes['POST /images']).toEqual(['default', 'uploads']);
    expect(clock.pending()).toBe(0);
  });

  it('keys the budget by a SHA-256 of the secret key and never keeps the key itself', async () => {
    const clock = virtualClock();
    const api = createTokenBucketApi({ policies: { default: { q: 10, w: 10 } }, now: clock.now });
    const scheduler = createScheduler({ fetch: api.fetch, clock });
    const admitted: unknown[] = [];
    scheduler.on('admitted', (e) => admitted.push(e));
    await scheduler.fetch(`${BASE}/orders`, { headers });
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(SECRET));
    const key = `sha256:${Buffer.from(digest).toString('hex')}`;
    expect(Object.keys(await scheduler.snapshot(key))).toEqual(['default']);
    expect(JSON.stringify([scheduler.stats(), await scheduler.snapshot(key), admitted])).not.toContain(
      SECRET,
    );
  });

  it('keeps a listener that rejects (an async one) from scheduling and from going unhandled', async () => {
    // An unhandled rejection ends a Node.js process by default: the program would go down with its listener.
    const heard: string[] = [];
    const unhandled = await unhandledDuring(async () => {
      const clock = virtualClock();
      const api = createTokenBucketApi({ policies: { default: { q: 10, w: 10 } }, now: clock.now });
      const scheduler = createScheduler({ fetch: api.fetch, clock });
      for (const event of ['queued', 'admitted'] as const)
        scheduler.on(event, async () => {
          heard.push(event);
          throw new Error('listener down');
        });
      const answers = await Promise.all([1, 2].map(() => scheduler.fetch(`${BASE}/orders`, { headers })));
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
    });
    expect(heard).toContain('admitted');
    expect(unhandled).toEqual([]);
  });

  it('rejects queued requests with their reason and leaves no unhandled rejection on the way', async () => {
    // A queued request keeps only its promise's resolve (one closure fewer per request): a failure settles
    // it with a rejected promise, which must reach the caller as the reason itself and nowhere else.
    const unhandled = await unhandledDuring(async () => {
      const scheduler = createScheduler({
        fetch: () => new Promise<Response>(() => {}),
        clock: manualClock(),
        concurrency: 1,
      });
      void scheduler.fetch(`${BASE}/orders`, { headers }).catch(() => {});
      const controller = new AbortController();
      const aborted = scheduler.fetch(`${BASE}/orders`, { headers, signal: controller.signal });
      const closed = scheduler.fetch(`${BASE}/orders`, { headers });
      await waitFor(() => scheduler.stats().queued === 2);
      const abortReason = new Error('aborted');
      controller.abort(abortReason);
      const closeReason = new Error('closed');
      scheduler.close(closeReason);
      await expect(aborted).rejects.toBe(abortReason);
      await expect(closed).rejects.toBe(closeReason);
    });
    expect(unhandled).toEqual([]);
  });

  it('emits queued and admitted, and close() rejects what is still queued', async () => {
    const clock = manualClock();
    const fetch = (): Promise<Response> => new Promise(() => {});
    const scheduler = createScheduler({ fetch, clock, concurrency: 1 });
    const queued: number[] = [];
    scheduler.on('queued', (e) => queued.push(e.queued));
    let admitted = 0;
    const off = scheduler.on('admitted', () => admitted++);
    void scheduler.fetch(`${BASE}/orders`, { headers });
    const waiting = scheduler.fetch(`${BASE}/orders`, { headers });
    await waitFor(() => queued.length === 2);
    // Each event counts the queue as it is then. Nothing is ahead of the first (the key is hashed once for
    // both): it is queued and admitted within one step, so the second, past the concurrency, queues alone.
    expect(queued).toEqual([1, 1]);
    expect(admitted).toBe(1);
    expect(scheduler.stats()).toMatchObject({ queued: 1, inflight: 1 });
    scheduler.close(new Error('shutting down'));
    await expect(waiting).rejects.toThrow('shutting down');
    await expect(scheduler.fetch(`${BASE}/orders`, { headers })).rejects.toThrow('shutting down');
    off();
  });
});

describe('following policy changes from the first answer that shows them', () => {
  const orders = (s: ReturnType<typeof createScheduler>, n: number) =>
    Promise.all(Array.from({ length: n }, () => s.fetch(`${BASE}/orders`, { headers })));

  it('reads the V3 unprefixed RateLimit / RateLimit-Policy names', async () => {
    const clock = virtualClock();
    const api = createTokenBucketApi({
      policies: { default: { q: 10, w: 10 } },
      now: clock.now,
      names: 'v3',
    });
    const scheduler = createScheduler({ fetch: api.fetch, clock, defaults: smallDefaults(100, 10) });
    const start = clock.now();
    await orders(scheduler, 20);
    expect(scheduler.stats().policies.default).toEqual({ quota: 10, windowSeconds: 10 });
    expect(api.counts.limited).toBe(0);
    expect(clock.now() - start).toBeGreaterThanOrEqual(9_000);
  });

  it('follows a renamed policy, a new bucket on a route and a removed one', async () => {
    const clock = virtualClock();
    const api = createTokenBucketApi({
      policies: { default: { q: 10, w: 10 }, uploads: { q: 1, w: 60 } },
      routes: [{ method: 'POST', path: /\/images$/, policy: 'uploads' }],
      now: clock.now,
    });
    // Each request's status, and whether an answer showing the `reads` bucket had come before it was sent.
    let shown = false;
    const sent: Array<{ afterShown: boolean; status?: number }> = [];
    const fetch = (request: Request) => {
      const record: { afterShown: boolean; status?: number } = { afterShown: shown };
      sent.push(record);
      const answer = api.fetch(request);
      void answer.then((r) => {
        record.status = r.status;
        shown ||= /"reads"/.test(r.headers.get('x-ratelimit-policy') ?? '');
      });
      return answer;
    };
    const scheduler = createScheduler({ fetch, clock, defaults: smallDefaults(10, 10) });
    const changes: string[] = [];
    scheduler.on('policy-changed', (e) => changes.push(`${e.name} ${e.quota}/${e.windowSeconds}`));
    await orders(scheduler, 5);
    // Renamed: `default` is now `general`; the route learns it from the first answer.
    api.renamePolicy('default', 'general');
    await orders(scheduler, 3);
    expect(scheduler.stats().routes['GET /orders']).toEqual(['general']);
    expect(changes).toContain('general 10/10');
    // A new bucket on GET /orders.
    api.setPolicy('reads', { q: 2, w: 20 });
    api.setRoutes([{ method: 'GET', path: /\/orders$/, policy: 'reads' }]);
    const t0 = clock.now();
    const before = sent.length;
    await orders(scheduler, 4);
    expect(scheduler.stats().routes['GET /orders']).toEqual(['general', 'reads']);
    // 2 from the new bucket at once, the others at its rate (one per 10 s).
    expect(clock.now() - t0).toBeGreaterThanOrEqual(19_000);
    // Those sent before an answer showed the bucket may find it empty (how many go in that first wave depends
    // on the `general` estimate and on when this clock's time moves, which jumps at every sleep: the pump's
    // too); none sent after is refused, and the bucket's 2 went through.
    const wave = sent.slice(before);
    const early = wave.filter((r) => !r.afterShown);
    expect(wave.filter((r) => r.afterShown && r.status === 429)).toEqual([]);
    // Any of the 4 may go before an answer shows the bucket (the scheduler knew `general` only), at least one.
    expect(early.length).toBeGreaterThan(0);
    expect(early.length).toBeLessThanOrEqual(4);
    const early200 = Math.min(2, early.length);
    expect(early.filter((r) => r.status === 200).length).toBe(early200);
    expect(api.counts.limited).toBe(early.length - early200);
    // Removed again: the route no longer waits for it.
    api.setRoutes([]);
    api.setPolicy('reads', undefined);
    const t1 = clock.now();
    await orders(scheduler, 3);
    expect(scheduler.stats().routes['GET /orders']).toEqual(['general']);
    // At most the one wait of the request sent before an answer showed the bucket gone, and no refusal.
    expect(clock.now() - t1).toBeLessThanOrEqual(10_000);
    expect(api.counts.limited).toBe(early.length - early200);
  });
});

describe('a finished request', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  /** Waits for the job to end (a WeakRef's target is kept until then), then collects all garbage. */
  const collect = async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
  };

  it("keeps neither its answer nor its request's signal alive from its entry (a dead entry in the old generation kept them)", async () => {
    let held: unknown;
    const scheduler = createScheduler({
      // A fetch whose answer the scheduler takes through its `then`: the callback it passes first holds
      // that request's entry, and is kept here, as the old generation keeps a promoted entry until a full GC.
      fetch: () => {
        const answer = Promise.resolve(new Response('ok'));
        return {
          // biome-ignore lint/suspicious/noThenProperty: a thenable standing for the fetch's promise
          then: (ok: (r: Response) => unknown, fail: (e: unknown) => unknown) => {
            held ??= ok;
            return answer.then(ok, fail);
          },
        } as unknown as Promise<Response>;
      },
    });
    let answer!: WeakRef<Response>;
    let signal!: WeakRef<AbortSignal>;
    await (async () => {
      const request = new Request(`${BASE}/orders/1`, { headers });
      signal = new WeakRef(request.signal);
      const response = await scheduler.fetch(request);
      answer = new WeakRef(response);
      expect(await response.text()).toBe('ok');
    })();
    // Another request after it, as in any process that goes on.
    expect(await (await scheduler.fetch(`${BASE}/orders/2`, { headers })).text()).toBe('ok');
    expect(held).toBeDefined();
    await collect();
    expect(answer.deref()).toBeUndefined();
    expect(signal.deref()).toBeUndefined();
  });

  it('is not kept alive by the scheduler once its caller has let go of it (the last request was)', async () => {
    const scheduler = createScheduler({ fetch: () => Promise.resolve(new Response('ok')) });
    let answer!: WeakRef<Response>;
    await (async () => {
      const response = await scheduler.fetch(`${BASE}/orders/1`, { headers });
      answer = new WeakRef(response);
      expect(await response.text()).toBe('ok');
    })();
    await collect();
    expect(answer.deref()).toBeUndefined();
  });
});
