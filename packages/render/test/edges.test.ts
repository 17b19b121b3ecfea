import { createClient } from '@partner-print/client';
import { describe, expect, it } from 'vitest';
import { unhandledDuring } from '../../../test-utils/unhandled.ts';
import {
  IncompatibleCompositionError,
  MemoryRenderStore,
  NotFoundError,
  PartnerPrintError,
  plan,
  type RenderProgressEvent,
  renderCacheKey,
  renderMany,
  renderMockup,
} from '../src/index.ts';
import { pngBytes, type Setup, setup, studioPrint } from './helpers.ts';

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

/**
 * A render of 100 s whose status polls' answers get `edit`ed headers (`now`: the sandbox's time): the waits
 * it announced between polls, the sandbox time it took, and its result.
 */
async function pollWaits(edit: (headers: Headers, now: number) => void) {
  const s = setup({ renderProcessingMs: 100_000 }, (request, sandbox) => {
    if (!/\/renders\/Render_[^/]+$/.test(new URL(request.url).pathname)) return undefined;
    return sandbox.fetch(request).then((response) => {
      const headers = new Headers(response.headers);
      edit(headers, sandbox.clock.now());
      return new Response(response.body, { status: response.status, headers });
    });
  });
  const { seed, clock } = s.sandbox;
  const image = await s.client.uploadImage(pngBytes());
  const started = clock.now();
  const waits: number[] = [];
  const result = await renderMockup(s.client, {
    ...studioPrint(seed),
    image,
    clock,
    onProgress: (e) => {
      if (e.type === 'waiting') waits.push(e.waitMs);
    },
  });
  return { waits, elapsed: clock.now() - started, result };
}

/** A plain store (no lease) holding `stale` for `key`; each `set` then calls `stored`. */
function holding(key: string, stale: string, stored: () => void) {
  const inner = new MemoryRenderStore();
  inner.set(key, stale);
  const store = {
    get: (k: string) => inner.get(k),
    set: (k: string, v: string) => {
      inner.set(k, v);
      stored();
    },
  };
  return { inner, store };
}

