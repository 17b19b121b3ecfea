import { describe, expect, it } from 'vitest';
import { buildCallbackUrl } from './build-url.ts';
import { createOrderUpdatedHandler, type OrderFetcher } from './handler.ts';

const ORDER = `Order_${'0'.repeat(25)}1`;
const url = (i: number) =>
  buildCallbackUrl(`https://partner.example/hook?n=${i}`, {
    environment: 'test',
    orderReference: 'ACME-1',
    orderReferenceV2: ORDER,
    storeCode: 'ACME',
  });

/** Time that moves only when the test says so; sleeps end when it passes them. */
function manualClock() {
  let now = 0;
  const sleepers: Array<{ at: number; wake: () => void }> = [];
  return {
    now: () => now,
    sleep: (ms: number) => new Promise<void>((wake) => sleepers.push({ at: now + ms, wake })),
    async advance(ms: number) {
      now += ms;
      for (const s of sleepers.filter((x) => x.at <= now)) {
        sleepers.splice(sleepers.indexOf(s), 1);
        s.wake();
      }
      for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
    },
  };
}

/** 20 notifications for one order, one every 100 ms (2 s), each fetch answering at once. */
async function spreadStorm(windowMs: number | undefined) {
  const clock = manualClock();
  let fetches = 0;
  const client: OrderFetcher<{ reference: string }> = {
    get: async () => {
      fetches++;
      return { order: { reference: ORDER } };
    },
  };
  const seen: string[] = [];
  const handler = createOrderUpdatedHandler({
    client,
    environment: 'test',
    clock,
    ...(windowMs === undefined ? {} : { windowMs }),
    onOrderUpdated: (_order, notification) => {
      seen.push(new URLSearchParams(notification.extra).get('n') ?? '');
    },
  });
  const answers: Promise<Response>[] = [];
  for (let i = 0; i < 20; i++) {
    answers.push(handler(new Request(url(i))));
    await clock.advance(100);
  }
  await clock.advance(5_000);
  const statuses = (await Promise.all(answers)).map((r) => r.status);
  return { fetches, statuses, seen };
}

describe('windowMs', () => {
  it('without a window (0), notifications spread over 2 s cost a fetch each', async () => {
    const { fetches, statuses } = await spreadStorm(0);
    expect(statuses.every((s) => s === 204)).toBe(true);
    expect(fetches).toBe(20);
  });

  it('with the default window (1 s), they cost 2 or 3', async () => {
    const { fetches, statuses } = await spreadStorm(undefined);
    expect(statuses.every((s) => s === 204)).toBe(true);
    expect(fetches).toBeGreaterThanOrEqual(2);
    expect(fetches).toBeLessThanOrEqual(3);
  });

  it('with a 2 s window they cost one fetch, after the window, with the latest notification', async () => {
    const { fetches, statuses, seen } = await spreadStorm(2_000);
    expect(statuses.every((s) => s === 204)).toBe(true);
    expect(fetches).toBe(1);
    expect(seen).toEqual(['19']);
  });

  it('with a shorter window, at most one fetch per window', async () => {
    const { fetches, statuses } = await spreadStorm(500);
    expect(statuses.every((s) => s === 204)).toBe(true);
    expect(fetches).toBeLessThanOrEqual(4);
    expect(fetches).toBeGreaterThanOrEqual(3);
  });

  it('a window whose sleep rejects (a clock stopped at shutdown) answers 500 once, without relaunching the round', async () => {
    // The round stayed the order's next one: it was launched again at once, for ever, in microtasks (a hung process).
    let sleeps = 0;
    const stopped = {
      now: () => 0,
      sleep: () => {
        if (++sleeps > 100) throw new Error('relaunched without end');
        return Promise.reject(new DOMException('The clock is stopped.', 'AbortError'));
      },
    };
    let fetches = 0;
    const handler = createOrderUpdatedHandler({
      client: { get: async () => ({ order: { reference: ORDER } }) },
      environment: 'test',
      clock: stopped,
      windowMs: 10,
      onOrderUpdated() {
        fetches++;
      },
    });
    expect((await handler(new Request(url(1)))).status).toBe(500);
    await new Promise((r) => setTimeout(r, 0));
    expect(sleeps).toBe(1);
    expect((await handler(new Request(url(2)))).status).toBe(500);
    expect(sleeps).toBe(2);
    expect(fetches).toBe(0);
  });

  it('refuses a window that is not a non-negative number', () => {
    const base = {
      client: { get: async () => ({ order: {} }) },
      environment: 'test' as const,
      onOrderUpdated() {},
    };
    expect(() => createOrderUpdatedHandler({ ...base, windowMs: -1 })).toThrow(TypeError);
    expect(() => createOrderUpdatedHandler({ ...base, windowMs: Number.NaN })).toThrow(TypeError);
  });
});
