import { TimeoutError } from '@partner-print/client';
import { describe, expect, it } from 'vitest';
import { withinStallFree } from '../../../test-utils/stall.ts';
import { unhandledDuring } from '../../../test-utils/unhandled.ts';
import {
  type BatchProgressEvent,
  CompositionUnavailableError,
  MemoryRenderStore,
  plan,
  type RenderJob,
  type RenderLease,
  type RenderProgressEvent,
  type RenderStore,
  renderCacheKey,
  renderMany,
  renderMockup,
} from '../src/index.ts';
import { lifestylePoster, pngBytes, setup, studioPrint } from './helpers.ts';

/** A mockup call (5 s deadline) whose store grants the lease only when `grant` is called, after the deadline. */
async function lateLease(s: ReturnType<typeof setup>) {
  const { seed, clock } = s.sandbox;
  const image = await s.client.uploadImage(pngBytes(1));
  let grant!: (lease: RenderLease) => void;
  const store: RenderStore = {
    get: () => null,
    set: () => {},
    lease: () => new Promise((resolve) => (grant = resolve)),
  };
  const call = renderMockup(s.client, { ...studioPrint(seed), image, clock, cache: store, timeoutMs: 5_000 });
  return { call, grant: (lease: RenderLease) => grant(lease) };
}

describe('plan', () => {
  it('counts each distinct composition + image once and says what fits before the reset', async () => {
    const s = setup({ rendertokenLimit: 8 });
    const { seed, clock } = s.sandbox;
    const a = await s.client.uploadImage(pngBytes(1));
    const b = await s.client.uploadImage(pngBytes(2));
    const studio = {
      ...studioPrint(seed),
    }; // 1 token
    const expensive = {
      ...lifestylePoster(seed),
    }; // 5 tokens
    const jobs: RenderJob[] = [
      { ...studio, image: a }, // 0: 1
      { ...studio, image: a }, // 1: repeat of 0
      { ...expensive, image: a }, // 2: 5 (total 6)
      { ...expensive, image: b }, // 3: 5 — does not fit (6 + 5 > 8)
      { ...studio, image: b }, // 4: 1 — still fits (7)
      { ...studio, image: pngBytes(7) }, // 5: bytes, 1 (total 8)
      { ...studio, image: pngBytes(7) }, // 6: the same bytes: a repeat of 5 by content
      {
        sceneReference: seed.scenes.lifestyle,
        productReference: seed.products.print,
        perspectiveReference: seed.perspectives.lifestyleWide,
        image: a,
      }, // 7: 410
    ];
    s.requests.length = 0;
    const p = await plan(s.client, jobs, { clock });
    expect(p.remaining).toBe(8);
    expect(p.resetsAt.toISOString()).toBe('2026-11-22T23:00:00.000Z');
    expect(p.totalCost).toBe(1 + 5 + 5 + 1 + 1);
    expect(p.fits.map((j) => j.index)).toEqual([0, 1, 2, 4, 5, 6]);
    expect(p.fitsCost).toBe(8);
    expect(p.deferred.map((j) => j.index)).toEqual([3]);
    expect(p.fits[1]).toMatchObject({ duplicateOf: 0, cost: 0 });
    expect(p.fits[5]).toMatchObject({ duplicateOf: 5, cost: 0, imageKey: expect.stringMatching(/^Image_/) });
    expect(p.rejected.map((j) => j.index)).toEqual([7]);
    expect(p.rejected[0]!.error).toBeInstanceOf(CompositionUnavailableError);
    // Nothing spent; the bytes uploaded once (the studio print has Image_ references too), one lookup per
    // distinct combination.
    expect(s.count('POST /renders')).toBe(0);
    expect(s.count('POST /images')).toBe(1);
    expect(s.count('GET /lookup-composition')).toBe(3);
    expect(s.count('GET /rendertokens')).toBe(1);
  });

  it('counts bytes and the Image_ reference of those bytes as one image; never two different images as one', async () => {
    const s = setup({ rendertokenLimit: 1 });
    const { seed, clock } = s.sandbox;
    const reference = await s.client.uploadImage(pngBytes());
    const jobs: RenderJob[] = [
      { ...studioPrint(seed), image: pngBytes() },
      { ...studioPrint(seed), image: reference },
    ];
    s.requests.length = 0;
    const p = await plan(s.client, jobs, { clock });
    expect(p.totalCost).toBe(1);
    expect(p.deferred).toEqual([]);
    expect(p.fits[1]).toMatchObject({ duplicateOf: 0, cost: 0, imageKey: reference });
    // The plan learnt the bytes' reference by uploading them once; the renders share that upload and one POST.
    expect(s.count('POST /images')).toBe(1);
    const { results } = await renderMany(s.client, jobs, { clock });
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(s.count('POST /images')).toBe(1);
    expect(s.count('POST /renders')).toBe(1);

    // Other bytes are another image, and bytes whose upload fails stay apart: counted twice, never once.
    const t = setup();
    const tokens = { clock: t.sandbox.clock };
    const image = await t.client.uploadImage(pngBytes());
    const other = await plan(
      t.client,
      [
        { ...studioPrint(seed), image: pngBytes(3) },
        { ...studioPrint(seed), image },
      ],
      tokens,
    );
    expect(other.totalCost).toBe(2);
    t.sandbox.control.injectFault({
      path: '/images',
      method: 'POST',
      kind: 'status',
      status: 503,
      count: 20,
    });
    const failed = await plan(
      t.client,
      [
        { ...studioPrint(seed), image: pngBytes() },
        { ...studioPrint(seed), image },
      ],
      tokens,
    );
    expect(failed.totalCost).toBe(2);
    expect(failed.rejected).toEqual([]);
    t.sandbox.control.clearFaults();
    expect(
      await plan(
        t.client,
        failed.fits.map((j) => j.job),
        tokens,
      ),
    ).toMatchObject({ totalCost: 1 });
  });

  it('counts renders already in the store as free', async () => {
    const s = setup();
    const { seed, clock } = s.sandbox;
    const image = await s.client.uploadImage(pngBytes(1));
    const store = new MemoryRenderStore();
    store.set(renderCacheKey(seed.compositions.available, image), 'Render_00000000000000000000000000');
    const p = await plan(
      s.client,
      [
        {
          ...studioPrint(seed),
          image,
        },
      ],
      { clock, cache: store },
    );
    expect(p.totalCost).toBe(0);
    expect(p.fits[0]).toMatchObject({ cached: true, cost: 0 });
  });

  // renderMockup reuses only a Render_ reference from the store (anything else, another tool's value or a
  // cut-off one, is not a render: it pays for one); plan counted any value as free, and under-counted.
  it('counts a store value that is not a render reference as not cached, as renderMockup does', async () => {
    const s = setup();
    const { seed, clock } = s.sandbox;
    const image = await s.client.uploadImage(pngBytes(1));
    const store = new MemoryRenderStore();
    for (const value of ['Render_0000', 'not a render', 'Image_00000000000000000000000000']) {
      store.set(renderCacheKey(seed.compositions.available, image), value);
      const p = await plan(s.client, [{ ...studioPrint(seed), image }], { clock, cache: store });
      expect(p.fits[0], value).toMatchObject({ cached: false });
      expect(p.totalCost, value).toBeGreaterThan(0);
    }
  });
});

