import type { Hono } from 'hono';
import type { Ctx, Env, SandboxContext } from '../context.ts';
import { fail, iso, isoOrNull, notFound, paginate, readWrapped } from '../http.ts';
import { renderMedia } from '../media.ts';
import type { PerspectiveRecord, RenderRecord, SceneRecord } from '../model.ts';
import { isReference } from '../random.ts';
import { renderWeek } from '../rendertokens.ts';
import type { Organization } from '../state.ts';

/** Brings a render up to date with the clock: pending renders finish once their time has come. */
export function settleRender(
  org: Organization,
  ctx: SandboxContext,
  render: RenderRecord,
  now = ctx.clock.now(),
) {
  if (render.status === 'pending' && now >= render.dueAt) {
    const outcome = ctx.renderOutcome({
      renderReference: render.reference,
      compositionReference: render.compositionReference,
      imageReference: render.imageReference,
      organization: org.id,
    });
    finishRender(org, render, outcome, render.dueAt);
  }
  return render;
}

export function finishRender(
  org: Organization,
  render: RenderRecord,
  outcome: 'completed' | 'failed',
  at: number,
) {
  if (render.status !== 'pending') return;
  render.status = outcome;
  render.completed = at;
  if (outcome === 'completed') {
    const composition = org.compositions.get(render.compositionReference)!;
    const { widthPx, heightPx } = org.perspectives.get(composition.perspectiveReference)!.output;
    render.media = renderMedia(widthPx, heightPx, render.seed);
  }
}

const fileInfo = (bytes: Uint8Array) => ({ mimeType: 'image/png', extension: 'png', size: bytes.length });

function renderBody(render: RenderRecord) {
  const m = render.status === 'completed' ? render.media : null;
  return {
    reference: render.reference,
    compositionReference: render.compositionReference,
    imageReference: render.imageReference,
    status: render.status,
    thumbhash: m ? m.thumbhash : null,
    media: m ? fileInfo(m.media) : null,
    thumbnail: m ? fileInfo(m.thumbnail) : null,
    created: iso(render.created),
    completed: render.status === 'completed' ? isoOrNull(render.completed) : null,
  };
}

function perspectiveBody(p: PerspectiveRecord) {
  return {
    reference: p.reference,
    name: p.name,
    output: { ...p.output },
    scenes: p.scenes ? p.scenes.map((reference) => ({ reference })) : null,
    products: p.products ? p.products.map((reference) => ({ reference })) : null,
  };
}

function sceneBody(s: SceneRecord) {
  return {
    reference: s.reference,
    name: s.name,
    description: s.description,
    private: s.private,
    allowsProductPerspectives: s.allowsProductPerspectives,
    compatibleProductgroups: s.compatibleProductgroups.map((reference) => ({ reference })),
    perspectives: s.perspectives.map((reference) => ({ reference })),
  };
}

/** The organization's rendertoken account for the current week (used resets every Monday 00:00 Amsterdam). */
export function rendertokens(org: Organization, now: number) {
  const week = renderWeek(now);
  if (org.rendertokens.weekStart !== week.start) org.rendertokens = { weekStart: week.start, used: 0 };
  const { used } = org.rendertokens;
  const limit = org.rendertokenLimit;
  return { used, limit, remaining: Math.max(0, limit - used), resets: week.resets, reset: week.reset };
}

function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

async function media(c: Ctx, ctx: SandboxContext, which: 'media' | 'thumbnail') {
  const org = c.get('org');
  const render = org.renders.get(c.req.param('renderReference') ?? '');
  if (!render) return notFound(c, 'render');
  const now = ctx.clock.now();
  settleRender(org, ctx, render, now);
  if (render.status === 'pending') {
    const seconds = Math.max(1, Math.ceil((render.dueAt - now) / 1000));
    return c.body(null, 202, { 'Retry-After': String(seconds) });
  }
  if (render.status === 'failed' || !render.media) {
    return fail(c, 422, 'render_failed', 'The render failed; it has no media');
  }
  const bytes = render.media[which];
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': 'image/png',
    'Content-Length': String(bytes.length),
  });
}

