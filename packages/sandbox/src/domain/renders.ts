import type { SandboxContext } from '../context.ts';
import { renderMedia } from '../media.ts';
import type { RenderRecord } from '../model.ts';
import { isReference } from '../random.ts';
import type { Organization } from '../state.ts';
import { spendRendertokens } from './rendertokens.ts';
import { ok, type Result, refused } from './result.ts';

export function finishRender(
  org: Organization,
  render: RenderRecord,
  outcome: 'completed' | 'failed',
  at: number,
): void {
  if (render.status !== 'pending') return;
  render.status = outcome;
  render.completed = at;
  if (outcome === 'completed') {
    const composition = org.compositions.get(render.compositionReference)!;
    const { widthPx, heightPx } = org.perspectives.get(composition.perspectiveReference)!.output;
    render.media = renderMedia(widthPx, heightPx, render.seed);
  }
}

/** Brings a render up to date with the clock: pending renders finish once their time has come. */
export function settleRender(
  ctx: SandboxContext,
  org: Organization,
  render: RenderRecord,
  now: number = ctx.clock.now(),
): RenderRecord {
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

/** Support's shortcut (control API): finishes a pending render now. */
export function finishRenderNow(
  ctx: SandboxContext,
  org: Organization,
  render: RenderRecord,
  outcome: 'completed' | 'failed',
): Result<RenderRecord> {
  settleRender(ctx, org, render);
  if (render.status !== 'pending')
    return refused('render_not_pending', `The render is ${render.status}`, 409);
  finishRender(org, render, outcome, ctx.clock.now());
  return ok(render);
}

function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * POST /renders: the composition's tokenCost is deducted on every call (as documented), then the existing
 * render of the same composition and image is reused unless it failed.
 */
export function createRender(
  ctx: SandboxContext,
  org: Organization,
  input: Record<string, unknown>,
): Result<RenderRecord> {
  const now = ctx.clock.now();
  const { compositionReference, imageReference } = input;
  if (!isReference(compositionReference, 'Composition')) {
    return refused('invalid_reference', 'render.compositionReference must be a Composition_ reference');
  }
  if (!isReference(imageReference, 'Image')) {
    return refused('invalid_reference', 'render.imageReference must be an Image_ reference');
  }
  const comp = org.compositions.get(compositionReference);
  if (!comp) return refused('unknown_composition', 'No composition with this reference exists');
  if (!comp.available) return refused('composition_unavailable', 'The composition is no longer available');
  const image = org.uploads.get(imageReference);
  if (image?.kind !== 'image') return refused('unknown_image', 'No image with this reference exists');
  const spent = spendRendertokens(org, comp.tokenCost, now);
  if (spent.kind === 'exceeded') {
    return {
      ...refused(
        'rendertoken_limit_exceeded',
        `The composition costs ${comp.tokenCost} rendertokens; ${spent.remaining} remain until ${spent.resets}`,
        429,
      ),
      retryAfter: spent.retryAfter,
    };
  }
  const pair = `${comp.reference}|${image.reference}`;
  const existing = org.rendersByPair.get(pair);
  if (existing && settleRender(ctx, org, existing, now).status !== 'failed') return ok(existing);
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
  return ok(render);
}

export type RenderFile =
  | { kind: 'pending'; retryAfter: number }
  | { kind: 'file'; bytes: Uint8Array; type: 'image/png' };

/** GET /renders/{ref}/media and /thumbnail: the file once completed, or how long to wait. */
export function renderFile(
  ctx: SandboxContext,
  org: Organization,
  render: RenderRecord,
  which: 'media' | 'thumbnail',
): Result<RenderFile> {
  const now = ctx.clock.now();
  settleRender(ctx, org, render, now);
  if (render.status === 'pending') {
    return ok({ kind: 'pending', retryAfter: Math.max(1, Math.ceil((render.dueAt - now) / 1000)) });
  }
  if (render.status === 'failed' || !render.media) {
    return refused('render_failed', 'The render failed; it has no media');
  }
  return ok({ kind: 'file', bytes: render.media[which], type: 'image/png' });
}