describe('renderMany', () => {
  it('renders what fits with a concurrency limit, defers the rest, and reports progress', async () => {
    const s = setup({ rendertokenLimit: 3, renderProcessingMs: 60_000 });
    const { seed, clock } = s.sandbox;
    const images = await Promise.all([1, 2, 3, 4, 5].map((v) => s.client.uploadImage(pngBytes(v))));
    const studio = {
      ...studioPrint(seed),
    };
    const jobs: RenderJob[] = [
      ...images.map((image) => ({ ...studio, image })),
      { ...studio, image: images[0]! },
    ];
    const events: BatchProgressEvent[] = [];
    let running = 0;
    let maxRunning = 0;
    const { plan: p, results } = await renderMany(s.client, jobs, {
      clock,
      concurrency: 2,
      onProgress: (e) => {
        events.push(e);
        if (e.type === 'job' && e.event.type === 'image') maxRunning = Math.max(maxRunning, ++running);
        if (e.type === 'settled') running = Math.max(0, running - 1);
      },
    });
    expect(p.fits.map((j) => j.index)).toEqual([0, 1, 2, 5]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'deferred',
      'deferred',
      'fulfilled',
    ]);
    expect(maxRunning).toBeLessThanOrEqual(2);
    expect(s.count('POST /renders')).toBe(3);
    // The plan read the tokens once; jobs that fit go straight to POST.
    expect(s.count('GET /rendertokens')).toBe(1);
    const settled = events.filter((e) => e.type === 'settled');
    expect(settled).toHaveLength(6);
    expect(settled.at(-1)).toMatchObject({ done: 6, total: 6 });
    expect(events[0]).toMatchObject({ type: 'planned' });
    const deferred = results[3];
    expect(deferred).toMatchObject({ status: 'deferred', resetsAt: new Date('2026-11-22T23:00:00.000Z') });
  });

  it('runs the deferred jobs after the reset with waitForTokens', async () => {
    const s = setup({ rendertokenLimit: 1, renderProcessingMs: 1_000 });
    const { seed, clock } = s.sandbox;
    const images = await Promise.all([1, 2].map((v) => s.client.uploadImage(pngBytes(v))));
    const jobs = images.map((image) => ({
      ...studioPrint(seed),
      image,
    }));
    const { results } = await renderMany(s.client, jobs, { clock, waitForTokens: true });
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    const second = results[1]!;
    if (second.status !== 'fulfilled') throw new Error('expected a render');
    expect(Date.parse(second.value.render.created)).toBeGreaterThanOrEqual(
      Date.parse('2026-11-22T23:00:00Z'),
    );
  });
});

