import { decode } from 'fast-png';
import { thumbHashToApproximateAspectRatio } from 'thumbhash';
import { describe, expect, it } from 'vitest';
import { renderWeek } from '../src/index.ts';
import { json } from './contract.ts';
import { DAY, SECOND, setup } from './fixtures.ts';

type Err = { code: string };

describe('scenes and perspectives', () => {
  it('lists scenes, optionally compatible with a productgroup, including the private one', async () => {
    const { a, seed } = setup();
    const all = await json<{ scenes: Array<{ reference: string; name: string }> }>(await a.get('/scenes'));
    expect(all.scenes.map((s) => s.reference)).toEqual([
      seed.scenes.studio,
      seed.scenes.lifestyle,
      seed.scenes.private,
    ]);
    const posters = await json<{ scenes: Array<{ reference: string }> }>(
      await a.get(`/scenes?productgroupReference=${seed.productgroups.posters}`),
    );
    expect(posters.scenes.map((s) => s.reference)).toEqual([seed.scenes.studio, seed.scenes.lifestyle]);
  });

  it('returns a scene with its flags, productgroups and perspectives', async () => {
    const { a, b, seed } = setup();
    const { scene } = await json<{ scene: Record<string, unknown> }>(
      await a.get(`/scenes/${seed.scenes.lifestyle}`),
    );
    expect(scene).toMatchObject({ private: false, allowsProductPerspectives: false });
    const priv = await json<{ scene: { private: boolean } }>(await a.get(`/scenes/${seed.scenes.private}`));
    expect(priv.scene.private).toBe(true);
    expect((await b.get(`/scenes/${seed.scenes.private}`)).status).toBe(404);
  });

  it('lists scene and product perspectives by filter', async () => {
    const { a, seed } = setup();
    const refs = async (q: string) =>
      (
        await json<{ perspectives: Array<{ reference: string }> }>(await a.get(`/perspectives${q}`))
      ).perspectives.map((p) => p.reference);
    expect(await refs(`?sceneReference=${seed.scenes.studio}`)).toEqual([
      seed.perspectives.studioFront,
      seed.perspectives.studioAngled,
    ]);
    expect(await refs(`?productReference=${seed.products.print}`)).toEqual([
      seed.perspectives.productCloseup,
    ]);
    expect(
      await refs(`?sceneReference=${seed.scenes.studio}&productReference=${seed.products.print}`),
    ).toContain(seed.perspectives.productCloseup);
    expect(
      await refs(`?sceneReference=${seed.scenes.lifestyle}&productReference=${seed.products.print}`),
    ).not.toContain(seed.perspectives.productCloseup);
    expect((await refs('')).length).toBe(5);
    const scenePersp = await json<{ perspective: Record<string, unknown> }>(
      await a.get(`/perspectives/${seed.perspectives.studioFront}`),
    );
    expect(scenePersp.perspective).toMatchObject({
      products: null,
      scenes: [{ reference: seed.scenes.studio }],
      output: { widthPx: 640, heightPx: 480, format: 'png' },
    });
    const productPersp = await json<{ perspective: Record<string, unknown> }>(
      await a.get(`/perspectives/${seed.perspectives.productCloseup}`),
    );
    expect(productPersp.perspective).toMatchObject({
      scenes: null,
      products: expect.arrayContaining([{ reference: seed.products.print }]),
    });
  });
});

