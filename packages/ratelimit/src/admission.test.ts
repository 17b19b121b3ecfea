import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../test/helpers.ts';
import type { RateLimitDefaults } from './routes.ts';
import { createScheduler } from './scheduler.ts';
import { MemoryStore, type RateLimitStore } from './store.ts';

const URL_ = 'https://api.example/v2/orders';
const defaults = (quota: number): RateLimitDefaults => ({
  policies: { default: { quota, windowSeconds: 10 } },
  buckets: () => ['default'],
});
/** An answer of a budget this test cannot spend (nothing paces it), or of an empty one. */
const answer = (remaining: number, quota = 1_000_000_000) =>
  new Response('{}', {
    headers: {
      'x-ratelimit': `"default";r=${remaining};t=10`,
      'x-ratelimit-policy': `"default";q=${quota};w=10`,
    },
  });

/** A fetch whose answers the test gives, one at a time, in the order the requests came. */
function heldFetch() {
  const sent: Array<{ url: string; answer: (r: Response) => void }> = [];
  const fetch = (request: Request) =>
    new Promise<Response>((resolve) => sent.push({ url: request.url, answer: resolve }));
  return { sent, fetch };
}

/**
 * A scheduler on a held fetch whose first request (`?n=0`) has had its answer, `first`: the answer describes the
 * bucket (until then one request probes it, the rest wait for it).
 */
async function probed(concurrency?: number, first = answer(999_999_999)) {
  const { sent, fetch } = heldFetch();
  const scheduler = createScheduler({ fetch, clock: manualClock(), key: 'org', concurrency });
  const probe = scheduler.fetch(`${URL_}?n=0`);
  sent[0]?.answer(first);
  await probe;
  return { sent, scheduler };
}