// The contract of an abort: before the plan is made (the `planned` event) nothing is spent, and the batch
// rejects whole with the signal's reason; from then on it resolves, every job that finished before the abort
// with its result, every other job rejected with the signal's reason; a render paid for goes on in the service
// and the next run of its job picks it up without paying again.
describe('renderMany aborted', () => {
  const PATH = /^(\w+) \/v2(\/[^?]*)/;
  function aborting(
    lands: (request: string, s: ReturnType<typeof setup>) => boolean,
    reason: unknown = new Error('stopped by the partner'),
  ) {
    const controller = new AbortController();
    const s: ReturnType<typeof setup> = setup({ renderProcessingMs: 60_000 }, (request) => {
      const [, method, path] = PATH.exec(`${request.method} ${new URL(request.url).pathname}`)!;
      if (!controller.signal.aborted && lands(`${method} ${path}`, s)) controller.abort(reason);
      return undefined;
    });
    return { s, signal: controller.signal, reason };
  }

  it.each([
    ['a catalog read', (r: string) => r.startsWith('GET /lookup-composition'), undefined],
    // A partner's queue cancelling with an error of the client's (or a TypeError): the plan took it for the
    // job's own failure, rejected that job alone, and went on to render the others.
    [
      'a catalog read, the reason a PartnerPrintError',
      (r: string) => r.startsWith('GET /lookup-composition'),
      new TimeoutError('the queue gave up on the batch'),
    ],
    [
      'a catalog read, the reason a TypeError',
      (r: string) => r.startsWith('GET /lookup-composition'),
      new TypeError('cancelled'),
    ],
    ['the rendertokens read', (r: string) => r === 'GET /rendertokens', undefined],
    ['an upload of the plan', (r: string) => r === 'POST /images', undefined],
  ] as const)('while planning (%s): rejects with the reason, nothing spent', async (_phase, lands, given) => {
    const { s, signal, reason } = aborting(lands, given);
    const { seed, clock } = s.sandbox;
    // The second job's Image_ reference makes the plan upload the first job's bytes to learn theirs.
    const reference = await s.client.uploadImage(pngBytes(5));
    s.requests.length = 0;
    const jobs: RenderJob[] = [
      { ...studioPrint(seed), image: pngBytes(1) },
      { ...studioPrint(seed), image: reference },
    ];
    const events: BatchProgressEvent[] = [];
    await expect(
      renderMany(s.client, jobs, { clock, signal, onProgress: (e) => events.push(e) }),
    ).rejects.toBe(reason);
    expect(signal.aborted).toBe(true);
    expect(events).toEqual([]);
    expect(s.count('POST /renders')).toBe(0);
  });

  // The catalog known already and no bytes to upload: the plan waits on the rendertokens read alone, whose
  // client call rejected with its AbortedError rather than the signal's reason.
  it('while planning (the rendertokens read alone): rejects with the reason', async () => {
    const controller = new AbortController();
    const reason = new Error('stopped by the partner');
    let reads = 0;
    const s = setup({}, (request, sandbox) => {
      if (!request.url.endsWith('/rendertokens') || ++reads < 2) return undefined;
      // Answered only after the abort, which lands once everything else of the plan is done (a macrotask).
      setTimeout(() => controller.abort(reason));
      return new Promise((resolve) =>
        controller.signal.addEventListener('abort', () => resolve(sandbox.fetch(request))),
      );
    });
    const { seed, clock } = s.sandbox;
    const jobs: RenderJob[] = [{ ...studioPrint(seed), image: await s.client.uploadImage(pngBytes(1)) }];
    await plan(s.client, jobs, { clock });
    await expect(renderMany(s.client, jobs, { clock, signal: controller.signal })).rejects.toBe(reason);
    expect(s.count('POST /renders')).toBe(0);
  });

  // The rendertokens read long answered: the plan took a TypeError reason for the second job's own failure and
  // resolved, the batch then rendering nothing yet resolving.
  it('while planning (a later catalog read, the reason a TypeError): rejects with the reason', async () => {
    const reason = new TypeError('cancelled');
    const { s, signal } = aborting(
      (r, t) => r.startsWith('GET /lookup-composition') && t.count(r) === 2,
      reason,
    );
    const { seed, clock } = s.sandbox;
    const jobs: RenderJob[] = [
      { ...studioPrint(seed), image: pngBytes(1) },
      { ...lifestylePoster(seed), image: pngBytes(1) },
    ];
    await expect(renderMany(s.client, jobs, { clock, signal, concurrency: 1 })).rejects.toBe(reason);
    await expect(plan(s.client, jobs, { clock, signal, concurrency: 1 })).rejects.toBe(reason);
    expect(s.count('POST /renders')).toBe(0);
  });

  const secondJob = (s: ReturnType<typeof setup>) => s.count('POST /renders') === 2;
  it.each([
    [
      'its upload',
      (r: string, s: ReturnType<typeof setup>) => r === 'POST /images' && s.count('POST /images') === 2,
      1,
    ],
    [
      'its POST /renders',
      (r: string, s: ReturnType<typeof setup>) => r === 'POST /renders' && secondJob(s),
      2,
    ],
    [
      'its status poll',
      (r: string, s: ReturnType<typeof setup>) => /^GET \/renders\/\w+$/.test(r) && secondJob(s),
      2,
    ],
    [
      'its file download',
      (r: string, s: ReturnType<typeof setup>) => r.endsWith('/media') && secondJob(s),
      2,
    ],
  ] as const)(
    'while a job runs (%s): resolves with what finished, the rest rejected with the reason',
    async (_phase, lands, paid) => {
      const { s, signal, reason } = aborting(lands);
      const { seed, clock } = s.sandbox;
      const jobs: RenderJob[] = [1, 2, 3].map((v) => ({ ...studioPrint(seed), image: pngBytes(v) }));
      const settled: BatchProgressEvent[] = [];
      const { results } = await renderMany(s.client, jobs, {
        clock,
        signal,
        concurrency: 1,
        onProgress: (e) => e.type === 'settled' && settled.push(e),
      });
      expect(signal.aborted).toBe(true);
      expect(results[0]).toMatchObject({ status: 'fulfilled', value: { tokensSpent: 1 } });
      // A job whose POST was sent (in flight at the abort, or answered) says which render it paid for.
      const paidFor = { renderReference: expect.stringMatching(/^Render_/), tokensSpent: 1 };
      expect(results.slice(1)).toEqual([
        { status: 'rejected', reason, ...(paid === 2 ? paidFor : {}) },
        { status: 'rejected', reason },
      ]);
      expect(settled).toHaveLength(3);
      expect(s.count('POST /renders')).toBe(paid);
      // A render paid for before the abort is not paid again: the next run of its job picks it up.
      const again = await renderMany(s.client, [jobs[1]!], { clock });
      expect(again.results[0]).toMatchObject({
        status: 'fulfilled',
        value: { tokensSpent: paid === 2 ? 0 : 1 },
      });
      expect(s.count('POST /renders')).toBe(2);
    },
  );

  it('after the plan: deferred jobs stay deferred; with waitForTokens, one waiting for the reset is rejected', async () => {
    const { s, signal, reason } = aborting((r) => /^GET \/renders\/\w+$/.test(r));
    const { seed, clock } = s.sandbox;
    s.sandbox.control.setRendertokenLimit(1);
    const jobs: RenderJob[] = [1, 2].map((v) => ({ ...studioPrint(seed), image: pngBytes(v) }));
    const { results } = await renderMany(s.client, jobs, { clock, signal });
    expect(results).toEqual([
      { status: 'rejected', reason, renderReference: expect.stringMatching(/^Render_/), tokensSpent: 1 },
      { status: 'deferred', resetsAt: expect.any(Date) },
    ]);

    const t = setup({ rendertokenLimit: 1, renderProcessingMs: 1_000 });
    const controller = new AbortController();
    const waiting = await renderMany(t.client, jobs, {
      clock: t.sandbox.clock,
      signal: controller.signal,
      waitForTokens: true,
      onProgress: (e) => {
        if (e.type === 'job' && e.event.type === 'waiting-for-tokens') controller.abort(reason);
      },
    });
    expect(waiting.results).toEqual([
      { status: 'fulfilled', value: expect.objectContaining({ tokensSpent: 1 }) },
      { status: 'rejected', reason },
    ]);
    expect(t.count('POST /renders')).toBe(1);
  });
});

