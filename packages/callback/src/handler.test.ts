import { PartnerPrintError, TimeoutError } from '@partner-print/client';
import { describe, expect, it, vi } from 'vitest';
import { unhandledDuring } from '../../../test-utils/unhandled.ts';
import { handlerWithoutWindow as createOrderUpdatedHandler } from '../test/no-window.ts';
import { buildCallbackUrl } from './build-url.ts';
import type { OrderFetcher, OrderUpdatedHandlerOptions } from './handler.ts';
import type { OrderUpdatedNotification } from './types.ts';

const ref = (i: number) => `Order_${String(i).padStart(26, '0')}`;
const callbackUrl = (i = 1, environment: 'prod' | 'test' = 'test', extra = '') =>
  buildCallbackUrl(`https://partner.example/hook${extra}`, {
    environment,
    orderReference: `ACME-${i}`,
    orderReferenceV2: ref(i),
    storeCode: 'ACME',
  });

interface FakeOrder {
  reference: string;
  version: number;
}

/** A client whose GETs stay pending until released, counting calls per order. */
function fakeClient() {
  const calls = new Map<string, number>();
  const gates: Array<() => void> = [];
  let version = 0;
  let failNext = 0;
  const client: OrderFetcher<FakeOrder> = {
    get: vi.fn(async (_path, init) => {
      const reference = init.params.path.orderReference;
      calls.set(reference, (calls.get(reference) ?? 0) + 1);
      await new Promise<void>((resolve) => gates.push(resolve));
      if (failNext > 0) {
        failNext--;
        throw new Error('upstream down');
      }
      return { order: { reference, version: ++version } };
    }),
  };
  return {
    client,
    calls,
    failNext(n = 1) {
      failNext = n;
    },
    /** Releases every pending GET, then lets their continuations run. */
    async release() {
      for (const open of gates.splice(0)) open();
      await new Promise((r) => setTimeout(r, 0));
    },
    get total() {
      return [...calls.values()].reduce((a, b) => a + b, 0);
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

/** The handler's options other than the two every test here shares. */
type Rest<T> = T extends unknown ? Omit<T, 'client' | 'environment'> : never;

/** A handler for the test environment over a fresh fake client. */
function handlerOver(options: Rest<OrderUpdatedHandlerOptions<FakeOrder>>) {
  const fake = fakeClient();
  const handler = createOrderUpdatedHandler<FakeOrder>({
    client: fake.client,
    environment: 'test',
    ...options,
  });
  return { fake, handler };
}

describe('createOrderUpdatedHandler', () => {
  it('fetches the order by its V2 reference and answers 204 after onOrderUpdated resolved', async () => {
    const seen: Array<[FakeOrder, OrderUpdatedNotification]> = [];
    let finish!: () => void;
    const { fake, handler } = handlerOver({
      onOrderUpdated: (order, notification) => {
        seen.push([order, notification]);
        return new Promise<void>((r) => {
          finish = r;
        });
      },
    });
    let settled = false;
    const pending = handler(new Request(callbackUrl(7, 'test', '?tenant=eu'))).then((r) => {
      settled = true;
      return r;
    });
    await tick();
    expect(fake.client.get).toHaveBeenCalledWith('/orders/{orderReference}', {
      params: { path: { orderReference: ref(7) } },
      signal: expect.any(AbortSignal),
    });
    await fake.release();
    expect(seen).toHaveLength(1);
    expect(settled).toBe(false);
    finish();
    const response = await pending;
    expect(response.status).toBe(204);
    expect(seen[0]![0]).toEqual({ reference: ref(7), version: 1 });
    expect(seen[0]![1].extra).toEqual([['tenant', 'eu']]);
  });

  it.each([
    ['POST', 405],
    ['HEAD', 405],
    ['PUT', 405],
  ])('answers %s with %i and Allow: GET, without a fetch', async (method, status) => {
    const { fake, handler } = handlerOver({
      onOrderUpdated() {},
    });
    const response = await handler(new Request(callbackUrl(), { method }));
    expect(response.status).toBe(status);
    expect(response.headers.get('allow')).toBe('GET');
    expect(fake.client.get).not.toHaveBeenCalled();
  });

  it('answers invalid parameters with 400 and the reasons, without a fetch', async () => {
    const { fake, handler } = handlerOver({
      onOrderUpdated() {},
    });
    const response = await handler(
      new Request(callbackUrl().replace(ref(1), 'Order_..%2F..%2Fclaims%2FClaim_0000000000')),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string; errors: Array<{ parameter: string }> };
    expect(body.code).toBe('invalid_callback');
    expect(body.errors.map((e) => e.parameter)).toEqual(['order_reference_v2']);
    expect(fake.client.get).not.toHaveBeenCalled();
  });

  it('still fetches and acknowledges a notification whose other parameters look odd (a 4xx is retried forever)', async () => {
    const seen: OrderUpdatedNotification[] = [];
    const onWarnings = vi.fn();
    const { fake, handler } = handlerOver({
      onWarnings,
      onOrderUpdated: (_order, notification) => void seen.push(notification),
    });
    const odd = `${callbackUrl(4)
      .replace('store_code=ACME', 'store_code=AC.ME')
      .replace(
        'order_reference=ACME-4',
        'order_reference=OTHER-4',
      )}&custom_reference=PO%0942&via_store_code=A%20B`;
    const pending = handler(new Request(odd));
    await tick();
    await fake.release();
    expect((await pending).status).toBe(204);
    expect(fake.calls.get(ref(4))).toBe(1);
    expect(seen[0]).toMatchObject({ environment: 'test', orderReferenceV2: ref(4) });
    // Values that failed their check are left out rather than passed on.
    for (const field of ['storeCode', 'customReference', 'viaStoreCode'] as const)
      expect(seen[0]).not.toHaveProperty(field);
    expect(onWarnings.mock.calls[0]![0].map((w: { parameter: string }) => w.parameter).sort()).toEqual(
      ['custom_reference', 'partner_code', 'store_code', 'via_store_code'].sort(),
    );
  });

  it('answers the other environment with 422, without a fetch', async () => {
    const fake = fakeClient();
    const handler = createOrderUpdatedHandler({
      client: fake.client,
      environment: 'prod',
      onOrderUpdated() {},
    });
    const response = await handler(new Request(callbackUrl(1, 'test')));
    expect(response.status).toBe(422);
    expect(((await response.json()) as { code: string }).code).toBe('wrong_environment');
    expect(fake.client.get).not.toHaveBeenCalled();
  });

  it('answers 500 when the fetch or onOrderUpdated fails, reporting the stage', async () => {
    const onError = vi.fn();
    let fail = true;
    const { fake, handler } = handlerOver({
      onError,
      onOrderUpdated() {
        if (fail) throw new Error('database down');
      },
    });
    fake.failNext();
    const first = handler(new Request(callbackUrl()));
    await tick();
    await fake.release();
    expect((await first).status).toBe(500);
    const second = handler(new Request(callbackUrl()));
    await tick();
    await fake.release();
    expect((await second).status).toBe(500);
    fail = false;
    const third = handler(new Request(callbackUrl()));
    await tick();
    await fake.release();
    expect((await third).status).toBe(204);
    expect(onError.mock.calls.map(([error, { stage }]) => [(error as Error).message, stage])).toEqual([
      ['upstream down', 'fetch'],
      ['database down', 'handle'],
    ]);
  });

  it('answers 500, never 2xx, when the order API answers without an order (a proxy, a wrong base URL)', async () => {
    // A 2xx body of `{}` was handed to onOrderUpdated as the order (undefined) and acknowledged with 204: the
    // service stopped retrying a notification nobody handled. `null` failed with a TypeError.
    for (const body of [{}, { order: null }, { order: 'x' }, null, [], '']) {
      const onError = vi.fn();
      const onOrderUpdated = vi.fn();
      const client = { get: async () => body } as unknown as OrderFetcher<FakeOrder>;
      const handler = createOrderUpdatedHandler<FakeOrder>({
        client,
        environment: 'test',
        onError,
        onOrderUpdated,
      });
      const response = await handler(new Request(callbackUrl()));
      expect(response.status, JSON.stringify(body)).toBe(500);
      expect(onOrderUpdated).not.toHaveBeenCalled();
      const [error, { stage }] = onError.mock.calls[0]!;
      expect(stage).toBe('fetch');
      expect(error).toBeInstanceOf(PartnerPrintError);
      expect(error).toMatchObject({ code: 'unexpected_response' });
    }
  });

  it('reports warnings through onWarnings and still handles the notification', async () => {
    const onWarnings = vi.fn();
    const { fake, handler } = handlerOver({
      onWarnings,
      onOrderUpdated() {},
    });
    const pending = handler(new Request(callbackUrl().replace('partner_code=ACME', 'partner_code=OTHER')));
    await tick();
    await fake.release();
    expect((await pending).status).toBe(204);
    expect(onWarnings.mock.calls[0]![0]).toEqual([expect.objectContaining({ code: 'alias_conflict' })]);
  });

  it('keeps a hook that rejects (an async onError or onWarnings) from the answer and from going unhandled', async () => {
    // An unhandled rejection ends a Node.js process by default: the receiver would go down with the hook.
    const unhandled = await unhandledDuring(async () => {
      // Plain functions: a vi.fn() would itself handle the promise it returns (it records how it settled).
      const calls = { onError: 0, onWarnings: 0 };
      const { fake, handler } = handlerOver({
        onError: async () => {
          calls.onError++;
          throw new Error('logger down');
        },
        onWarnings: () => {
          calls.onWarnings++;
          return Promise.reject(new Error('logger down'));
        },
        onOrderUpdated() {},
      });
      fake.failNext();
      const pending = handler(new Request(callbackUrl().replace('partner_code=ACME', 'partner_code=OTHER')));
      await tick();
      await fake.release();
      expect((await pending).status).toBe(500);
      expect(calls).toEqual({ onError: 1, onWarnings: 1 });
    });
    expect(unhandled).toEqual([]);
  });

  describe('coalescing', () => {
    it('runs one fetch per order in flight and exactly one follow-up for everything that arrived meanwhile', async () => {
      const versions: number[] = [];
      const { fake, handler } = handlerOver({
        onOrderUpdated: (order) => {
          versions.push(order.version);
        },
      });
      const first = handler(new Request(callbackUrl(1)));
      await tick();
      expect(fake.calls.get(ref(1))).toBe(1);
      const during = [1, 2, 3].map(() => handler(new Request(callbackUrl(1))));
      await tick();
      expect(fake.calls.get(ref(1))).toBe(1);
      await fake.release(); // first fetch done: the follow-up starts
      expect(fake.calls.get(ref(1))).toBe(2);
      let duringSettled = false;
      void Promise.all(during).then(() => {
        duringSettled = true;
      });
      expect((await first).status).toBe(204);
      await tick();
      expect(duringSettled).toBe(false); // they wait for the follow-up, not the first run
      await fake.release();
      for (const r of await Promise.all(during)) expect(r.status).toBe(204);
      expect(fake.calls.get(ref(1))).toBe(2);
      expect(versions).toEqual([1, 2]);
    });

    it('gives the follow-up the latest notification', async () => {
      const extras: string[] = [];
      const { fake, handler } = handlerOver({
        onOrderUpdated: (_order, n) => {
          extras.push(new URLSearchParams(n.extra).get('n') ?? '');
        },
      });
      const send = (n: string) => handler(new Request(callbackUrl(1, 'test', `?n=${n}`)));
      const all = [send('a')];
      await tick(); // the round for 'a' has started: 'b' and 'c' share the follow-up
      all.push(send('b'), send('c'));
      await tick();
      await fake.release();
      await fake.release();
      await Promise.all(all);
      expect(extras).toEqual(['a', 'c']);
    });

    it('lets notifications that arrive before a round starts share it', async () => {
      const extras: string[] = [];
      const { fake, handler } = handlerOver({
        onOrderUpdated: (_order, n) => {
          extras.push(new URLSearchParams(n.extra).get('n') ?? '');
        },
      });
      const all = ['a', 'b', 'c'].map((n) => handler(new Request(callbackUrl(1, 'test', `?n=${n}`))));
      await tick();
      await fake.release();
      expect((await Promise.all(all)).map((r) => r.status)).toEqual([204, 204, 204]);
      expect(fake.calls.get(ref(1))).toBe(1);
      expect(extras).toEqual(['c']);
    });

    it('does not let different orders wait on each other', async () => {
      const { fake, handler } = handlerOver({
        onOrderUpdated() {},
      });
      void handler(new Request(callbackUrl(1)));
      void handler(new Request(callbackUrl(2)));
      await tick();
      expect(fake.calls.get(ref(1))).toBe(1);
      expect(fake.calls.get(ref(2))).toBe(1);
      await fake.release();
    });

    it('answers every notification of a failed follow-up with 500, and starts fresh afterwards', async () => {
      const { fake, handler } = handlerOver({
        onOrderUpdated() {},
      });
      const first = handler(new Request(callbackUrl(1)));
      await tick();
      const during = [handler(new Request(callbackUrl(1))), handler(new Request(callbackUrl(1)))];
      await fake.release();
      fake.failNext();
      await fake.release();
      expect((await first).status).toBe(204);
      expect((await Promise.all(during)).map((r) => r.status)).toEqual([500, 500]);
      const later = handler(new Request(callbackUrl(1)));
      await tick();
      await fake.release();
      expect((await later).status).toBe(204);
      expect(fake.calls.get(ref(1))).toBe(3);
    });

    it('a storm of 1,000 notifications for 10 orders costs at most two fetches per order per burst', async () => {
      const handled = vi.fn();
      const { fake, handler } = handlerOver({
        onOrderUpdated: handled,
      });
      for (let burst = 1; burst <= 2; burst++) {
        const responses: Array<Promise<Response>> = [];
        for (let i = 0; i < 1000; i++) {
          responses.push(handler(new Request(callbackUrl(i % 10))));
          if (i % 97 === 0) await tick(); // spread arrivals across the first fetches
        }
        while (fake.total < burst * 20) {
          await fake.release();
          if (fake.total === 0) break;
        }
        await fake.release();
        const statuses = await Promise.all(responses.map((r) => r.then((x) => x.status)));
        expect(statuses.every((s) => s === 204)).toBe(true);
        for (let i = 0; i < 10; i++) expect(fake.calls.get(ref(i))).toBeLessThanOrEqual(2 * burst);
      }
      expect(fake.total).toBeLessThanOrEqual(40);
      expect(handled.mock.calls.length).toBe(fake.total);
    });
  });

  describe('timeoutMs', () => {
    /** A clock whose sleeps end only when the test says so. */
    function manualClock() {
      const sleepers: Array<{ ms: number; wake: () => void }> = [];
      return {
        now: () => 0,
        sleep: (ms: number, signal?: AbortSignal) =>
          new Promise<void>((resolve, reject) => {
            const sleeper = { ms, wake: resolve };
            sleepers.push(sleeper);
            signal?.addEventListener(
              'abort',
              () => {
                sleepers.splice(sleepers.indexOf(sleeper), 1);
                reject(signal.reason);
              },
              { once: true },
            );
          }),
        fire() {
          for (const s of sleepers.splice(0)) s.wake();
        },
        get pending() {
          return sleepers.map((s) => s.ms);
        },
      };
    }

    it('answers 500 when a round hangs, and lets the next notification start a fresh round', async () => {
      const clock = manualClock();
      const onError = vi.fn();
      let hang = true;
      const handled: number[] = [];
      const { fake, handler } = handlerOver({
        timeoutMs: 30_000,
        clock,
        onError,
        onOrderUpdated: (order) => (hang ? new Promise(() => {}) : void handled.push(order.version)), // the first never settles
      });
      const first = handler(new Request(callbackUrl(1)));
      await tick();
      await fake.release();
      expect(clock.pending).toEqual([30_000]);
      clock.fire();
      expect((await first).status).toBe(500);
      expect(onError.mock.calls[0]![1].stage).toBe('timeout');
      expect(onError.mock.calls[0]![0]).toBeInstanceOf(TimeoutError);

      hang = false;
      const second = handler(new Request(callbackUrl(1)));
      await tick();
      expect(fake.calls.get(ref(1))).toBe(2); // not queued behind the hung round
      await fake.release();
      expect((await second).status).toBe(204);
      expect(handled).toEqual([2]);
      expect(clock.pending).toEqual([]); // the finished round's timer was cancelled
    });

    it('drops a timed-out fetch that answers late, so an older order is never applied after a newer one', async () => {
      const clock = manualClock();
      const onError = vi.fn();
      const applied: number[] = [];
      const fetches: Array<{ signal: AbortSignal; answer: (version: number) => void }> = [];
      const client: OrderFetcher<FakeOrder> = {
        get: (_path, init) =>
          new Promise((resolve) => {
            // A fetch that ignores its signal and answers whenever the test says so.
            fetches.push({
              signal: init.signal!,
              answer: (version) =>
                resolve({ order: { reference: init.params.path.orderReference, version } }),
            });
          }),
      };
      const handler = createOrderUpdatedHandler({
        client,
        environment: 'test',
        timeoutMs: 5_000,
        clock,
        onError,
        onOrderUpdated: (order, _n, { signal }) => {
          expect(signal.aborted).toBe(false);
          applied.push(order.version);
        },
      });
      const first = handler(new Request(callbackUrl(1)));
      await tick();
      clock.fire(); // the first fetch hangs past timeoutMs
      expect((await first).status).toBe(500);
      expect(fetches[0]!.signal.aborted).toBe(true);
      expect(fetches[0]!.signal.reason).toBeInstanceOf(TimeoutError);

      const second = handler(new Request(callbackUrl(1)));
      await tick();
      fetches[1]!.answer(2);
      expect((await second).status).toBe(204);
      fetches[0]!.answer(1); // the old answer arrives last
      await tick();
      expect(applied).toEqual([2]);
      expect(onError.mock.calls.map((c) => c[1].stage)).toEqual(['timeout']);
    });

    it('refuses a timeout that is not a positive number', () => {
      expect(() =>
        handlerOver({
          timeoutMs: 0,
          onOrderUpdated() {},
        }),
      ).toThrow(TypeError);
    });
  });

  describe("acknowledge: 'immediately'", () => {
    it('answers 202 once enqueue accepted, without fetching; process() does the work later', async () => {
      const queue: OrderUpdatedNotification[] = [];
      const handled = vi.fn();
      const { fake, handler } = handlerOver({
        acknowledge: 'immediately',
        enqueue: (n) => {
          queue.push(n);
        },
        onOrderUpdated: handled,
      });
      const response = await handler(new Request(callbackUrl(3)));
      expect(response.status).toBe(202);
      expect(fake.client.get).not.toHaveBeenCalled();
      expect(JSON.parse(JSON.stringify(queue[0]))).toEqual(queue[0]); // queue-safe: plain data
      const processing = handler.process(queue[0]!);
      await tick();
      await fake.release();
      await processing;
      expect(handled).toHaveBeenCalledWith({ reference: ref(3), version: 1 }, queue[0], {
        signal: expect.any(AbortSignal),
      });
    });

    it('process() rejects without fetching when no onOrderUpdated was given', async () => {
      const queue: OrderUpdatedNotification[] = [];
      const { fake, handler } = handlerOver({
        acknowledge: 'immediately',
        enqueue: (n) => void queue.push(n),
      });
      expect((await handler(new Request(callbackUrl(5)))).status).toBe(202);
      await expect(handler.process(queue[0]!)).rejects.toThrow(/onOrderUpdated/);
      expect(fake.client.get).not.toHaveBeenCalled();
    });

    it('answers 500 when enqueue fails', async () => {
      const onError = vi.fn();
      const { handler } = handlerOver({
        acknowledge: 'immediately',
        enqueue: async () => {
          throw new Error('queue full');
        },
        onError,
      });
      expect((await handler(new Request(callbackUrl()))).status).toBe(500);
      expect(onError.mock.calls[0]![1].stage).toBe('enqueue');
    });

    it('still refuses bad requests before enqueueing', async () => {
      const enqueue = vi.fn();
      const { handler } = handlerOver({
        acknowledge: 'immediately',
        enqueue,
      });
      expect((await handler(new Request(callbackUrl(), { method: 'POST' }))).status).toBe(405);
      expect((await handler(new Request('https://partner.example/hook?environment=test'))).status).toBe(400);
      expect((await handler(new Request(callbackUrl(1, 'prod')))).status).toBe(422);
      expect(enqueue).not.toHaveBeenCalled();
    });
  });

  it('is a Workers-style module: handler.fetch is the handler', async () => {
    const { handler } = handlerOver({ onOrderUpdated() {} });
    const worker = { fetch: handler.fetch };
    expect((await worker.fetch(new Request(callbackUrl(), { method: 'POST' }))).status).toBe(405);
  });

  it('refuses an incomplete configuration at creation', () => {
    const client = fakeClient().client;
    // @ts-expect-error onOrderUpdated is required by default
    expect(() => createOrderUpdatedHandler({ client, environment: 'test' })).toThrow(TypeError);
    expect(() =>
      // @ts-expect-error enqueue is required with acknowledge: 'immediately'
      createOrderUpdatedHandler({ client, environment: 'test', acknowledge: 'immediately' }),
    ).toThrow(TypeError);
    expect(() =>
      // @ts-expect-error environment is 'prod' or 'test'
      createOrderUpdatedHandler({ client, environment: 'production', onOrderUpdated() {} }),
    ).toThrow(TypeError);
  });

  it('refuses an option it does not take, and an acknowledge it does not know, naming only the option', () => {
    // A misspelt option was ignored: `secretParameters: ['token']` (for secretParams) left the callback
    // URL's token unredacted in every notification handed to onOrderUpdated, onError and logs; `window` kept
    // the 1 s default; `acknowledge: 'immediate'` acknowledged after handling.
    const client = fakeClient().client;
    const base = { client, environment: 'test' as const, onOrderUpdated() {} };
    for (const [extra, name] of [
      [{ secretParameters: ['token'] }, 'secretParameters'],
      [{ window: 0 }, 'window'],
      [{ apiKey: 'sk_live_never_printed' }, 'apiKey'],
      [{ acknowledge: 'immediate' }, 'acknowledge'],
    ] as const) {
      const make = () => createOrderUpdatedHandler({ ...base, ...(extra as object) });
      expect(make).toThrow(TypeError);
      expect(make).toThrow(name);
      expect(make).not.toThrow('sk_live');
    }
    const everything = {
      ...base,
      acknowledge: 'after-handling' as const,
      onError() {},
      onWarnings() {},
      timeoutMs: 1000,
      windowMs: 0,
      secretParams: ['token'],
      clock: undefined,
      coalescer: undefined,
      telemetry: false as const,
    };
    expect(() => createOrderUpdatedHandler(everything)).not.toThrow();
  });
});