describe('admission without a queue', () => {
  it('sends a request nothing is ahead of within the call; past the concurrency, requests queue in order', async () => {
    const { sent, scheduler } = await probed(2);
    const calls = [1, 2, 3].map((n) => scheduler.fetch(`${URL_}?n=${n}`));
    // No promise hop for the next two: their fetch has been called before the calls returned.
    expect(sent.map((s) => s.url)).toEqual([`${URL_}?n=0`, `${URL_}?n=1`, `${URL_}?n=2`]);
    expect(scheduler.stats()).toMatchObject({ queued: 1, inflight: 2, admitted: 3 });
    sent[2]?.answer(answer(999_999_998));
    await expect(calls[1]).resolves.toMatchObject({ status: 200 });
    // The answer freed a slot: the queued one goes.
    await new Promise((r) => setImmediate(r));
    expect(sent.map((s) => s.url)).toEqual([`${URL_}?n=0`, `${URL_}?n=1`, `${URL_}?n=2`, `${URL_}?n=3`]);
    sent[1]?.answer(answer(999_999_997));
    sent[3]?.answer(answer(999_999_996));
    await Promise.all(calls);
    expect(scheduler.stats()).toMatchObject({ queued: 0, inflight: 0, admitted: 4, completed: 4 });
  });

  it('sends a waiting request in the step that frees its slot, on the memory store (no promise hop per admission)', async () => {
    const { sent, scheduler } = await probed(1);
    const first = scheduler.fetch(`${URL_}?n=1`);
    const waiting = scheduler.fetch(`${URL_}?n=2`);
    expect(sent).toHaveLength(2);
    // What was sent when the first call's caller got its answer: the waiting one too. An await per admission
    // (the pump asking the store as for a store of its own) sent it only after, and made a request that had
    // waited cost about 30 µs more CPU than one sent at once (docs/benchmarks.md, client).
    let sentByThen = 0;
    const seen = first.then(() => {
      sentByThen = sent.length;
    });
    sent[1]?.answer(answer(999_999_998));
    await seen;
    expect(sentByThen).toBe(3);
    sent[2]?.answer(answer(999_999_997));
    await expect(waiting).resolves.toMatchObject({ status: 200 });
    expect(scheduler.stats()).toMatchObject({ queued: 0, inflight: 0, admitted: 3, completed: 3 });
  });

  it('sends a request a queued listener makes while the request it was told of is admitted', async () => {
    const { sent, scheduler } = await probed(4, answer(100, 100));
    // The listener's request arrives while the first is being queued: it waits behind it, and the pump sends
    // both. With an await per admission the second stayed queued, unsent, though a token had been taken for
    // it, and nothing woke the queue again (found by the session's review, 120 ms later still unsent).
    let once = true;
    scheduler.on('queued', () => {
      if (!once) return;
      once = false;
      void scheduler.fetch(`${URL_}?n=2`);
    });
    void scheduler.fetch(`${URL_}?n=1`);
    await new Promise((r) => setImmediate(r));
    expect(sent.map((s) => s.url)).toEqual([`${URL_}?n=0`, `${URL_}?n=1`, `${URL_}?n=2`]);
    expect(scheduler.stats()).toMatchObject({ queued: 0, inflight: 2 });
  });

  it('tells a queued listener of a request first, then still sends it within the call', async () => {
    const { sent, scheduler } = await probed();
    // The listener sees it queued (in the stats too), and it still goes within the call.
    const seen: Array<{ queued: number; stats: number }> = [];
    scheduler.on('queued', ({ queued }) => seen.push({ queued, stats: scheduler.stats().queued }));
    const call = scheduler.fetch(`${URL_}?n=1`);
    expect(seen).toEqual([{ queued: 1, stats: 1 }]);
    expect(sent.map((s) => s.url)).toEqual([`${URL_}?n=0`, `${URL_}?n=1`]);
    expect(scheduler.stats()).toMatchObject({ queued: 0, inflight: 1, admitted: 2 });
    sent[1]?.answer(answer(999_999_998));
    await expect(call).resolves.toMatchObject({ status: 200 });
    expect(scheduler.stats()).toMatchObject({ queued: 0, inflight: 0, completed: 2 });
  });

  it('queues a request the store refuses at its call, listening to its signal until it goes', async () => {
    const { sent, fetch } = heldFetch();
    const clock = manualClock();
    const scheduler = createScheduler({ fetch, clock, key: 'org', defaults: defaults(1) });
    const first = scheduler.fetch(`${URL_}?n=1`);
    sent[0]?.answer(answer(0, 1));
    await first;
    // The bucket is empty: the next call finds no token and waits for the refill (10 s for one).
    const controller = new AbortController();
    const aborted = scheduler.fetch(`${URL_}?n=2`, { signal: controller.signal });
    const waiting = scheduler.fetch(`${URL_}?n=3`);
    expect(sent).toHaveLength(1);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort(new Error('caller gave up'));
    await expect(aborted).rejects.toThrow('caller gave up');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await clock.advance(10_000);
    expect(sent.map((s) => s.url)).toEqual([`${URL_}?n=1`, `${URL_}?n=3`]);
    sent[1]?.answer(answer(0, 1));
    await expect(waiting).resolves.toMatchObject({ status: 200 });
    expect(scheduler.stats()).toMatchObject({ aborted: 1, completed: 2 });
  });

  it('sends nothing for a request whose signal an admitted listener aborts, and goes on with the queue', async () => {
    const { sent, scheduler } = await probed(1);
    // The listener aborts the request it is told of: the fetch (this one ignores signals, as a partner's may)
    // must not be called, where it was called with the aborted signal and sent the request all the same.
    const controller = new AbortController();
    const stop = scheduler.on('admitted', () => controller.abort(new Error('stopped by a listener')));
    const aborted = scheduler.fetch(`${URL_}?n=1`, { signal: controller.signal });
    stop();
    const next = scheduler.fetch(`${URL_}?n=2`);
    await expect(aborted).rejects.toThrow('stopped by a listener');
    // Its slot was freed: the request behind it goes (the concurrency is 1).
    await new Promise((r) => setImmediate(r));
    expect(sent.map((s) => s.url)).toEqual([`${URL_}?n=0`, `${URL_}?n=2`]);
    sent[1]?.answer(answer(999_999_998));
    await expect(next).resolves.toMatchObject({ status: 200 });
    expect(scheduler.stats()).toMatchObject({ inflight: 0, queued: 0, completed: 2, failed: 1 });
  });

  it('asks a store of its own (a MemoryStore subclass, possibly async) through its take and observe', async () => {
    const calls: string[] = [];
    class SlowStore extends MemoryStore {
      override take(...args: Parameters<RateLimitStore['take']>) {
        calls.push('take');
        return new Promise<Awaited<ReturnType<RateLimitStore['take']>>>((resolve) =>
          setImmediate(() => resolve(super.take(...args))),
        );
      }
      override observe(...args: Parameters<RateLimitStore['observe']>) {
        calls.push('observe');
        return super.observe(...args);
      }
    }
    const { sent, fetch } = heldFetch();
    const scheduler = createScheduler({ fetch, clock: manualClock(), key: 'org', store: new SlowStore() });
    const call = scheduler.fetch(URL_);
    // Its take answers later: nothing is sent within the call.
    expect(sent).toHaveLength(0);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    sent[0]?.answer(answer(1));
    await expect(call).resolves.toMatchObject({ status: 200 });
    expect(calls).toEqual(['take', 'observe']);
  });
});