// A Blob (a File, Node's fs.openAsBlob) was read once to hash it, again for the plan's upload, and again when its
// job rendered: a file that changed in between gave other bytes than the plan counted, or could not be read
// (a NotReadableError), and a large one was read into memory three times.
describe('images given as a Blob', () => {
  class CountedBlob extends Blob {
    reads = 0;
    override stream() {
      this.reads++;
      return super.stream();
    }
    override arrayBuffer() {
      this.reads++;
      return super.arrayBuffer();
    }
    override bytes() {
      this.reads++;
      return super.bytes();
    }
  }
  /** A Blob whose first read gives `bytes`, and every later one fails as a file that changed does. */
  class ChangingFile extends CountedBlob {
    override stream() {
      if (this.reads > 0) throw new DOMException('The blob could not be read', 'NotReadableError');
      return super.stream();
    }
  }

  it('are read once by plan and once by renderMany, and rendered from the bytes read', async () => {
    const s = setup({ rendertokenLimit: 10 });
    const { seed, clock } = s.sandbox;
    const reference = await s.client.uploadImage(pngBytes(5));
    const blob = () => new CountedBlob([pngBytes(1).slice()], { type: 'image/png' });
    // The first job's bytes are uploaded by the plan (another job gives its composition an Image_ reference).
    const jobs: RenderJob[] = [
      { ...studioPrint(seed), image: blob() },
      { ...studioPrint(seed), image: reference },
      { ...lifestylePoster(seed), image: blob() },
    ];
    const reads = () => jobs.map((j) => (j.image instanceof CountedBlob ? j.image.reads : 0));
    const p = await plan(s.client, jobs, { clock });
    expect(reads()).toEqual([1, 0, 1]);
    expect(p.totalCost).toBe(1 + 1 + 5);

    for (const job of jobs) if (job.image instanceof CountedBlob) job.image.reads = 0;
    const { results } = await renderMany(s.client, jobs, { clock });
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(reads()).toEqual([1, 0, 1]);

    const file = new ChangingFile([pngBytes(2).slice()], { type: 'image/png' });
    const changed = await renderMany(s.client, [{ ...studioPrint(seed), image: file }], { clock });
    expect(changed.results[0]).toMatchObject({ status: 'fulfilled' });
    expect(file.reads).toBe(1);
  });

  it('given twice in one batch, is read once', async () => {
    const s = setup();
    const { seed, clock } = s.sandbox;
    const image = new CountedBlob([pngBytes(1).slice()], { type: 'image/png' });
    const jobs: RenderJob[] = [
      { ...studioPrint(seed), image },
      { ...lifestylePoster(seed), image },
    ];
    const { results } = await renderMany(s.client, jobs, { clock });
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(image.reads).toBe(1);
  });
});