describe('compositions', () => {
  it('looks up a composition: 200, 404 when it does not exist, 410 when unavailable', async () => {
    const { a, seed, sandbox } = setup();
    void sandbox;
    const q = (s: string, p: string, v: string) =>
      `/lookup-composition?sceneReference=${s}&productReference=${p}&perspectiveReference=${v}`;
    const ok = await a.get(q(seed.scenes.studio, seed.products.print, seed.perspectives.studioFront));
    expect(ok.status).toBe(200);
    expect(await json(ok)).toEqual({ composition: { reference: seed.compositions.available, tokenCost: 1 } });
    const viaProduct = await json<{ composition: { reference: string } }>(
      await a.get(q(seed.scenes.studio, seed.products.print, seed.perspectives.productCloseup)),
    );
    expect(viaProduct.composition.reference).toBe(seed.compositions.productPerspective);
    const m = seed.missingCombination;
    const missing = await a.get(q(m.sceneReference, m.productReference, m.perspectiveReference));
    expect(missing.status).toBe(404);
    const gone = await a.get(q(seed.scenes.lifestyle, seed.products.print, seed.perspectives.lifestyleWide));
    expect(gone.status).toBe(410);
    expect((await json<Err>(gone)).code).toBe('composition_unavailable');
    const incomplete = await a.get(`/lookup-composition?sceneReference=${seed.scenes.studio}`);
    expect(incomplete.status).toBe(400);
  });

  it('returns a composition with its tokenCost', async () => {
    const { a, b, seed } = setup();
    const res = await json<{ composition: Record<string, unknown> }>(
      await a.get(`/compositions/${seed.compositions.expensive}`),
    );
    expect(res.composition).toMatchObject({ reference: seed.compositions.expensive, tokenCost: 5 });
    expect((await b.get(`/compositions/${seed.compositions.expensive}`)).status).toBe(404);
  });
});

