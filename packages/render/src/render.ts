import type { Reference } from '@partner-print/openapi/wire';
import { acquire } from './acquire.ts';
import type { RenderClient } from './api.ts';
import { renderCacheKey } from './cache.ts';
import { complete, isUnknownRender, placeholderOf } from './complete.ts';
import { referenceQuery, resolveComposition } from './composition.ts';
import { type CallContext, callContext, checkpoint, type RenderOptions, until } from './context.ts';
import { RenderFailedError } from './errors.ts';
import { type ClientState, type Completed, stateOf } from './state.ts';
import { telemetryFor, traceMockup } from './telemetry.ts';
import type { Composition, ImageInput, Render, RenderFile } from './types.ts';
import { resolveImage } from './upload.ts';

export { DEFAULT_POLL_INTERVAL_MS, type RenderOptions } from './context.ts';

export interface RenderMockupOptions extends RenderOptions {
  sceneReference: string;
  productReference: string;
  perspectiveReference: string;
  /** An `Image_…` reference, or JPEG/PNG bytes to upload first. */
  image: ImageInput;
}

export interface RenderMockupResult {
  composition: Composition;
  render: Render;
  /** The full mockup. Shared between calls that waited for the same render: treat the bytes as read-only. */
  media: RenderFile;
  thumbnail: RenderFile;
  /** The thumbhash as a small PNG `data:` URL for `<img src>`; null when the render carried none. */
  placeholder: string | null;
  imageReference: string;
  /** Rendertokens this call paid: 0 when the render came from the cache or another concurrent call. */
  tokensSpent: number;
}

/** Steps 3 to 6 for a resolved composition and image. */
export async function produce(
  state: ClientState,
  composition: Composition,
  imageReference: Reference<'Image'>,
  ctx: CallContext,
): Promise<RenderMockupResult> {
  let acquired = await acquire(state, composition, imageReference, ctx);
  let completed: Completed;
  try {
    completed = await complete(state, acquired.reference, ctx);
  } catch (error) {
    if (error instanceof RenderFailedError && ctx.store?.delete) {
      // A failed render is not worth remembering: the next call renders again (and pays again).
      const key = renderCacheKey(composition.reference, imageReference);
      state.writes.delete(key);
      try {
        await until(ctx.clock, ctx.deadline, ctx.store.delete(key));
      } catch {
        // the failure is what the caller needs to hear about
      }
    }
    // A stored reference the service no longer knows (another environment, purged): pay once for a new one.
    // Only when the render itself is unknown: a missing file of a known render is not cured by paying again.
    if (!(acquired.cached && isUnknownRender(state, error))) throw error;
    ctx.emit({
      type: 'warning',
      code: 'cached-render-missing',
      message: `The stored render ${acquired.reference} was not found; creating a new render.`,
    });
    acquired = await acquire(state, composition, imageReference, ctx, acquired.reference);
    completed = await complete(state, acquired.reference, ctx);
  }
  ctx.emit({ type: 'completed', renderReference: acquired.reference });
  return {
    composition,
    render: completed.render,
    media: completed.media,
    thumbnail: completed.thumbnail,
    placeholder: placeholderOf(completed.render, ctx.emit),
    imageReference,
    tokensSpent: acquired.joined ? 0 : acquired.spent,
  };
}

/**
 * A product mockup: `image` placed on the product in the scene, seen from the perspective.
 *
 * Looks up the composition (404 → CompositionNotFoundError, 410 → CompositionUnavailableError), checks
 * compatibility, checks the rendertokens, creates the render once per (composition, image) — reusing a
 * known render from `cache` and joining a concurrent call for the same pair — polls every
 * `pollIntervalMs`, and downloads media and thumbnail.
 */
export function renderMockup(
  client: RenderClient,
  options: RenderMockupOptions,
): Promise<RenderMockupResult> {
  const attributes = {
    'partner_print.render.scene_reference': options.sceneReference,
    'partner_print.render.product_reference': options.productReference,
    'partner_print.render.perspective_reference': options.perspectiveReference,
  };
  return traceMockup(
    telemetryFor(client, options.telemetry),
    'renderMockup',
    attributes,
    options.onProgress,
    (onProgress) => rendering(client, { ...options, onProgress }),
  );
}

async function rendering(client: RenderClient, options: RenderMockupOptions): Promise<RenderMockupResult> {
  const query = referenceQuery(options);
  const state = stateOf(client);
  const ctx = callContext(state.store, options);
  checkpoint(ctx, 'starting');
  const composition = await resolveComposition(state, query, ctx);
  const imageReference = await resolveImage(state, options.image, ctx);
  return produce(state, composition, imageReference, ctx);
}