// The plan asked the render store about each job one after another, and waited for it without a bound: a store
// that answered slowly (a loaded Redis) made the plan as slow as all its reads together, and one that did not
// answer (a client queueing commands while Redis is down) held the batch past its abort and its timeoutMs.
describe('a render store that is slow or does not answer', () => {
  const hung = () => new Promise<never>(() => {});
  it('reads it for the jobs side by side, each (composition, image) once', async () => {
    const s = setup();
    const { seed, clock } = s.sandbox;
    const images = await Promise.all([1, 2, 3, 4, 5].map((v) => s.client.uploadImage(pngBytes(v))));
    let reading = 0;
    let most = 0;
    const keys: string[] = [];
    const store = {
      async get(key: string) {
        keys.push(key);
        most = Math.max(most, ++reading);
        await new Promise((resolve) => setTimeout(resolve, 5));
        reading--;
        return null;
      },
      set: () => {},
    };
    const jobs: RenderJob[] = [...images, images[0]!].map((image) => ({ ...studioPrint(seed), image }));
    const p = await plan(s.client, jobs, { clock, cache: store, concurrency: 3 });
    expect(p.totalCost).toBe(5);
    expect(most).toBe(3);
    expect(keys).toHaveLength(5);
  });

  it('warns of a store read that failed, as renderMockup does, and counts the render as not known', async () => {
    const s = setup();
    const { seed, clock } = s.sandbox;
    const image = await s.client.uploadImage(pngBytes(1));
    const down = { get: () => Promise.reject(new Error('Redis is unreachable')), set: () => {} };
    const warnings: string[] = [];
    const onProgress = (e: RenderProgressEvent) => {
      if (e.type === 'warning') warnings.push(`${e.code}: ${e.message}`);
    };
    const p = await plan(s.client, [{ ...studioPrint(seed), image }], { clock, cache: down, onProgress });
    expect(p.totalCost).toBe(1);
    expect(p.fits[0]!.cached).toBe(false);
    expect(warnings).toEqual([
      'cache-read-failed: The render store failed to read: Error: Redis is unreachable',
    ]);
  });

  it('stops at its abort while the store does not answer', async () => {
    const s = setup();
    const { seed, clock } = s.sandbox;
    const jobs: RenderJob[] = [{ ...studioPrint(seed), image: await s.client.uploadImage(pngBytes(1)) }];
    const controller = new AbortController();
    const reason = new Error('stopped by the partner');
    const aborting = {
      get: () => {
        controller.abort(reason);
        return hung();
      },
      set: () => {},
    };
    // Bounded by 2 s the process could run (test-utils/stall.ts), not 2 s of the wall: a starved process
    // (this file runs beside busy cores in pnpm test) may not run at all for seconds.
    await expect(
      withinStallFree(
        renderMany(s.client, jobs, { clock, cache: aborting, signal: controller.signal }),
        2_000,
      ),
    ).rejects.toBe(reason);
  });

  // What the README says of a store that does not answer: the call waits for it until its signal aborts.
  it('holds renderMockup until its abort, which then rejects with the reason', async () => {
    const s = setup();
    const { seed, clock } = s.sandbox;
    const image = await s.client.uploadImage(pngBytes(1));
    const controller = new AbortController();
    const reason = new Error('stopped by the partner');
    const store = {
      get: () => {
        setTimeout(() => controller.abort(reason), 20);
        return hung();
      },
      set: () => {},
    };
    const call = renderMockup(s.client, {
      ...studioPrint(seed),
      image,
      clock,
      cache: store,
      signal: controller.signal,
    });
    await expect(call).rejects.toBe(reason);
    expect(s.count('POST /renders')).toBe(0);
  });

  // A store of the partner's own that leases (their Redis) and is down: its lease() rejected, and every render
  // failed with it, where a store read that fails counts as empty. Renders go on without the lease, as
  // RedisRenderStore's do when Redis is unreachable: only the sharing across processes is lost.
  it('renders without the lease when its lease() fails, with a lease-failed warning', async () => {
    const s = setup({ renderProcessingMs: 1_000 });
    const { seed, clock } = s.sandbox;
    const image = await s.client.uploadImage(pngBytes(1));
    const inner = new MemoryRenderStore();
    const store = {
      get: (key: string) => inner.get(key),
      set: (key: string, value: string) => inner.set(key, value),
      lease: () => Promise.reject(new Error('Redis is unreachable')),
    };
    const warnings: string[] = [];
    const result = await renderMockup(s.client, {
      ...studioPrint(seed),
      image,
      clock,
      cache: store,
      onProgress: (e) => e.type === 'warning' && warnings.push(`${e.code}: ${e.message}`),
    });
    expect(result.tokensSpent).toBe(1);
    expect(warnings).toEqual(['lease-failed: The render store failed to lease: Error: Redis is unreachable']);
    expect(inner.size).toBe(1);
    // The reference was stored: the next call pays nothing.
    expect(
      (await renderMockup(s.client, { ...studioPrint(seed), image, clock, cache: store })).tokensSpent,
    ).toBe(0);
    expect(s.count('POST /renders')).toBe(1);
  });
});

