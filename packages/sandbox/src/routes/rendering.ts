import type { Hono } from 'hono';
import type { Ctx, Env, SandboxContext } from '../context.ts';
import { lookupComposition, perspectivesOf, scenesOf } from '../domain/catalog.ts';
import { createRender, renderFile, settleRender } from '../domain/renders.ts';
import { rendertokens } from '../domain/rendertokens.ts';
import { badReferenceQuery, fail, iso, isoOrNull, notFound, paginate, readWrapped, refuse } from '../http.ts';
import type { PerspectiveRecord, RenderRecord, SceneRecord } from '../model.ts';

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

function media(c: Ctx, ctx: SandboxContext, which: 'media' | 'thumbnail') {
  const org = c.get('org');
  const render = org.renders.get(c.req.param('renderReference') ?? '');
  if (!render) return notFound(c, 'render');
  const file = renderFile(ctx, org, render, which);
  if (file.kind === 'refused') return refuse(c, file);
  if (file.value.kind === 'pending')
    return c.body(null, 202, { 'Retry-After': String(file.value.retryAfter) });
  const { bytes, type } = file.value;
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': type,
    'Content-Length': String(bytes.length),
  });
}

function sceneRoutes(app: Hono<Env>, ctx: SandboxContext) {
  app.get('/scenes', (c) => {
    const bad = badReferenceQuery(c, { productgroupReference: 'Productgroup' });
    if (bad) return bad;
    const all = scenesOf(c.get('org'), c.req.query('productgroupReference'));
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
    const bad = badReferenceQuery(c, { sceneReference: 'Scene', productReference: 'Product' });
    if (bad) return bad;
    const all = perspectivesOf(c.get('org'), c.req.query('sceneReference'), c.req.query('productReference'));
    const result = paginate(c, 'perspectives', all, (p) => -all.indexOf(p), ctx.pageSize);
    if (result instanceof Response) return result;
    return c.json({ perspectives: result.page.map(perspectiveBody), nextCursor: result.nextCursor });
  });
  app.get('/perspectives/:perspectiveReference', (c) => {
    const p = c.get('org').perspectives.get(c.req.param('perspectiveReference'));
    if (!p) return notFound(c, 'perspective');
    return c.json({ perspective: perspectiveBody(p) });
  });
}

function compositionRoutes(app: Hono<Env>) {
  app.get('/lookup-composition', (c) => {
    const { sceneReference, productReference, perspectiveReference } = c.req.query();
    if (!sceneReference || !productReference || !perspectiveReference) {
      return fail(
        c,
        400,
        'missing_parameter',
        'Query parameters sceneReference, productReference and perspectiveReference are required',
      );
    }
    const bad = badReferenceQuery(c, {
      sceneReference: 'Scene',
      productReference: 'Product',
      perspectiveReference: 'Perspective',
    });
    if (bad) return bad;
    const comp = lookupComposition(c.get('org'), sceneReference, productReference, perspectiveReference);
    if (comp.kind === 'refused') return refuse(c, comp);
    return c.json({ composition: { reference: comp.value.reference, tokenCost: comp.value.tokenCost } });
  });
  app.get('/compositions/:compositionReference', (c) => {
    const comp = c.get('org').compositions.get(c.req.param('compositionReference'));
    if (!comp) return notFound(c, 'composition');
    const { reference, tokenCost, sceneReference, productReference, perspectiveReference, available } = comp;
    return c.json({
      composition: {
        reference,
        tokenCost,
        sceneReference,
        productReference,
        perspectiveReference,
        available,
      },
    });
  });
}

function renderRoutes(app: Hono<Env>, ctx: SandboxContext) {
  app.post('/renders', async (c) => {
    const input = await readWrapped(c, 'render');
    if (input instanceof Response) return input;
    const render = createRender(ctx, c.get('org'), input);
    if (render.kind === 'refused') return refuse(c, render);
    return c.json({ render: { reference: render.value.reference } }, 200);
  });
  app.get('/renders/:renderReference', (c) => {
    const org = c.get('org');
    const render = org.renders.get(c.req.param('renderReference'));
    if (!render) return notFound(c, 'render');
    return c.json({ render: renderBody(settleRender(ctx, org, render)) });
  });
  app.get('/renders/:renderReference/media', (c) => media(c, ctx, 'media'));
  app.get('/renders/:renderReference/thumbnail', (c) => media(c, ctx, 'thumbnail'));
  app.get('/rendertokens', (c) => {
    const { used, limit, remaining, resets } = rendertokens(c.get('org'), ctx.clock.now());
    return c.json({ rendertokens: { used, limit, remaining, resets } });
  });
}

export function renderingRoutes(app: Hono<Env>, ctx: SandboxContext): void {
  sceneRoutes(app, ctx);
  compositionRoutes(app);
  renderRoutes(app, ctx);
}
