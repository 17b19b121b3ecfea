// A partner's AbortSignal that is not the runtime's: the npm abort-controller polyfill's (an EventTarget with
// `aborted` and `reason`, kept by code written for runtimes without AbortController), or one of another realm.
// Node's fetch and Request take such a signal and follow it; the client refused it (`signal must be an
// AbortSignal`), so a partner could not stop a call with the signals the rest of their program uses. Every
// method and helper now takes it and stops as with the runtime's own; what is no signal is still refused.
import { describe, expect, it } from 'vitest';
import { AbortedError, ConfigurationError, createClient } from '../src/index.ts';
import { createClient as createLiteClient, createOrder, download, uploadImage } from '../src/lite.ts';
import { BASE, fakeFetch, json, KEY, testClock } from './fake.ts';
import { ADDRESS, samplePng } from './helpers.ts';

/** The shape of the npm abort-controller polyfill's signal: not `instanceof AbortSignal`. */
class PolyfillSignal extends EventTarget {
  aborted = false;
  reason: unknown;
  onabort: ((event: Event) => void) | null = null;
  throwIfAborted() {
    if (this.aborted) throw this.reason;
  }
}

class PolyfillController {
  readonly signal = new PolyfillSignal();
  abort(reason: unknown = new Error('aborted')) {
    if (this.signal.aborted) return;
    Object.assign(this.signal, { aborted: true, reason });
    this.signal.dispatchEvent(new Event('abort'));
  }
}

const polyfilled = () => new PolyfillController();

/** A fetch that never answers, but stops when the attempt's signal aborts; it counts what it was sent. */
function silent() {
  let sent = 0;
  let reached: () => void = () => {};
  const sending = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const fetch = (request: Request, init?: { signal: AbortSignal }) =>
    new Promise<Response>((_, reject) => {
      sent++;
      reached();
      const signal = init?.signal ?? request.signal;
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  return { fetch, sent: () => sent, sending };
}

const entries = [
  ['main entry, default scheduler', (o: object) => createClient({ ...o, secretKey: KEY, baseUrl: BASE })],
  [
    'main entry, rate limiting off',
    (o: object) => createClient({ ...o, secretKey: KEY, baseUrl: BASE, rateLimit: false }),
  ],
  ['lite entry', (o: object) => createLiteClient({ ...o, secretKey: KEY, baseUrl: BASE })],
] as const;

describe.each(entries)('a signal of a polyfill (%s)', (_name, create) => {
  it('stops a call it aborts mid-way with an AbortedError, its reason as cause', async () => {
    for (const call of [
      (c: ReturnType<typeof createLiteClient>, signal: unknown) => c.get('/orders', { signal } as never),
      (c: ReturnType<typeof createLiteClient>, signal: unknown) => c.GET('/orders', { signal } as never),
      (c: ReturnType<typeof createLiteClient>, signal: unknown) =>
        c.post('/orders', { body: { order: {} }, signal } as never),
    ]) {
      const { fetch, sent, sending } = silent();
      const client = create({ fetch, timeoutMs: 0 });
      const controller = polyfilled();
      const reason = new Error('user left');
      const pending = call(client, controller.signal).catch((e: unknown) => e);
      await sending;
      expect(sent()).toBe(1);
      controller.abort(reason);
      const error = await pending;
      expect(error).toBeInstanceOf(AbortedError);
      expect((error as AbortedError).cause).toBe(reason);
    }
  });

  it('sends nothing when it had aborted before the call began', async () => {
    const { fetch, sent } = silent();
    const client = create({ fetch });
    const controller = polyfilled();
    controller.abort(new Error('page closed'));
    const error = await client
      .get('/orders', { signal: controller.signal } as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortedError);
    expect((error as AbortedError).attempts ?? 0).toBe(0);
    expect(sent()).toBe(0);
  });

  it("stops a helper's own waits: download's wait for a 202, an upload's read of a stream", async () => {
    const controller = polyfilled();
    const { fetch } = fakeFetch(() => {
      // The file is not ready: download waits Retry-After, within the call's signal.
      queueMicrotask(() => controller.abort(new Error('closed')));
      return new Response(null, { status: 202, headers: { 'retry-after': '30' } });
    });
    const clock = { ...testClock(), sleep: (ms: number, signal?: AbortSignal) => realSleep(ms, signal) };
    const client = create({ fetch, clock });
    const waited = await download(client, '/renders/{renderReference}/media', {
      params: { path: { renderReference: 'Render_1' } },
      signal: controller.signal,
    } as never).catch((e: unknown) => e);
    expect(waited).toBeInstanceOf(AbortedError);

    const stalled = polyfilled();
    const png = samplePng();
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(png); // and never closes
      },
    });
    setTimeout(() => stalled.abort(new Error('cancelled')), 20);
    const upload = await uploadImage(client, stream, { signal: stalled.signal } as never).catch(
      (e: unknown) => e,
    );
    expect(upload).toBeInstanceOf(AbortedError);
  });

  it('createOrder under one that had aborted sends nothing', async () => {
    const { fetch, seen } = fakeFetch(() => json({}, 500));
    const client = create({ fetch });
    const controller = polyfilled();
    controller.abort(new Error('shutting down'));
    const order = {
      storeReference: 'Store_1',
      shippingKind: 'dropship',
      customIdentifier: 'shop-polyfill-1',
      dropshipAddress: ADDRESS,
      orderlines: [{ productReference: 'Product_1', quantity: 1 }],
    };
    const error = await createOrder(client, order as never, { signal: controller.signal } as never).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AbortedError);
    expect(seen).toHaveLength(0);
  });

  it('what is no signal is still refused before anything is sent', async () => {
    const { fetch, sent } = silent();
    const client = create({ fetch });
    for (const signal of [
      new AbortController(),
      polyfilled(),
      new EventTarget(),
      'abort',
      { aborted: false },
    ]) {
      const error = await client.get('/orders', { signal } as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(/signal must be an AbortSignal/);
    }
    expect(sent()).toBe(0);
  });
});

/** A sleep in real time that the signal ends (download's wait, aborted while it waits). */
const realSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