describe('renders', () => {
  it('renders: 202 with Retry-After while pending, then real PNG bytes, sizes and a thumbhash', async () => {
    const s = setup({ renderProcessingMs: 90_000 });
    const imageReference = await s.image();
    const created = await s.a.post('/renders', {
      render: { compositionReference: s.seed.compositions.available, imageReference },
    });
    expect(created.status).toBe(200);
    const ref = (await json<{ render: { reference: string } }>(created)).render.reference;
    const pending = await json<{ render: Record<string, unknown> }>(await s.a.get(`/renders/${ref}`));
    expect(pending.render).toMatchObject({
      status: 'pending',
      thumbhash: null,
      media: null,
      completed: null,
      created: '2026-11-16T09:00:00Z',
    });
    const early = await s.a.get(`/renders/${ref}/media`);
    expect(early.status).toBe(202);
    expect(early.headers.get('retry-after')).toBe('90');
    expect(early.headers.get('x-ratelimit-policy')).toContain('"downloads"');
    await s.sandbox.clock.sleep(60_000);
    const thumbEarly = await s.a.get(`/renders/${ref}/thumbnail`);
    expect(thumbEarly.status).toBe(202);
    expect(thumbEarly.headers.get('retry-after')).toBe('30');
    await s.sandbox.control.advance(30_000);
    const done = await json<{
      render: {
        status: string;
        thumbhash: string;
        completed: string;
        media: { mimeType: string; extension: string; size: number };
        thumbnail: { size: number };
      };
    }>(await s.a.get(`/renders/${ref}`));
    expect(done.render).toMatchObject({
      status: 'completed',
      completed: '2026-11-16T09:01:30Z',
      media: { mimeType: 'image/png', extension: 'png' },
    });
    const media = await s.a.get(`/renders/${ref}/media`);
    expect(media.status).toBe(200);
    expect(media.headers.get('content-type')).toBe('image/png');
    const bytes = new Uint8Array(await media.arrayBuffer());
    expect(bytes.length).toBe(done.render.media.size);
    expect(decode(bytes)).toMatchObject({ width: 640, height: 480 });
    const thumb = new Uint8Array(await (await s.a.get(`/renders/${ref}/thumbnail`)).arrayBuffer());
    expect(thumb.length).toBe(done.render.thumbnail.size);
    const decoded = decode(thumb);
    expect(Math.max(decoded.width, decoded.height)).toBeLessThanOrEqual(100);
    const hash = Uint8Array.from(atob(done.render.thumbhash), (c) => c.charCodeAt(0));
    expect(thumbHashToApproximateAspectRatio(hash)).toBeCloseTo(640 / 480, 0);
  });

  it('returns the existing render for the same composition and image, and still deducts the cost', async () => {
    const s = setup();
    const imageReference = await s.image();
    const body = { render: { compositionReference: s.seed.compositions.expensive, imageReference } };
    const one = await json<{ render: { reference: string } }>(await s.a.post('/renders', body));
    const two = await json<{ render: { reference: string } }>(await s.a.post('/renders', body));
    expect(two.render.reference).toBe(one.render.reference);
    const tokens = await json<{ rendertokens: { used: number; remaining: number; limit: number } }>(
      await s.a.get('/rendertokens'),
    );
    expect(tokens.rendertokens).toMatchObject({ used: 10, limit: 100, remaining: 90 });
  });

  it('fails renders through the control API or the outcome hook; a failed render has no media', async () => {
    const s = setup({
      renderOutcome: ({ compositionReference }) =>
        compositionReference.endsWith('x') ? 'failed' : 'completed',
    });
    const imageReference = await s.image();
    const ref = (
      await json<{ render: { reference: string } }>(
        await s.a.post('/renders', {
          render: { compositionReference: s.seed.compositions.available, imageReference },
        }),
      )
    ).render.reference;
    s.sandbox.control.failRender(ref);
    const failed = await json<{ render: { status: string; media: null } }>(await s.a.get(`/renders/${ref}`));
    expect(failed.render).toMatchObject({ status: 'failed', media: null });
    const res = await s.a.get(`/renders/${ref}/media`);
    expect(res.status).toBe(422);
    expect((await json<Err>(res)).code).toBe('render_failed');
    expect(() => s.sandbox.control.completeRender(ref)).toThrow(/failed/);
    // A new POST for a failed pair starts a new render.
    const again = (
      await json<{ render: { reference: string } }>(
        await s.a.post('/renders', {
          render: { compositionReference: s.seed.compositions.available, imageReference },
        }),
      )
    ).render.reference;
    expect(again).not.toBe(ref);
    s.sandbox.control.completeRender(again);
    expect((await s.a.get(`/renders/${again}/thumbnail`)).status).toBe(200);
    s.sandbox.control.setRenderOutcome('failed');
    const third = (
      await json<{ render: { reference: string } }>(
        await s.a.post('/renders', {
          render: { compositionReference: s.seed.compositions.productPerspective, imageReference },
        }),
      )
    ).render.reference;
    await s.sandbox.control.advance(90_000);
    expect(
      (await json<{ render: { status: string } }>(await s.a.get(`/renders/${third}`))).render.status,
    ).toBe('failed');
  });

  it('refuses bad render requests', async () => {
    const s = setup();
    const imageReference = await s.image();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [
        { compositionReference: s.seed.compositions.unavailable, imageReference },
        422,
        'composition_unavailable',
      ],
      [
        { compositionReference: s.seed.otherOrganization.compositions.available, imageReference },
        422,
        'unknown_composition',
      ],
      [
        {
          compositionReference: s.seed.compositions.available,
          imageReference: 'Image_00000000000000000000000000',
        },
        422,
        'unknown_image',
      ],
      [{ compositionReference: 'x', imageReference }, 422, 'invalid_reference'],
      [
        { compositionReference: s.seed.compositions.available, imageReference: 'y' },
        422,
        'invalid_reference',
      ],
    ];
    for (const [render, status, code] of cases) {
      const res = await s.a.post('/renders', { render });
      expect(res.status).toBe(status);
      expect((await json<Err>(res)).code).toBe(code);
    }
    expect((await s.a.get('/renders/Render_00000000000000000000000000')).status).toBe(404);
    expect((await s.a.get('/renders/Render_00000000000000000000000000/media')).status).toBe(404);
  });
});