export function renderingRoutes(app: Hono<Env>, ctx: SandboxContext) {
  app.get('/scenes', (c) => {
    const group = c.req.query('productgroupReference');
    const all = [...c.get('org').scenes.values()].filter(
      (s) => !group || s.compatibleProductgroups.includes(group),
    );
    const result = paginate(c, 'scenes', all, (s) => -all.indexOf(s), ctx.pageSize);
    if (result instanceof Response) return result;
    return c.json({
      scenes: result.page.map((s) => ({ reference: s.reference, name: s.name })),
      nextCursor: result.nextCursor,
    });
  });

  app.get('/scenes/:sceneReference', (c) => {
    const scene = c.get('org').scenes.get(c.req.param('sceneReference'));
    if (!scene) return notFound(c, 'scene');
    return c.json({ scene: sceneBody(scene) });
  });

  app.get('/perspectives', (c) => {
    const org = c.get('org');
    const sceneRef = c.req.query('sceneReference');
    const productRef = c.req.query('productReference');
    const scene = sceneRef ? org.scenes.get(sceneRef) : undefined;
    const all = [...org.perspectives.values()].filter((p) => {
      const ofScene = sceneRef ? (scene?.perspectives.includes(p.reference) ?? false) : p.scenes !== null;
      const ofProduct = productRef ? (p.products?.includes(productRef) ?? false) : p.products !== null;
      if (sceneRef && productRef)
        return ofScene || (ofProduct && (scene?.allowsProductPerspectives ?? false));
      if (sceneRef) return ofScene;
      if (productRef) return ofProduct;
      return true;
    });
    const result = paginate(c, 'perspectives', all, (p) => -all.indexOf(p), ctx.pageSize);
    if (result instanceof Response) return result;
    return c.json({ perspectives: result.page.map(perspectiveBody), nextCursor: result.nextCursor });
  });

  app.get('/perspectives/:perspectiveReference', (c) => {
    const p = c.get('org').perspectives.get(c.req.param('perspectiveReference'));
    if (!p) return notFound(c, 'perspective');
    return c.json({ perspective: perspectiveBody(p) });
  });

  app.get('/lookup-composition', (c) => {
    const q = c.req.query();
    const { sceneReference, productReference, perspectiveReference } = q;
    if (!sceneReference || !productReference || !perspectiveReference) {
      return fail(
        c,
        400,
        'missing_parameter',
        'Query parameters sceneReference, productReference and perspectiveReference are required',
      );
    }
    const comp = c
      .get('org')
      .compositionsByTriple.get(`${sceneReference}|${productReference}|${perspectiveReference}`);
    if (!comp)
      return fail(c, 404, 'not_found', 'This scene, product and perspective combination does not exist');
    if (!comp.available) {
      return fail(c, 410, 'composition_unavailable', 'This combination exists but is no longer available');
    }
    return c.json({ composition: { reference: comp.reference, tokenCost: comp.tokenCost } });
  });

  app.get('/compositions/:compositionReference', (c) => {
    const comp = c.get('org').compositions.get(c.req.param('compositionReference'));
    if (!comp) return notFound(c, 'composition');
    return c.json({
      composition: {
        reference: comp.reference,
        tokenCost: comp.tokenCost,
        sceneReference: comp.sceneReference,
        productReference: comp.productReference,
        perspectiveReference: comp.perspectiveReference,
        available: comp.available,
      },
    });
  });

  app.post('/renders', async (c) => {
    const input = await readWrapped(c, 'render');
    if (input instanceof Response) return input;
    const org = c.get('org');
    const now = ctx.clock.now();
    const { compositionReference, imageReference } = input;
    if (!isReference(compositionReference, 'Composition')) {
      return fail(
        c,
        422,
        'invalid_reference',
        'render.compositionReference must be a Composition_ reference',
      );
    }
    if (!isReference(imageReference, 'Image')) {
      return fail(c, 422, 'invalid_reference', 'render.imageReference must be an Image_ reference');
    }
    const comp = org.compositions.get(compositionReference);
    if (!comp) return fail(c, 422, 'unknown_composition', 'No composition with this reference exists');
    if (!comp.available) {
      return fail(c, 422, 'composition_unavailable', 'The composition is no longer available');
    }
    const image = org.uploads.get(imageReference);
    if (image?.kind !== 'image') return fail(c, 422, 'unknown_image', 'No image with this reference exists');
    const tokens = rendertokens(org, now);
    if (tokens.remaining < comp.tokenCost) {
      const res = fail(
        c,
        429,
        'rendertoken_limit_exceeded',
        `The composition costs ${comp.tokenCost} rendertokens; ${tokens.remaining} remain until ${tokens.resets}`,
      );
      res.headers.set('Retry-After', String(Math.max(1, Math.ceil((tokens.reset - now) / 1000))));
      return res;
    }
    org.rendertokens.used += comp.tokenCost;
    const pair = `${comp.reference}|${image.reference}`;
    const existing = org.rendersByPair.get(pair);
    if (existing && settleRender(org, ctx, existing, now).status !== 'failed') {
      return c.json({ render: { reference: existing.reference } }, 200);
    }
    const render: RenderRecord = {
      reference: ctx.world.refs.next('Render'),
      compositionReference: comp.reference,
      imageReference: image.reference,
      status: 'pending',
      created: now,
      completed: null,
      dueAt: now + ctx.renderProcessingMs,
      seed: seedOf(pair),
      media: null,
    };
    org.renders.set(render.reference, render);
    org.rendersByPair.set(pair, render);
    return c.json({ render: { reference: render.reference } }, 200);
  });

  app.get('/renders/:renderReference', (c) => {
    const org = c.get('org');
    const render = org.renders.get(c.req.param('renderReference'));
    if (!render) return notFound(c, 'render');
    return c.json({ render: renderBody(settleRender(org, ctx, render)) });
  });

  app.get('/renders/:renderReference/media', (c) => media(c, ctx, 'media'));
  app.get('/renders/:renderReference/thumbnail', (c) => media(c, ctx, 'thumbnail'));

  app.get('/rendertokens', (c) => {
    const { used, limit, remaining, resets } = rendertokens(c.get('org'), ctx.clock.now());
    return c.json({ rendertokens: { used, limit, remaining, resets } });
  });
}