// A lease's release() that threw synchronously made the call reject with its error although the render was paid
// for and stored; one that never settled held the call (until timeoutMs, then a RenderTimeoutError; without it,
// for ever). The release is cleanup: its failure is a lease-failed warning, and the call goes on with its render.
describe('a lease whose release() fails or never settles', { timeout: 30_000 }, () => {
  const never = new Promise<never>(() => {});
  const releases: [string, () => Promise<void> | void, number | undefined][] = [
    [
      'throws',
      () => {
        throw new Error('store exploded');
      },
      undefined,
    ],
    ['rejects', () => Promise.reject(new Error('store rejected')), undefined],
    ['never settles, without timeoutMs', () => never, undefined],
    ['never settles, with timeoutMs', () => never, 600_000],
  ];
  it.each(releases)(
    'a release that %s leaves the call its render, with a warning',
    async (_, release, timeoutMs) => {
      const s = setup({ renderProcessingMs: 1_000 });
      const { seed, clock } = s.sandbox;
      const image = await s.client.uploadImage(pngBytes(1));
      const inner = new MemoryRenderStore();
      let released = 0;
      const store: RenderStore = {
        get: (key) => inner.get(key),
        set: (key, value) => inner.set(key, value),
        lease: async () => ({
          acquired: true,
          release: () => {
            released += 1;
            return release();
          },
        }),
      };
      const warnings: string[] = [];
      const started = clock.now();
      const result = await withinStallFree(
        renderMockup(s.client, {
          ...studioPrint(seed),
          image,
          clock,
          cache: store,
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
          onProgress: (e) => e.type === 'warning' && warnings.push(e.code),
        }).catch((e: unknown) => e),
        4_000,
      );
      expect(result).toMatchObject({ tokensSpent: 1, render: { status: 'completed' } });
      // The render took its 1 s and one poll interval, not the deadline's 10 minutes.
      expect(clock.now() - started).toBe(60_000);
      expect(released).toBe(1);
      expect(warnings).toEqual(['lease-failed']);
      expect(inner.size).toBe(1);
      const again = await renderMockup(s.client, { ...studioPrint(seed), image, clock, cache: store });
      expect(again.tokensSpent).toBe(0);
      expect(s.count('POST /renders')).toBe(1);
    },
  );

  it('a lease granted after the deadline whose release throws leaves nothing unhandled', async () => {
    const s = setup();
    const unhandled = await unhandledDuring(async () => {
      const { call, grant } = await lateLease(s);
      await expect(withinStallFree(call, 4_000)).rejects.toBeInstanceOf(TimeoutError);
      grant({
        acquired: true,
        release: () => {
          throw new Error('store exploded');
        },
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    expect(unhandled).toEqual([]);
  });
});

// timeoutMs was checked between the requests of a batch, not while one hung: the plan's rendertokens read held
// the batch until the client's own timeout. A POST /renders in flight at the deadline keeps the abort's rule: the
// batch waits for its answer, so that the job names the render it paid for.
describe('timeoutMs and a request that hangs', { timeout: 30_000 }, () => {
  it('ends the plan at timeoutMs while its rendertokens read hangs, and aborts that read', async () => {
    const aborted: unknown[] = [];
    const s = setup(
      {},
      (request) =>
        request.url.endsWith('/rendertokens')
          ? new Promise<Response>((_resolve, reject) =>
              request.signal.addEventListener('abort', () => {
                aborted.push(request.signal.reason);
                reject(request.signal.reason);
              }),
            )
          : undefined,
      { timeoutMs: 10_000, retry: false },
    );
    const { seed, clock } = s.sandbox;
    const started = clock.now();
    const jobs: RenderJob[] = [{ ...studioPrint(seed), image: await s.client.uploadImage(pngBytes(1)) }];
    const error = await withinStallFree(
      renderMany(s.client, jobs, { clock, timeoutMs: 5_000 }).catch((e: unknown) => e),
      8_000,
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toMatch(/reading the rendertokens/);
    expect(clock.now() - started).toBe(5_000);
    await new Promise((r) => setTimeout(r, 10));
    expect(aborted).toHaveLength(1);
    expect(s.count('POST /renders')).toBe(0);
  });

  it('a job whose POST /renders is in flight at the deadline waits for it and names the render it paid for', async () => {
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const s = setup(
      {},
      (request, sandbox) => {
        if (request.method !== 'POST' || !request.url.endsWith('/renders')) return undefined;
        // Answered a second of real time after the call's deadline was armed (a second after the POST was sent).
        setTimeout(answer, 2_000);
        return answered.then(() => sandbox.fetch(request));
      },
      { timeoutMs: 10_000, retry: false },
    );
    const { seed, clock } = s.sandbox;
    const jobs: RenderJob[] = [{ ...studioPrint(seed), image: await s.client.uploadImage(pngBytes(1)) }];
    const batch = await withinStallFree(renderMany(s.client, jobs, { clock, timeoutMs: 5_000 }), 8_000);
    expect(batch).toMatchObject({
      results: [
        {
          status: 'rejected',
          reason: expect.any(TimeoutError),
          renderReference: expect.stringMatching(/^Render_/),
          tokensSpent: 1,
        },
      ],
    });
    const again = await renderMany(s.client, jobs, { clock });
    expect(again.results[0]).toMatchObject({ status: 'fulfilled', value: { tokensSpent: 0 } });
    expect(s.count('POST /renders')).toBe(1);
  });
});

// A File that cannot be read any more (changed on disk since it was picked: a NotReadableError, a DOMException)
// rejected the whole plan, and the batch with it, where a job that cannot render is rejected alone.
it('plan rejects the job whose image cannot be read, and plans the others', async () => {
  const s = setup();
  const { seed, clock } = s.sandbox;
  const unreadable = new DOMException('The blob could not be read', 'NotReadableError');
  class Unreadable extends Blob {
    override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
      throw unreadable;
    }
  }
  const jobs: RenderJob[] = [
    { ...studioPrint(seed), image: new Unreadable([pngBytes(1).slice()]) },
    { ...studioPrint(seed), image: pngBytes(2) },
  ];
  const p = await plan(s.client, jobs, { clock });
  expect(p.rejected).toEqual([{ index: 0, job: jobs[0], error: unreadable }]);
  expect(p.fits.map((j) => j.index)).toEqual([1]);
  const { results } = await renderMany(s.client, jobs, { clock });
  expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
});

// timeoutMs was checked between steps, not inside a render store call: a store whose get, lease or set never
// answered held the call past its deadline (until its signal aborted, which a partner relying on timeoutMs never
// sends). A set that never settled after the POST also held every later call for the pair, whose render was known.
// A hang is caught by within4s, on the time the process could run; the test's own timeout, on the wall, only
// backs it up, as long as pnpm test's for this file (30 s): 10 s of the wall could pass before two such bounds
// by a process starved for seconds.
describe('a render store that does not answer, and timeoutMs', { timeout: 30_000 }, () => {
  const unanswered = new Promise<never>(() => {});
  const hung = () => unanswered;
  /**
   * `call`, or 'still pending after 4000 ms' if it has not settled within 4 s of real time the process could run
   * (on the virtual clock, a store call is given 1 s of real time before the deadline is armed). Not 4 s of the
   * wall (test-utils/stall.ts): a process stopped for 4.5 s right after the call began saw the wall's 4 s pass
   * first, with the call's 1 s due at the same moment.
   */
  const within4s = <T>(call: Promise<T>) => withinStallFree(call, 4_000);

  // A store answering in real time (Redis) while the virtual clock had the deadline's timer to run: the clock
  // jumped to the deadline and the call timed out, with 10 minutes of timeoutMs left.
  it('a store answering in real time does not move a virtual clock to the deadline', async () => {
    const s = setup({ renderProcessingMs: 60_000 });
    const { seed, clock } = s.sandbox;
    const image = await s.client.uploadImage(pngBytes(1));
    const inner = new MemoryRenderStore();
    const later = () => new Promise((resolve) => setTimeout(resolve, 5));
    const store: RenderStore = {
      get: (key) => later().then(() => inner.get(key)),
      set: (key, value) => later().then(() => inner.set(key, value)),
    };
    const started = clock.now();
    const result = await renderMockup(s.client, {
      ...studioPrint(seed),
      image,
      clock,
      cache: store,
      timeoutMs: 600_000,
    });
    expect(result.tokensSpent).toBe(1);
    expect(clock.now() - started).toBe(60_000);
    expect(inner.size).toBe(1);
  });

  /** renderMockup of studioPrint on `store` with a 5 s timeoutMs, within 4 s of real time: what it ended with. */
  const timedRender = async (s: ReturnType<typeof setup>, image: string, store: RenderStore) => {
    const { seed, clock } = s.sandbox;
    const started = clock.now();
    const warnings: string[] = [];
    const error = await within4s(
      renderMockup(s.client, {
        ...studioPrint(seed),
        image,
        clock,
        cache: store,
        timeoutMs: 5_000,
        onProgress: (e) => e.type === 'warning' && warnings.push(e.code),
      }).catch((e: unknown) => e),
    );
    return { error, warnings, elapsed: clock.now() - started };
  };

  const stores: [string, RenderStore, string][] = [
    ['get', { get: hung, set: () => {} }, 'cache-read-failed'],
    ['lease', { get: () => null, set: () => {}, lease: hung }, 'lease-failed'],
  ];
  it.each(stores)(
    'a %s that never answers ends renderMockup at its deadline, nothing paid',
    async (_op, store, code) => {
      const s = setup();
      const image = await s.client.uploadImage(pngBytes(1));
      const { error, warnings, elapsed } = await timedRender(s, image, store);
      expect(error).toBeInstanceOf(TimeoutError);
      expect(elapsed).toBe(5_000);
      expect(warnings).toEqual([code]);
      expect(s.count('POST /renders')).toBe(0);
    },
  );

  it('a lease granted after the deadline is released', async () => {
    const s = setup();
    let released = 0;
    const { call, grant } = await lateLease(s);
    await expect(within4s(call)).rejects.toBeInstanceOf(TimeoutError);
    grant({ acquired: true, release: () => void released++ });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(released).toBe(1);
    expect(s.count('POST /renders')).toBe(0);
  });

  it('a set that never answers after the POST: the call ends at its deadline with the render it paid for', async () => {
    const s = setup({ renderProcessingMs: 60_000 });
    const { seed, clock } = s.sandbox;
    const image = await s.client.uploadImage(pngBytes(1));
    const store = { get: () => null, set: hung };
    const { error, warnings, elapsed } = await timedRender(s, image, store);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as { renderReference?: string }).renderReference).toMatch(/^Render_/);
    expect(elapsed).toBe(5_000);
    expect(warnings).toEqual(['cache-write-failed']);
    // Its render is known in this process while the set is unanswered: the next call pays nothing.
    const again = await within4s(
      renderMockup(s.client, { ...studioPrint(seed), image, clock, cache: store }),
    );
    expect(again).toMatchObject({ tokensSpent: 0 });
    expect(s.count('POST /renders')).toBe(1);
  });

  it('a set that never answers holds no later call for the pair: they take the render paid for', async () => {
    const s = setup({ renderProcessingMs: 60_000 });
    const { seed, clock } = s.sandbox;
    const image = await s.client.uploadImage(pngBytes(1));
    const controller = new AbortController();
    let setting!: () => void;
    const set = new Promise<void>((resolve) => {
      setting = resolve;
    });
    const store = {
      get: () => null,
      set: () => {
        setting();
        return hung();
      },
    };
    const first = renderMockup(s.client, {
      ...studioPrint(seed),
      image,
      clock,
      cache: store,
      signal: controller.signal,
    });
    first.catch(() => {});
    await set;
    const later = await within4s(
      renderMockup(s.client, { ...studioPrint(seed), image, clock, cache: store }),
    );
    controller.abort();
    expect(later).toMatchObject({ tokensSpent: 0, render: { status: 'completed' } });
    expect(s.count('POST /renders')).toBe(1);
  });

  it('renderMany ends at its timeoutMs while the plan reads a store that never answers', async () => {
    const s = setup();
    const { seed, clock } = s.sandbox;
    const jobs: RenderJob[] = [{ ...studioPrint(seed), image: await s.client.uploadImage(pngBytes(1)) }];
    const started = clock.now();
    const error = await within4s(
      renderMany(s.client, jobs, { clock, cache: { get: hung, set: () => {} }, timeoutMs: 5_000 }).catch(
        (e: unknown) => e,
      ),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(clock.now() - started).toBe(5_000);
    expect(s.count('POST /renders')).toBe(0);
  });
});

// The same ReadableStream given to two jobs: the second upload found it locked (a TypeError) and its job failed.
describe('images given as a ReadableStream', () => {
  const streamOf = (bytes: Uint8Array) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice());
        controller.close();
      },
    });

  it('given to two jobs of a batch, is uploaded once and both render', async () => {
    const s = setup();
    const { seed, clock } = s.sandbox;
    const image = streamOf(pngBytes(1));
    const jobs: RenderJob[] = [
      { ...studioPrint(seed), image },
      { ...lifestylePoster(seed), image },
    ];
    const { results } = await renderMany(s.client, jobs, { clock });
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(s.count('POST /images')).toBe(1);
  });

  it('given to two jobs of one composition, counts once in the plan and renders once', async () => {
    const s = setup({ rendertokenLimit: 1 });
    const { seed, clock } = s.sandbox;
    const image = streamOf(pngBytes(4));
    const jobs: RenderJob[] = [
      { ...studioPrint(seed), image },
      { ...studioPrint(seed), image },
    ];
    const p = await plan(s.client, jobs, { clock });
    // Counted twice, the second job was deferred though the one render it shares fits the one token.
    expect(p.totalCost).toBe(1);
    expect(p.deferred).toEqual([]);
    expect(p.fits[1]).toMatchObject({ duplicateOf: 0, cost: 0 });
    const { results } = await renderMany(s.client, jobs, { clock });
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(s.count('POST /images')).toBe(1);
    expect(s.count('POST /renders')).toBe(1);
  });

  it('two streams of the same bytes count apart (a stream is not read by the plan)', async () => {
    const s = setup();
    const { seed, clock } = s.sandbox;
    const jobs: RenderJob[] = [
      { ...studioPrint(seed), image: streamOf(pngBytes(5)) },
      { ...studioPrint(seed), image: streamOf(pngBytes(5)) },
    ];
    const p = await plan(s.client, jobs, { clock });
    expect(p.totalCost).toBe(2);
  });

  it('given to two concurrent renderMockup calls, is uploaded once and both render', async () => {
    const s = setup();
    const { seed, clock } = s.sandbox;
    const image = streamOf(pngBytes(2));
    const results = await Promise.all([
      renderMockup(s.client, { ...studioPrint(seed), image, clock }),
      renderMockup(s.client, { ...lifestylePoster(seed), image, clock }),
    ]);
    expect(results[0].imageReference).toBe(results[1].imageReference);
    expect(s.count('POST /images')).toBe(1);
  });

  it('given to a call aborted as its upload begins, is not uploaded', async () => {
    const s = setup();
    const { seed, clock } = s.sandbox;
    const controller = new AbortController();
    const reason = new Error('left');
    const call = renderMockup(s.client, {
      ...studioPrint(seed),
      image: streamOf(pngBytes(3)),
      clock,
      signal: controller.signal,
      onProgress: (e) => e.type === 'upload' && controller.abort(reason),
    });
    await expect(call).rejects.toBe(reason);
    // The upload, which no caller waits for once it begins, would have gone on on its own.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(s.count('POST /images')).toBe(0);
  });
});