describe('rendertokens', () => {
  it('answers 429 rendertoken_limit_exceeded with Retry-After until Monday 00:00 Amsterdam, then resets', async () => {
    const s = setup({ rendertokenLimit: 6 });
    const imageReference = await s.image();
    const post = () =>
      s.a.post('/renders', {
        render: { compositionReference: s.seed.compositions.expensive, imageReference },
      });
    expect((await post()).status).toBe(200);
    const refused = await post();
    expect(refused.status).toBe(429);
    expect((await json<Err>(refused)).code).toBe('rendertoken_limit_exceeded');
    // 2026-11-16T09:00Z is Monday 10:00 in Amsterdam; the reset is Monday 2026-11-23 00:00+01:00.
    const reset = Date.parse('2026-11-23T00:00:00+01:00');
    expect(Number(refused.headers.get('retry-after'))).toBe((reset - s.sandbox.clock.now()) / 1000);
    expect(refused.headers.get('x-ratelimit')).toMatch(/^"default";r=\d+;t=0$/);
    const tokens = await json<{ rendertokens: Record<string, unknown> }>(await s.a.get('/rendertokens'));
    expect(tokens.rendertokens).toEqual({
      used: 5,
      limit: 6,
      remaining: 1,
      resets: '2026-11-23T00:00:00+01:00',
    });
    // A cheaper composition still fits.
    expect(
      (
        await s.a.post('/renders', {
          render: { compositionReference: s.seed.compositions.available, imageReference },
        })
      ).status,
    ).toBe(200);
    await s.sandbox.control.advance(reset - s.sandbox.clock.now() - SECOND);
    expect((await post()).status).toBe(429);
    await s.sandbox.control.advance(SECOND);
    expect((await post()).status).toBe(200);
    const next = await json<{ rendertokens: Record<string, unknown> }>(await s.a.get('/rendertokens'));
    expect(next.rendertokens).toEqual({
      used: 5,
      limit: 6,
      remaining: 1,
      resets: '2026-11-30T00:00:00+01:00',
    });
  });

  it('keeps budgets per organization', async () => {
    const s = setup({ rendertokenLimit: 5 });
    const imageReference = await s.image();
    await s.a.post('/renders', {
      render: { compositionReference: s.seed.compositions.expensive, imageReference },
    });
    const other = await json<{ rendertokens: { used: number } }>(await s.b.get('/rendertokens'));
    expect(other.rendertokens.used).toBe(0);
    s.sandbox.control.setRendertokenLimit(50, 'B');
    expect(
      (await json<{ rendertokens: { limit: number } }>(await s.b.get('/rendertokens'))).rendertokens.limit,
    ).toBe(50);
  });

  it('shows the right offset across daylight-saving changes', async () => {
    const spring = setup({ startTime: '2026-03-25T12:00:00Z' });
    const a = await json<{ rendertokens: { resets: string } }>(await spring.a.get('/rendertokens'));
    expect(a.rendertokens.resets).toBe('2026-03-30T00:00:00+02:00');
    const autumn = setup({ startTime: '2026-10-21T12:00:00Z' });
    const b = await json<{ rendertokens: { resets: string } }>(await autumn.a.get('/rendertokens'));
    expect(b.rendertokens.resets).toBe('2026-10-26T00:00:00+01:00');
    // Sunday 23:30 UTC in winter is already Monday 00:30 in Amsterdam: a new week.
    expect(renderWeek(Date.parse('2026-11-22T23:30:00Z')).resets).toBe('2026-11-30T00:00:00+01:00');
    expect(renderWeek(Date.parse('2026-11-22T22:59:59Z')).resets).toBe('2026-11-23T00:00:00+01:00');
    expect(renderWeek(Date.parse('2026-03-29T21:59:59Z')).resets).toBe('2026-03-30T00:00:00+02:00');
    expect(renderWeek(Date.parse('2026-03-29T22:00:00Z')).resets).toBe('2026-04-06T00:00:00+02:00');
    expect(renderWeek(Date.parse('2026-10-25T22:59:59Z')).resets).toBe('2026-10-26T00:00:00+01:00');
    void DAY;
  });
});
