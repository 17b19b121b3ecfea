import { describe, expect, it } from 'vitest';
import { withinStallFree } from '../../../test-utils/stall.ts';
import {
  CompositionNotFoundError,
  CompositionUnavailableError,
  GoneError,
  IncompatibleCompositionError,
  MemoryRenderStore,
  NotFoundError,
  RenderFailedError,
  type RenderProgressEvent,
  RenderTimeoutError,
  RendertokenLimitError,
  renderMockup,
  TimeoutError,
} from '../src/index.ts';
import { lifestylePoster, pngBytes, setup, studioPrint } from './helpers.ts';

const MINUTE = 60_000;

async function uploaded(s: ReturnType<typeof setup>, variant = 0) {
  const reference = await s.client.uploadImage(pngBytes(variant));
  s.requests.length = 0;
  return reference;
}

describe('renderMockup against the sandbox', () => {
  it('renders a mockup: lookup, checks, tokens, one POST, polls every 60 s, two downloads', async () => {
    const s = setup({ renderProcessingMs: 90_000 });
    const { seed, clock } = s.sandbox;
    const image = await uploaded(s);
    const events: RenderProgressEvent[] = [];
    const started = clock.now();
    const result = await renderMockup(s.client, {
      ...studioPrint(seed),
      image,
      clock,
      onProgress: (e) => events.push(e),
    });

    expect(result.composition).toMatchObject({ reference: seed.compositions.available, tokenCost: 1 });
    expect(result.render).toMatchObject({ status: 'completed', imageReference: image });
    expect(result.tokensSpent).toBe(1);
    expect(result.media.mimeType).toBe('image/png');
    expect(result.media.bytes.byteLength).toBe(result.render.media!.size);
    expect([...result.media.bytes.slice(1, 4)]).toEqual([80, 78, 71]);
    expect(result.thumbnail.bytes.byteLength).toBe(result.render.thumbnail!.size);
    expect(result.placeholder).toMatch(/^data:image\/png;base64,/);

    // 90 s of rendering at a 60 s interval: polls at 0, 60 and 120 s.
    expect(s.count('GET /renders/') - 2).toBe(3);
    expect(clock.now() - started).toBe(2 * MINUTE);
    expect(s.count('GET /lookup-composition')).toBe(1);
    expect(s.count('GET /rendertokens')).toBe(1);
    expect(s.count('POST /renders')).toBe(1);
    expect(s.requests.filter((r) => /\/(media|thumbnail)$/.test(r))).toHaveLength(2);
    expect(events.map((e) => e.type)).toEqual([
      'composition',
      'checked',
      'image',
      'tokens',
      'submitted',
      'poll',
      'waiting',
      'poll',
      'waiting',
      'poll',
      'download',
      'completed',
    ]);
    const tokens = await s.client.get('/rendertokens');
    expect(tokens.rendertokens.used).toBe(1);
  });

  it('uploads image bytes first, once per content', async () => {
    const s = setup({ renderProcessingMs: 10_000 });
    const { seed, clock } = s.sandbox;
    const options = {
      ...studioPrint(seed),
      image: pngBytes(3),
      clock,
    };
    const first = await renderMockup(s.client, options);
    const second = await renderMockup(s.client, { ...options, image: pngBytes(3) });
    expect(first.imageReference).toMatch(/^Image_/);
    expect(second.imageReference).toBe(first.imageReference);
    expect(s.count('POST /images')).toBe(1);
    // The second call reused the render: no tokens check, no POST.
    expect(s.count('POST /renders')).toBe(1);
    expect(second.tokensSpent).toBe(0);
  });

  it('turns 404 into CompositionNotFoundError and 410 into CompositionUnavailableError', async () => {
    const s = setup();
    const { seed, clock } = s.sandbox;
    const image = await uploaded(s);
    const notFound = renderMockup(s.client, {
      sceneReference: seed.scenes.studio,
      productReference: seed.products.nonPrint,
      perspectiveReference: seed.perspectives.studioAngled,
      image,
      clock,
    });
    await expect(notFound).rejects.toBeInstanceOf(CompositionNotFoundError);
    await expect(notFound).rejects.toBeInstanceOf(NotFoundError);
    await expect(notFound).rejects.toMatchObject({ status: 404 });

    const gone = renderMockup(s.client, {
      sceneReference: seed.scenes.lifestyle,
      productReference: seed.products.print,
      perspectiveReference: seed.perspectives.lifestyleWide,
      image,
      clock,
    });
    await expect(gone).rejects.toBeInstanceOf(CompositionUnavailableError);
    await expect(gone).rejects.toBeInstanceOf(GoneError);
    await expect(gone).rejects.toThrow(/catalog object is deprecated/);
    expect(s.count('POST /renders')).toBe(0);
    expect(s.count('GET /rendertokens')).toBe(0);
  });

  it('explains a product perspective on a scene that does not allow them', async () => {
    const s = setup();
    const { seed, clock } = s.sandbox;
    const image = await uploaded(s);
    const error = await renderMockup(s.client, {
      ...seed.missingCombination,
      image,
      clock,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IncompatibleCompositionError);
    expect(error).toBeInstanceOf(CompositionNotFoundError);
    expect(error).toMatchObject({ reason: 'product-perspective-not-allowed' });
    expect((error as Error).message).toMatch(/does not allow product perspectives/);
    expect((error as Error).message).toContain(seed.perspectives.lifestyleWide);
    expect(s.count('POST /renders')).toBe(0);
  });

  it('explains a product whose productgroup the scene does not take', async () => {
    const s = setup();
    const { seed, clock } = s.sandbox;
    const image = await uploaded(s);
    const error = await renderMockup(s.client, {
      sceneReference: seed.scenes.private,
      productReference: seed.products.poster,
      perspectiveReference: seed.perspectives.privateFront,
      image,
      clock,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IncompatibleCompositionError);
    expect(error).toMatchObject({ reason: 'productgroup-not-compatible' });
    expect((error as Error).message).toContain(seed.productgroups.posters);
    expect((error as Error).message).toContain(`productgroupReference=${seed.productgroups.posters}`);
  });

  it('renders through a product perspective on a scene that allows them', async () => {
    const s = setup({ renderProcessingMs: 1_000 });
    const { seed, clock } = s.sandbox;
    const result = await renderMockup(s.client, {
      sceneReference: seed.scenes.studio,
      productReference: seed.products.print,
      perspectiveReference: seed.perspectives.productCloseup,
      image: await uploaded(s),
      clock,
    });
    expect(result.composition).toMatchObject({
      reference: seed.compositions.productPerspective,
      tokenCost: 2,
    });
    expect(result.tokensSpent).toBe(2);
  });

  it('throws RendertokenLimitError with resetsAt when too few tokens remain, spending nothing', async () => {
    const s = setup({ rendertokenLimit: 4 });
    const { seed, clock } = s.sandbox;
    const error = await renderMockup(s.client, {
      ...lifestylePoster(seed),
      image: await uploaded(s),
      clock,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RendertokenLimitError);
    const e = error as RendertokenLimitError & { required: number; remaining: number };
    // The sandbox starts on Monday 2026-11-16 09:00 UTC: the reset is the next Monday 00:00 CET.
    expect(e.resetsAt?.toISOString()).toBe('2026-11-22T23:00:00.000Z');
    expect(e).toMatchObject({ required: 5, remaining: 4, code: 'rendertoken_limit_exceeded' });
    expect(s.count('POST /renders')).toBe(0);
  });

  it('waits for the weekly reset with waitForTokens, then renders', async () => {
    const s = setup({ rendertokenLimit: 6, renderProcessingMs: 30_000 });
    const { seed, clock } = s.sandbox;
    const image = await uploaded(s);
    const query = {
      ...lifestylePoster(seed),
      clock,
    };
    await renderMockup(s.client, { ...query, image }); // 5 of 6 spent
    const other = await uploaded(s, 1);
    const events: RenderProgressEvent[] = [];
    const result = await renderMockup(s.client, {
      ...query,
      image: other,
      waitForTokens: true,
      onProgress: (e) => events.push(e),
    });
    const waited = events.find((e) => e.type === 'waiting-for-tokens');
    expect(waited).toMatchObject({ resetsAt: new Date('2026-11-22T23:00:00.000Z') });
    expect(Date.parse(result.render.created)).toBeGreaterThanOrEqual(Date.parse('2026-11-22T23:00:00.000Z'));
    expect(result.tokensSpent).toBe(5);
  });

  it('gives up with RenderTimeoutError when the reset comes after timeoutMs', async () => {
    const s = setup({ rendertokenLimit: 1, renderProcessingMs: 1_000 });
    const { seed, clock } = s.sandbox;
    const query = {
      ...studioPrint(seed),
      clock,
    };
    await renderMockup(s.client, { ...query, image: await uploaded(s) });
    const started = clock.now();
    const error = await renderMockup(s.client, {
      ...query,
      image: await uploaded(s, 1),
      waitForTokens: true,
      timeoutMs: 60 * MINUTE,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderTimeoutError);
    expect((error as Error).message).toMatch(/reset at 2026-11-22T23:00:00.000Z/);
    expect(clock.now()).toBe(started);
  });

  it('does not wait when the weekly limit itself is below the cost', async () => {
    const s = setup({ rendertokenLimit: 3 });
    const { seed, clock } = s.sandbox;
    const error = await renderMockup(s.client, {
      ...lifestylePoster(seed),
      image: await uploaded(s),
      clock,
      waitForTokens: true,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RendertokenLimitError);
    expect((error as Error).message).toMatch(/waiting for the reset cannot help/);
  });

  it('throws RenderFailedError for a failed render, and renders anew on the next call', async () => {
    const s = setup({ renderProcessingMs: 120_000 });
    const { seed, clock, control } = s.sandbox;
    const image = await uploaded(s);
    const options = {
      ...studioPrint(seed),
      image,
      clock,
    };
    const failing = renderMockup(s.client, {
      ...options,
      onProgress: (e) => {
        if (e.type === 'submitted') control.failRender(e.renderReference);
      },
    });
    const error = await failing.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderFailedError);
    expect((error as RenderFailedError).render.status).toBe('failed');

    const retried = await renderMockup(s.client, options);
    expect(retried.render.status).toBe('completed');
    expect(retried.render.reference).not.toBe((error as RenderFailedError).render.reference);
  });

  it('waits out a 202 + Retry-After on the media download', async () => {
    let answered202 = 0;
    // The status can say completed a moment before the file is served: the service then answers 202.
    const s = setup({ renderProcessingMs: 60_000 }, (request) => {
      if (request.url.endsWith('/media') && answered202 === 0) {
        answered202++;
        return new Response(null, { status: 202, headers: { 'Retry-After': '7' } });
      }
      return undefined;
    });
    const { seed, clock } = s.sandbox;
    const image = await uploaded(s);
    const started = clock.now();
    const result = await renderMockup(s.client, {
      ...studioPrint(seed),
      image,
      clock,
    });
    expect(answered202).toBe(1);
    expect(result.media.bytes.byteLength).toBe(result.render.media!.size);
    expect(s.requests.filter((r) => r.endsWith('/media'))).toHaveLength(2);
    // Polls at 0 and 60 s, then the 7 s Retry-After of the media.
    expect(clock.now() - started).toBe(60_000 + 7_000);
  });

  it('bounds the wait for a 202 media by timeoutMs, as it bounds the polls', async () => {
    // The file stays 202 after the status said completed: timeoutMs still ends the call on time.
    const s = setup({ renderProcessingMs: 60_000 }, (request) =>
      request.url.endsWith('/media')
        ? new Response(null, { status: 202, headers: { 'Retry-After': '30' } })
        : undefined,
    );
    const { seed, clock } = s.sandbox;
    const image = await uploaded(s);
    const started = clock.now();
    const error = await renderMockup(s.client, {
      ...studioPrint(seed),
      image,
      clock,
      timeoutMs: 2 * MINUTE,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderTimeoutError);
    expect((error as RenderTimeoutError).renderReference).toMatch(/^Render_/);
    expect(clock.now() - started).toBe(2 * MINUTE);
    // Polls at 0 and 60 s; the media at 60, 90 and 120 s... until the deadline, and no further.
    expect(s.requests.filter((r) => r.endsWith('/media')).length).toBeLessThanOrEqual(3);
  });

  it('gives up on a file still 202 ten minutes after the render completed, without timeoutMs', async () => {
    const s = setup({ renderProcessingMs: 60_000 }, (request) =>
      request.url.endsWith('/thumbnail')
        ? new Response(null, { status: 202, headers: { 'Retry-After': '60' } })
        : undefined,
    );
    const { seed, clock } = s.sandbox;
    const image = await uploaded(s);
    const started = clock.now();
    const error = await renderMockup(s.client, { ...studioPrint(seed), image, clock }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/thumbnail .* still not ready/);
    expect(clock.now() - started).toBe(60_000 + 10 * MINUTE);
  });

  it('waits at least a second after a 202 whose Retry-After is 0', async () => {
    let answered202 = 0;
    const s = setup({ renderProcessingMs: 60_000 }, (request) => {
      if (request.url.endsWith('/media') && answered202 < 3) {
        answered202++;
        return new Response(null, { status: 202, headers: { 'Retry-After': '0' } });
      }
      return undefined;
    });
    const { seed, clock } = s.sandbox;
    const image = await uploaded(s);
    const started = clock.now();
    const result = await renderMockup(s.client, { ...studioPrint(seed), image, clock });
    expect(result.media.bytes.byteLength).toBe(result.render.media!.size);
    expect(answered202).toBe(3);
    // Polls at 0 and 60 s, then three 202s each followed by a one-second wait, not a loop of requests.
    expect(clock.now() - started).toBe(60_000 + 3 * 1_000);
  });

  it('stops waiting when the signal aborts during polling; the render goes on', async () => {
    const s = setup({ renderProcessingMs: 10 * MINUTE });
    const { seed, clock } = s.sandbox;
    const controller = new AbortController();
    const reason = new Error('user navigated away');
    let polls = 0;
    const error = await renderMockup(s.client, {
      ...studioPrint(seed),
      image: await uploaded(s),
      clock,
      signal: controller.signal,
      onProgress: (e) => {
        if (e.type === 'poll' && ++polls === 2) controller.abort(reason);
      },
    }).catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(s.count('GET /renders/')).toBe(2);
    expect(s.count('POST /renders')).toBe(1);
  });

  it('sends no POST once every caller left before it was sent (aborted or past timeoutMs)', async () => {
    // "A POST once sent is allowed to finish": one not yet sent must not spend tokens for nobody.
    const s = setup({ renderProcessingMs: 1_000 });
    const { seed, clock } = s.sandbox;
    const controller = new AbortController();
    const reason = new Error('user navigated away');
    const aborted = await renderMockup(s.client, {
      ...studioPrint(seed),
      image: await uploaded(s, 1),
      clock,
      signal: controller.signal,
      onProgress: (e) => {
        if (e.type === 'tokens') controller.abort(reason);
      },
    }).catch((e: unknown) => e);
    expect(aborted).toBe(reason);

    // The rendertokens read takes 10 s of the 5 s the call may take.
    const slow = setup({ renderProcessingMs: 1_000 }, (request, sandbox) => {
      if (!request.url.endsWith('/rendertokens')) return undefined;
      return sandbox.control.advance(10_000).then(() => sandbox.fetch(request));
    });
    const timedOut = await renderMockup(slow.client, {
      ...studioPrint(slow.sandbox.seed),
      image: await uploaded(slow, 2),
      clock: slow.sandbox.clock,
      timeoutMs: 5_000,
    }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(RenderTimeoutError);

    await new Promise((r) => setTimeout(r, 10));
    for (const setup of [s, slow]) {
      expect(setup.count('POST /renders')).toBe(0);
      expect((await setup.client.get('/rendertokens')).rendertokens.used).toBe(0);
    }
  });

  // timeoutMs was checked after a request answered, never while it hung: a status poll, a file download, the
  // rendertokens read or the lookup that did not answer ended only at the client's own timeout (30 s a try, tries
  // again), as its TimeoutError. Here the client gives each request 10 s of real time and one try; the call's 5 s
  // of the virtual clock are armed once a request has gone 1 s of real time without an answer.
  it.each([
    ['the status poll', (path: string) => /\/renders\/Render_\w+$/.test(path), true],
    ['the media download', (path: string) => path.endsWith('/media'), true],
    ['the rendertokens read', (path: string) => path.endsWith('/rendertokens'), true],
    ['the composition lookup', (path: string) => path.endsWith('/lookup-composition'), false],
  ])(
    'ends at timeoutMs with RenderTimeoutError while %s hangs',
    async (_, hangs, owned) => {
      const aborted: unknown[] = [];
      const ends: (() => void)[] = [];
      let hung = 0;
      const s = setup(
        { renderProcessingMs: 0 },
        (request) => {
          if (!hangs(new URL(request.url).pathname)) return undefined;
          hung += 1;
          return new Promise<Response>((_resolve, reject) => {
            ends.push(() => reject(new Error('the test is over')));
            request.signal.addEventListener('abort', () => {
              aborted.push(request.signal.reason);
              reject(request.signal.reason);
            });
          });
        },
        { timeoutMs: 10_000, retry: false },
      );
      const { seed, clock } = s.sandbox;
      const image = await uploaded(s);
      const started = clock.now();
      const error = await withinStallFree(
        renderMockup(s.client, { ...studioPrint(seed), image, clock, timeoutMs: 5_000 }).catch(
          (e: unknown) => e,
        ),
        8_000,
      );
      expect(error).toBeInstanceOf(RenderTimeoutError);
      expect(clock.now() - started).toBe(5_000);
      expect(hung).toBe(1);
      // A request of the call's own is aborted (a lookup is the catalog's, shared with other calls: left to finish).
      await new Promise((r) => setTimeout(r, 10));
      expect(aborted).toHaveLength(owned ? 1 : 0);
      expect(s.count('POST /renders')).toBe(owned && hangs('/v2/rendertokens') ? 0 : owned ? 1 : 0);
      for (const end of ends) end();
    },
    30_000,
  );

  it('ends at timeoutMs while its POST /renders hangs, and stores the render once the POST answers', async () => {
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    let postSignal: AbortSignal | undefined;
    const s = setup(
      { renderProcessingMs: 0 },
      (request, sandbox) => {
        if (request.method !== 'POST' || !request.url.endsWith('/renders')) return undefined;
        postSignal = request.signal;
        return answered.then(() => sandbox.fetch(request));
      },
      { timeoutMs: 10_000, retry: false },
    );
    const { seed, clock } = s.sandbox;
    const image = await uploaded(s);
    let stored = () => {};
    const inStore = new Promise<void>((resolve) => {
      stored = resolve;
    });
    const inner = new MemoryRenderStore();
    const cache = {
      get: (key: string) => inner.get(key),
      set: (key: string, value: string) => {
        inner.set(key, value);
        stored();
      },
    };
    const started = clock.now();
    const error = await withinStallFree(
      renderMockup(s.client, { ...studioPrint(seed), image, clock, cache, timeoutMs: 5_000 }).catch(
        (e: unknown) => e,
      ),
      8_000,
    );
    expect(error).toBeInstanceOf(RenderTimeoutError);
    expect(clock.now() - started).toBe(5_000);
    // The POST sent is not cancelled: it finishes and its render is stored, for the next call to take unpaid.
    expect(postSignal?.aborted).toBe(false);
    answer();
    await inStore;
    const again = await renderMockup(s.client, { ...studioPrint(seed), image, clock, cache });
    expect(again.tokensSpent).toBe(0);
    expect(s.count('POST /renders')).toBe(1);
  }, 30_000);

  it('stops with RenderTimeoutError after timeoutMs of polling', async () => {
    const s = setup({ renderProcessingMs: 10 * MINUTE });
    const { seed, clock } = s.sandbox;
    const started = clock.now();
    const error = await renderMockup(s.client, {
      ...studioPrint(seed),
      image: await uploaded(s),
      clock,
      timeoutMs: 150_000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderTimeoutError);
    expect((error as RenderTimeoutError).renderReference).toMatch(/^Render_/);
    expect((error as Error).message).toMatch(/without paying again/);
    expect(clock.now() - started).toBe(150_000);
  });

  it('spends tokens once for ten concurrent calls with the same composition and image', async () => {
    const s = setup({ renderProcessingMs: 90_000 });
    const { seed, clock } = s.sandbox;
    const image = await uploaded(s);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        renderMockup(s.client, {
          ...studioPrint(seed),
          image,
          clock,
        }),
      ),
    );
    expect(new Set(results.map((r) => r.render.reference)).size).toBe(1);
    expect(results.reduce((sum, r) => sum + r.tokensSpent, 0)).toBe(1);
    expect(s.count('POST /renders')).toBe(1);
    expect(s.count('GET /rendertokens')).toBe(1);
    expect(s.count('GET /lookup-composition')).toBe(1);
    expect(s.count('GET /renders/') - 2).toBe(3);
    const tokens = await s.client.get('/rendertokens');
    expect(tokens.rendertokens.used).toBe(1);
  });

  it('reuses a render from a pluggable store across clients without paying again', async () => {
    const s = setup({ renderProcessingMs: 1_000 });
    const { seed, clock } = s.sandbox;
    const image = await uploaded(s);
    const store = new MemoryRenderStore();
    const options = {
      ...studioPrint(seed),
      image,
      clock,
      cache: store,
    };
    await renderMockup(s.client, options);
    expect(store.size).toBe(1);
    // A second client (e.g. another process) with the same store.
    const again = setup({ renderProcessingMs: 1_000 });
    const second = await renderMockup(s.client, options);
    expect(second.tokensSpent).toBe(0);
    expect(s.count('POST /renders')).toBe(1);
    expect(again).toBeDefined();
  });

  it('uploads once and renders once for ten concurrent calls with the same image bytes', async () => {
    const s = setup({ renderProcessingMs: 30_000 });
    const { seed, clock } = s.sandbox;
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        renderMockup(s.client, {
          ...studioPrint(seed),
          image: pngBytes(5),
          clock,
        }),
      ),
    );
    expect(new Set(results.map((r) => r.imageReference)).size).toBe(1);
    expect(s.count('POST /images')).toBe(1);
    expect(s.count('POST /renders')).toBe(1);
  });

  it('works on real time with the default clock', async () => {
    const s = setup({ clock: 'real', renderProcessingMs: 40 });
    const { seed } = s.sandbox;
    const started = Date.now();
    const result = await renderMockup(s.client, {
      ...studioPrint(seed),
      image: await uploaded(s),
      pollIntervalMs: 25,
    });
    expect(result.render.status).toBe('completed');
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    s.sandbox.close();
  });
});