describe('renderMockup edges', () => {
  it('blocks a combination the lookup accepts when the scene refuses product perspectives, before spending', async () => {
    // A catalog in which the lookup and the scene disagree: the checks win, no token is spent.
    let sceneReference = '';
    const s = setup({}, (request) => {
      if (sceneReference && request.url.endsWith(`/scenes/${sceneReference}`)) {
        return json({
          scene: {
            reference: sceneReference,
            name: 'Studio',
            description: '',
            private: false,
            allowsProductPerspectives: false,
            compatibleProductgroups: [],
            perspectives: [],
          },
        });
      }
      return undefined;
    });
    const { seed, clock } = s.sandbox;
    sceneReference = seed.scenes.studio;
    const error = await renderMockup(s.client, {
      sceneReference,
      productReference: seed.products.print,
      perspectiveReference: seed.perspectives.productCloseup,
      image: await s.client.uploadImage(pngBytes()),
      clock,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IncompatibleCompositionError);
    expect(error).toMatchObject({ reason: 'product-perspective-not-allowed' });
    // Refused before any request could answer for it: no HTTP status.
    expect((error as IncompatibleCompositionError).status).toBeUndefined();
    expect(s.count('GET /lookup-composition')).toBe(1);
    expect(s.count('GET /rendertokens')).toBe(0);
    expect(s.count('POST /renders')).toBe(0);
  });

  it('skips the productgroup check with a warning when GET /products does not say', async () => {
    const s = setup({ renderProcessingMs: 1_000 }, (request) =>
      new URL(request.url).pathname.endsWith('/products')
        ? json({ products: [], nextCursor: null })
        : undefined,
    );
    const { seed, clock } = s.sandbox;
    const events: RenderProgressEvent[] = [];
    const result = await renderMockup(s.client, {
      ...studioPrint(seed),
      image: await s.client.uploadImage(pngBytes()),
      clock,
      onProgress: (e) => events.push(e),
    });
    expect(result.render.status).toBe('completed');
    expect(events).toContainEqual(expect.objectContaining({ type: 'warning', code: 'productgroup-unknown' }));
  });

  it('honours a Retry-After on the status poll that is longer than the interval', async () => {
    const { waits, elapsed, result } = await pollWaits((headers) => headers.set('Retry-After', '90'));
    expect(result.render.status).toBe('completed');
    // 100 s of rendering: polls at 0 and 90 s (pending), then 180 s (completed).
    expect(waits).toEqual([90_000, 90_000]);
    expect(elapsed).toBe(180_000);
  });

  it('reads a Retry-After date on the status poll against the answer’s Date, not this host’s clock', async () => {
    // The service's clock an hour ahead of this host's: its date is 90 s after its own Date.
    const { waits } = await pollWaits((headers, now) => {
      const at = now + 3_600_000;
      headers.set('Date', new Date(at).toUTCString());
      headers.set('Retry-After', new Date(at + 90_000).toUTCString());
    });
    expect(waits).toEqual([90_000, 90_000]);
  });

  it('keeps the interval when a Retry-After is shorter', async () => {
    const { waits } = await pollWaits((headers) => headers.set('Retry-After', '5'));
    expect(waits).toEqual([60_000, 60_000]);
  });

  it('a call for a render whose poll loop was abandoned polls no sooner than the interval after the last poll', async () => {
    // A queue retrying a job bounded by timeoutMs: each call used to poll the same render at once, every 25 s.
    const s = setup({ renderProcessingMs: 200_000 });
    const { seed, clock } = s.sandbox;
    const polls: number[] = [];
    const client = new Proxy(s.client, {
      get: (target, name, receiver) =>
        name === 'get'
          ? (path: string, init: unknown) => {
              if (path === '/renders/{renderReference}') polls.push(clock.now());
              return (target.get as (p: string, i: unknown) => unknown)(path, init);
            }
          : Reflect.get(target, name, receiver),
    });
    const job = { ...studioPrint(seed), image: await s.client.uploadImage(pngBytes()), clock };
    const start = clock.now();
    for (let i = 0; i < 4; i++) {
      await expect(renderMockup(client, { ...job, timeoutMs: 25_000 })).rejects.toThrow('timeoutMs');
    }
    const result = await renderMockup(client, job);
    expect(result.render.status).toBe('completed');
    expect(polls.map((t) => (t - start) / 1000)).toEqual([0, 60, 120, 180, 240]);
    expect(s.count('POST /renders')).toBe(1);
  });

  it('a 2xx answer without its resource is an SDK error (unexpected_response), not a TypeError', async () => {
    for (const path of ['/lookup-composition', '/rendertokens', '/renders']) {
      const s = setup({}, (request) =>
        new URL(request.url).pathname === `/v2${path}` ? json({}) : undefined,
      );
      const { seed, clock } = s.sandbox;
      const error = await renderMockup(s.client, {
        ...studioPrint(seed),
        image: await s.client.uploadImage(pngBytes()),
        clock,
      }).catch((e: unknown) => e);
      expect(error, path).toBeInstanceOf(PartnerPrintError);
      expect(error, path).toMatchObject({ code: 'unexpected_response' });
    }
  });

  it('renders anew when a stored render reference is unknown to the service', async () => {
    const s = setup({ renderProcessingMs: 1_000 });
    const { seed, clock } = s.sandbox;
    const image = await s.client.uploadImage(pngBytes());
    const store = new MemoryRenderStore();
    const key = renderCacheKey(seed.compositions.available, image);
    store.set(key, 'Render_0000000000000000000000000X');
    const events: RenderProgressEvent[] = [];
    const result = await renderMockup(s.client, {
      ...studioPrint(seed),
      image,
      clock,
      cache: store,
      onProgress: (e) => events.push(e),
    });
    expect(result.render.status).toBe('completed');
    expect(store.get(key)).toBe(result.render.reference);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'warning', code: 'cached-render-missing' }),
    );
    expect(s.count('POST /renders')).toBe(1);
  });

  // The fresh render after a stale reference never looked in the store again: a call that had read the stale
  // reference just before another paid for the new one paid a second time, in one process (both calls of one
  // client) and across processes sharing a plain store (two clients).
  it('pays once for a stale stored reference found by two calls of one client', async () => {
    const STALE = 'Render_0000000000000000000000000X';
    let releasePost = () => {};
    const postGate = new Promise<void>((resolve) => {
      releasePost = resolve;
    });
    let stored = () => {};
    const newStored = new Promise<void>((resolve) => {
      stored = resolve;
    });
    let stalePolls = 0;
    const s = setup({ renderProcessingMs: 1_000 }, (request, sandbox) => {
      const path = new URL(request.url).pathname;
      if (request.method === 'POST' && path.endsWith('/renders'))
        return postGate.then(() => sandbox.fetch(request));
      // The second call's poll of the stale reference answers once the first call has stored the new one.
      if (path.endsWith(`/renders/${STALE}`) && ++stalePolls === 2)
        return newStored.then(() => sandbox.fetch(request));
      return undefined;
    });
    const { seed, clock } = s.sandbox;
    const image = await s.client.uploadImage(pngBytes());
    const key = renderCacheKey(seed.compositions.available, image);
    const { inner, store } = holding(key, STALE, () => stored());
    const options = { ...studioPrint(seed), image, clock, cache: store, pollIntervalMs: 1_000 };
    let second: Promise<{ tokensSpent: number; render: { reference: string } }> | undefined;
    const first = await renderMockup(s.client, {
      ...options,
      onProgress: (e) => {
        // The second call starts while the first one's new render is being paid for.
        if (e.type === 'warning' && e.code === 'cached-render-missing')
          second ??= renderMockup(s.client, {
            ...options,
            onProgress: (b) => {
              if (b.type === 'cache-hit' || b.type === 'joined') releasePost();
            },
          });
      },
    });
    const other = await second;
    expect(other?.render.reference).toBe(first.render.reference);
    expect(first.tokensSpent + (other?.tokensSpent ?? 0)).toBe(1);
    expect(s.count('POST /renders')).toBe(1);
    expect(inner.get(key)).toBe(first.render.reference);
  });

  it('pays once for a stale reference two clients found in the store they share', async () => {
    const STALE = 'Render_0000000000000000000000000X';
    let stored = () => {};
    const newStored = new Promise<void>((resolve) => {
      stored = resolve;
    });
    let stalePolls = 0;
    // The second poll of the stale reference (by whichever client polls it second) answers once the other
    // client has stored the new one.
    const intercept = (request: Request, sandbox: Setup['sandbox']) =>
      new URL(request.url).pathname.endsWith(`/renders/${STALE}`) && ++stalePolls === 2
        ? newStored.then(() => sandbox.fetch(request))
        : undefined;
    const s = setup({ renderProcessingMs: 1_000 }, intercept);
    const { seed, clock } = s.sandbox;
    const other = createClient({
      secretKey: s.sandbox.keys.primary,
      baseUrl: s.sandbox.baseUrl,
      clock,
      fetch: (request: Request) => Promise.resolve(intercept(request, s.sandbox) ?? s.sandbox.fetch(request)),
    });
    const image = await s.client.uploadImage(pngBytes());
    const key = renderCacheKey(seed.compositions.available, image);
    const { store } = holding(key, STALE, () => stored());
    const options = { ...studioPrint(seed), image, clock, cache: store, pollIntervalMs: 1_000 };
    const [a, b] = await Promise.all([renderMockup(s.client, options), renderMockup(other, options)]);
    expect(b.render.reference).toBe(a.render.reference);
    expect(a.tokensSpent + b.tokensSpent).toBe(1);
    expect((await s.client.get('/rendertokens')).rendertokens.used).toBe(1);
  });

  it('does not pay again when a known render exists but its media answers 404', async () => {
    let mediaGone = false;
    const s = setup({ renderProcessingMs: 1_000 }, (request) =>
      mediaGone && request.url.endsWith('/media')
        ? new Response(JSON.stringify({ code: 'not_found', message: 'No media' }), {
            status: 404,
            headers: { 'Content-Type': 'application/json' },
          })
        : undefined,
    );
    const { seed, clock } = s.sandbox;
    const options = { ...studioPrint(seed), image: await s.client.uploadImage(pngBytes()), clock };
    const first = await renderMockup(s.client, options);
    mediaGone = true;
    const events: RenderProgressEvent[] = [];
    const error = await renderMockup(s.client, { ...options, onProgress: (e) => events.push(e) }).catch(
      (e: unknown) => e,
    );
    // GET /renders/{ref} knows the render: a new POST would return the same render and cost tokens again.
    expect(error).toBeInstanceOf(NotFoundError);
    expect(events).toContainEqual({ type: 'cache-hit', renderReference: first.render.reference });
    expect(events).not.toContainEqual(expect.objectContaining({ code: 'cached-render-missing' }));
    expect(s.count('POST /renders')).toBe(1);
    const tokens = await s.client.get('/rendertokens');
    expect(tokens.rendertokens.used).toBe(1);
  });

  it('reuses catalog reads across calls and does not repeat the lookup', async () => {
    const s = setup({ renderProcessingMs: 1_000 });
    const { seed, clock } = s.sandbox;
    const query = {
      ...studioPrint(seed),
      clock,
    };
    await renderMockup(s.client, { ...query, image: await s.client.uploadImage(pngBytes(1)) });
    const before = s.requests.length;
    await renderMockup(s.client, { ...query, image: await s.client.uploadImage(pngBytes(2)) });
    const second = s.requests.slice(before);
    expect(second.filter((r) => /lookup-composition|\/scenes\/|\/perspectives\/|\/products/.test(r))).toEqual(
      [],
    );
  });

  it('stops waiting for tokens when the signal aborts', async () => {
    const s = setup({ rendertokenLimit: 0 });
    const { seed, clock } = s.sandbox;
    const controller = new AbortController();
    s.sandbox.control.setRendertokenLimit(1);
    const image = await s.client.uploadImage(pngBytes());
    await renderMockup(s.client, {
      ...studioPrint(seed),
      image,
      clock,
      pollIntervalMs: 1_000,
    }).catch(() => undefined);
    const started = clock.now();
    const pending = renderMockup(s.client, {
      ...studioPrint(seed),
      image: await s.client.uploadImage(pngBytes(9)),
      clock,
      waitForTokens: true,
      signal: controller.signal,
      onProgress: (e) => {
        if (e.type === 'waiting-for-tokens') controller.abort(new Error('cancelled'));
      },
    });
    await expect(pending).rejects.toThrow('cancelled');
    expect(clock.now()).toBe(started);
  });

  // A queue's job cancelled before it started (its signal already aborted): the batch spent catalog reads of the
  // `default` bucket (the lookups and the products scan, which run for every caller) before it rejected.
  it.each([
    [
      'renderMockup',
      (s: ReturnType<typeof setup>, signal: AbortSignal) =>
        renderMockup(s.client, {
          ...studioPrint(s.sandbox.seed),
          image: pngBytes(),
          clock: s.sandbox.clock,
          signal,
        }),
    ],
    [
      'plan',
      (s: ReturnType<typeof setup>, signal: AbortSignal) =>
        plan(s.client, [{ ...studioPrint(s.sandbox.seed), image: pngBytes() }], {
          clock: s.sandbox.clock,
          signal,
        }),
    ],
    [
      'renderMany',
      (s: ReturnType<typeof setup>, signal: AbortSignal) =>
        renderMany(s.client, [{ ...studioPrint(s.sandbox.seed), image: pngBytes() }], {
          clock: s.sandbox.clock,
          signal,
        }),
    ],
  ] as const)(
    '%s with a signal already aborted rejects with its reason and sends nothing',
    async (_name, call) => {
      const s = setup();
      const reason = new Error('cancelled before it started');
      await expect(call(s, AbortSignal.abort(reason))).rejects.toBe(reason);
      expect(s.requests).toEqual([]);
    },
  );
});

describe('listeners', () => {
  it('keeps an onProgress that rejects (an async listener) from the render and from going unhandled', async () => {
    // An unhandled rejection ends a Node.js process by default.
    const unhandled = await unhandledDuring(async () => {
      const s = setup({ renderProcessingMs: 1_000 });
      const { seed, clock } = s.sandbox;
      let heard = 0;
      const failing = async () => {
        heard++;
        throw new Error('listener down');
      };
      const result = await renderMockup(s.client, {
        ...studioPrint(seed),
        image: await s.client.uploadImage(pngBytes()),
        clock,
        onProgress: failing,
      });
      expect(result.render.status).toBe('completed');
      const batch = await renderMany(
        s.client,
        [{ ...studioPrint(seed), image: await s.client.uploadImage(pngBytes(1)) }],
        { clock, onProgress: failing },
      );
      expect(batch.results.map((r) => r.status)).toEqual(['fulfilled']);
      expect(heard).toBeGreaterThan(10);
    });
    expect(unhandled).toEqual([]);
  });
});

describe('option values', () => {
  it('refuses a bad value with an error naming the option, before any request', async () => {
    const s = setup();
    const { seed, clock } = s.sandbox;
    const job = { ...studioPrint(seed), image: 'Image_00000000000000000000000000' };
    const bad: Array<[string, Record<string, unknown>]> = [
      ['pollIntervalMs', { pollIntervalMs: Number.POSITIVE_INFINITY }],
      ['pollIntervalMs', { pollIntervalMs: Number.NaN }],
      ['pollIntervalMs', { pollIntervalMs: 0 }],
      ['timeoutMs', { timeoutMs: Number.NaN }],
      ['timeoutMs', { timeoutMs: -1 }],
      ['catalogTtlMs', { catalogTtlMs: Number.NaN }],
      ['catalogTtlMs', { catalogTtlMs: -1 }],
    ];
    for (const [name, option] of bad) {
      await expect(renderMockup(s.client, { ...job, clock, ...option }), name).rejects.toThrow(
        new RegExp(`^${name} `),
      );
    }
    for (const concurrency of [Number.NaN, 0, -2, 1.5, Number.POSITIVE_INFINITY]) {
      await expect(plan(s.client, [job], { clock, concurrency }), `${concurrency}`).rejects.toThrow(
        /^concurrency /,
      );
      await expect(renderMany(s.client, [job], { clock, concurrency }), `${concurrency}`).rejects.toThrow(
        /^concurrency /,
      );
    }
    expect(s.requests).toEqual([]);
  });

  it('refuses an option it does not take, before any request (a typo was ignored)', async () => {
    // `timeout: 60_000` (for timeoutMs) left the call unbounded, `pollInterval` polled every 60 s, and
    // `waitForToken: true` threw RendertokenLimitError where the caller asked to wait.
    const s = setup();
    const { seed, clock } = s.sandbox;
    const job = { ...studioPrint(seed), image: 'Image_00000000000000000000000000' };
    for (const typo of ['timeout', 'pollInterval', 'waitForToken', 'apiKey']) {
      const option = { [typo]: 1 } as never;
      const message = new RegExp(`^unknown option "${typo}"`);
      await expect(renderMockup(s.client, { ...job, clock, ...(option as object) }), typo).rejects.toThrow(
        message,
      );
      await expect(plan(s.client, [job], { clock, ...(option as object) }), typo).rejects.toThrow(message);
      await expect(renderMany(s.client, [job], { clock, ...(option as object) }), typo).rejects.toThrow(
        message,
      );
    }
    expect(s.requests).toEqual([]);
    // What each documents is taken (the job's fields on renderMockup, concurrency on a batch).
    await expect(
      plan(s.client, [job], {
        clock,
        concurrency: 2,
        cache: false,
        checkCompatibility: false,
      }),
    ).resolves.toBeDefined();
    expect(s.requests.length).toBeGreaterThan(0);
  });
});
