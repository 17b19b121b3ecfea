import {
  GoneError,
  NotFoundError,
  type PartnerPrintError,
  type PartnerPrintErrorInit,
  RendertokenLimitError,
} from '@partner-print/client';
import { createRenderApi, type RenderApi, type RenderClient, retryAfterMs } from './api.ts';
import { MemoryRenderStore, type RenderStore, renderCacheKey } from './cache.ts';
import { productgroupOf, TtlCache } from './catalog.ts';
import { abortReason, type Clock, systemClock } from './clock.ts';
import { findIncompatibility } from './compatibility.ts';
import {
  CompositionNotFoundError,
  type CompositionQuery,
  CompositionUnavailableError,
  IncompatibleCompositionError,
  InsufficientRendertokensError,
  RenderFailedError,
  RenderTimeoutError,
} from './errors.ts';
import { emitter, type ProgressListener, type RenderProgressEvent } from './events.ts';
import { imageBytes, sha256Hex } from './image.ts';
import { thumbhashToDataUrl } from './placeholder.ts';
import { nextRendertokenReset } from './reset.ts';
import { SharedTasks } from './shared.ts';
import type { Composition, ImageInput, Perspective, Render, RenderFile, Scene } from './types.ts';

/** The polling interval the reference asks for. */
export const DEFAULT_POLL_INTERVAL_MS = 60_000;
/** How long catalog reads (lookups, scenes, perspectives, productgroups) are reused. */
export const DEFAULT_CATALOG_TTL_MS = 5 * 60_000;
/** Waiting for the weekly reset wakes this long after it, against clock skew ("earlier retry fails"). */
export const RESET_MARGIN_MS = 1_000;

export interface RenderOptions {
  /** Cancels this call's waiting (polls, token waits, downloads); the render goes on in the service. */
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** Between status polls; default 60 000 (the reference's interval). A longer `Retry-After` wins. */
  pollIntervalMs?: number;
  /** Bound on the whole call, token waits included; `RenderTimeoutError` when it passes. */
  timeoutMs?: number;
  /** When rendertokens run short, wait for the weekly reset instead of throwing `RendertokenLimitError`. */
  waitForTokens?: boolean;
  /** Known renders by (composition, image): default an in-process Map per client; `false` for none. */
  cache?: RenderStore | false;
  /** Time source for polls, waits and deadlines (e.g. a sandbox's virtual clock); default real time. */
  clock?: Clock;
  /** Check scene/perspective/productgroup compatibility before spending tokens; default true. */
  checkCompatibility?: boolean;
  /** How long catalog reads are reused; default 5 minutes. */
  catalogTtlMs?: number;
}

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

interface Acquired {
  reference: string;
  cached: boolean;
  spent: number;
}

interface Completed {
  render: Render;
  media: RenderFile;
  thumbnail: RenderFile;
}

interface ClientState {
  api: RenderApi;
  catalog: TtlCache;
  images: TtlCache;
  store: MemoryRenderStore;
  acquisitions: SharedTasks<Acquired, RenderProgressEvent>;
  completions: SharedTasks<Completed, RenderProgressEvent>;
}

const states = new WeakMap<object, ClientState>();

const pollTimeout = (deadline: number, renderReference: string) =>
  new RenderTimeoutError(
    `timeoutMs passed (at ${new Date(deadline).toISOString()}) while render ${renderReference} was still in progress. ` +
      'It goes on in the service: call renderMockup again to pick it up without paying again.',
    renderReference,
  );
const submitTimeout = (deadline: number) =>
  new RenderTimeoutError(
    `timeoutMs passed (at ${new Date(deadline).toISOString()}) before the render was created.`,
  );

/** Per-client state: the render store default, catalog cache and in-flight tasks are never shared across keys. */
export function stateOf(client: RenderClient): ClientState {
  let state = states.get(client);
  if (!state) {
    state = {
      api: createRenderApi(client),
      catalog: new TtlCache(),
      images: new TtlCache(),
      store: new MemoryRenderStore(),
      // Spending tokens: a POST once sent finishes and lands in the store even if every caller left.
      acquisitions: new SharedTasks(submitTimeout, false),
      // Polling: stops when nobody waits any more.
      completions: new SharedTasks(pollTimeout, true),
    };
    states.set(client, state);
  }
  return state;
}

/** Everything one call carries through the steps. */
export interface CallContext {
  clock: Clock;
  signal: AbortSignal | undefined;
  deadline: number;
  timeoutMs: number | undefined;
  emit: ProgressListener;
  listener: ProgressListener | undefined;
  pollIntervalMs: number;
  waitForTokens: boolean;
  store: RenderStore | undefined;
  checkCompatibility: boolean;
  catalogTtlMs: number;
  /** False in renderMany, whose plan already read the rendertokens. */
  preflight: boolean;
}

export function callContext(state: ClientState, options: RenderOptions): CallContext {
  const clock = options.clock ?? systemClock;
  const pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  if (!(pollIntervalMs > 0)) throw new RangeError('pollIntervalMs must be a positive number of milliseconds');
  if (options.timeoutMs !== undefined && !(options.timeoutMs >= 0))
    throw new RangeError('timeoutMs must be a non-negative number of milliseconds');
  return {
    clock,
    signal: options.signal,
    deadline: options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : clock.now() + options.timeoutMs,
    timeoutMs: options.timeoutMs,
    emit: emitter(options.onProgress),
    listener: options.onProgress ? emitter(options.onProgress) : undefined,
    pollIntervalMs,
    waitForTokens: options.waitForTokens ?? false,
    store: options.cache === false ? undefined : (options.cache ?? state.store),
    checkCompatibility: options.checkCompatibility ?? true,
    catalogTtlMs: options.catalogTtlMs ?? DEFAULT_CATALOG_TTL_MS,
    preflight: true,
  };
}

/** Waits for `promise` unless this call is aborted or past its deadline first. */
function bounded<T>(ctx: CallContext, what: string, promise: Promise<T>): Promise<T> {
  checkpoint(ctx, what);
  if (!ctx.signal)
    return promise.then((value) => {
      checkpoint(ctx, what);
      return value;
    });
  const signal = ctx.signal;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        try {
          checkpoint(ctx, what);
          resolve(value);
        } catch (error) {
          reject(error);
        }
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function checkpoint(ctx: CallContext, what: string, renderReference?: string): void {
  if (ctx.signal?.aborted) throw abortReason(ctx.signal);
  if (ctx.clock.now() >= ctx.deadline)
    throw new RenderTimeoutError(`timeoutMs (${ctx.timeoutMs} ms) passed while ${what}.`, renderReference);
}

const catalogKey = (q: CompositionQuery) =>
  `lookup:${q.sceneReference}|${q.productReference}|${q.perspectiveReference}`;

/** The product's productgroup from GET /products (remembering every product seen on the way). */
async function productgroupReference(
  state: ClientState,
  productReference: string,
  ctx: CallContext,
): Promise<string | undefined> {
  const now = ctx.clock.now();
  return state.catalog.load(`productgroup:${productReference}`, now, ctx.catalogTtlMs, async () => {
    let found: string | undefined;
    await state.api.scanProducts((product) => {
      const reference = product.reference;
      if (typeof reference !== 'string') return false;
      const group = productgroupOf(product);
      if (reference === productReference) {
        found = group;
        return true;
      }
      state.catalog.put(`productgroup:${reference}`, now, ctx.catalogTtlMs, group);
      return false;
    });
    return found;
  });
}

/** The HTTP facts of a client error, for an error of this package that wraps it. */
function inherit(error: PartnerPrintError): PartnerPrintErrorInit {
  const { status, code, operation, method, path, retryAfter, rateLimit, requestId } = error;
  return { status, code, operation, method, path, retryAfter, rateLimit, requestId, cause: error };
}

function settle<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/**
 * Step 1 and 2: the composition for scene + product + perspective, checked for compatibility. The lookup
 * and the reads behind the checks run side by side; on a 404 the checks explain why.
 */
export async function resolveComposition(
  state: ClientState,
  query: CompositionQuery,
  ctx: CallContext,
): Promise<Composition> {
  const now = ctx.clock.now();
  const ttl = ctx.catalogTtlMs;
  const { api, catalog } = state;
  const lookup = settle(catalog.load(catalogKey(query), now, ttl, () => api.lookupComposition(query)));
  const checks = ctx.checkCompatibility;
  const scene = checks
    ? settle(
        catalog.load(`scene:${query.sceneReference}`, now, ttl, () => api.getScene(query.sceneReference)),
      )
    : undefined;
  const perspective = checks
    ? settle(
        catalog.load(`perspective:${query.perspectiveReference}`, now, ttl, () =>
          api.getPerspective(query.perspectiveReference),
        ),
      )
    : undefined;
  const group = checks ? settle(productgroupReference(state, query.productReference, ctx)) : undefined;

  const [l, s, p, g] = await bounded(
    ctx,
    'looking up the composition',
    Promise.all([lookup, scene, perspective, group]),
  );
  const facts = {
    scene: s?.ok ? (s.value as Scene) : undefined,
    perspective: p?.ok ? (p.value as Perspective) : undefined,
    productgroupReference: g?.ok ? g.value : undefined,
  };

  if (!l.ok) {
    if (l.error instanceof NotFoundError) {
      const incompatibility = findIncompatibility(query, facts, 'diagnose');
      const init = inherit(l.error);
      throw incompatibility
        ? new IncompatibleCompositionError(query, incompatibility, init)
        : new CompositionNotFoundError(query, init);
    }
    if (l.error instanceof GoneError) throw new CompositionUnavailableError(query, inherit(l.error));
    throw l.error;
  }
  const composition = l.value;
  ctx.emit({ type: 'composition', composition });
  if (!checks) return composition;

  if (!s!.ok) throw s!.error;
  if (!p!.ok) throw p!.error;
  if (g && !(g.ok && g.value)) {
    ctx.emit({
      type: 'warning',
      code: 'productgroup-unknown',
      message: g.ok
        ? `The productgroup of product ${query.productReference} could not be determined from GET /products; the productgroup check was skipped.`
        : `GET /products failed (${(g.error as Error)?.message ?? g.error}); the productgroup check was skipped.`,
    });
  }
  const incompatibility = findIncompatibility(query, facts, 'blocking');
  if (incompatibility) throw new IncompatibleCompositionError(query, incompatibility);
  ctx.emit({ type: 'checked' });
  return composition;
}

/** An `Image_…` reference as given, or the reference of the uploaded bytes (one upload per distinct content). */
export async function resolveImage(state: ClientState, image: ImageInput, ctx: CallContext): Promise<string> {
  let reference: string;
  if (typeof image === 'string') {
    if (!image.startsWith('Image_'))
      throw new TypeError(`image must be an Image_… reference or image bytes, got "${image.slice(0, 40)}"`);
    reference = image;
  } else if (typeof ReadableStream !== 'undefined' && image instanceof ReadableStream) {
    ctx.emit({ type: 'upload' });
    reference = await bounded(ctx, 'uploading the image', state.api.uploadImage(image, ctx.signal));
  } else {
    const bytes = await imageBytes(image);
    const digest = await sha256Hex(bytes);
    ctx.emit({ type: 'upload', digest });
    const upload = () => state.api.uploadImage(bytes);
    // The service returns the same reference for the same bytes, so one upload per content is enough.
    reference = await bounded(
      ctx,
      'uploading the image',
      digest
        ? state.images.load(`image:${digest}`, ctx.clock.now(), Number.POSITIVE_INFINITY, upload)
        : upload(),
    );
  }
  ctx.emit({ type: 'image', imageReference: reference });
  return reference;
}

function resetOf(error: RendertokenLimitError, now: number): number {
  const resetsAt = error.resetsAt?.getTime();
  // A reset in the past would make the wait a busy loop: fall back to the computed next Monday.
  return resetsAt !== undefined && resetsAt > now ? resetsAt : nextRendertokenReset(now).getTime();
}

/** Steps 3 and 4: a render reference for (composition, image), paying only when no known one exists. */
async function acquire(
  state: ClientState,
  composition: Composition,
  imageReference: string,
  ctx: CallContext,
  fresh = false,
): Promise<Acquired & { joined: boolean }> {
  const storeKey = renderCacheKey(composition.reference, imageReference);
  const key = fresh ? `${storeKey}:fresh` : storeKey;
  for (;;) {
    try {
      const joined = state.acquisitions.has(key);
      if (joined) ctx.emit({ type: 'joined', key });
      const acquired = await state.acquisitions.join(
        key,
        { clock: ctx.clock, signal: ctx.signal, deadline: ctx.deadline, listener: ctx.listener },
        (task) => acquireTask(state, composition, imageReference, storeKey, ctx, fresh, task.emit),
      );
      return { ...acquired, joined };
    } catch (error) {
      if (!(error instanceof RendertokenLimitError) || !ctx.waitForTokens) throw error;
      if (error instanceof InsufficientRendertokensError && error.limit < error.required) throw error;
      const now = ctx.clock.now();
      const wakeAt = resetOf(error, now) + RESET_MARGIN_MS;
      if (wakeAt > ctx.deadline)
        throw new RenderTimeoutError(
          `Rendertokens reset at ${new Date(wakeAt - RESET_MARGIN_MS).toISOString()}, after timeoutMs (${ctx.timeoutMs} ms) runs out.`,
        );
      ctx.emit({
        type: 'waiting-for-tokens',
        resetsAt: new Date(wakeAt - RESET_MARGIN_MS),
        waitMs: wakeAt - now,
      });
      await ctx.clock.sleep(wakeAt - now, ctx.signal);
    }
  }
}

async function acquireTask(
  state: ClientState,
  composition: Composition,
  imageReference: string,
  storeKey: string,
  ctx: CallContext,
  fresh: boolean,
  emit: ProgressListener,
): Promise<Acquired> {
  const { store } = ctx;
  if (store && !fresh) {
    let known: string | null | undefined;
    try {
      known = await store.get(storeKey);
    } catch (error) {
      emit({
        type: 'warning',
        code: 'cache-read-failed',
        message: `The render store failed to read: ${error}`,
      });
    }
    if (known) {
      emit({ type: 'cache-hit', renderReference: known });
      return { reference: known, cached: true, spent: 0 };
    }
  }
  if (ctx.preflight) {
    const rendertokens = await state.api.getRendertokens();
    emit({ type: 'tokens', rendertokens, tokenCost: composition.tokenCost });
    if (rendertokens.remaining < composition.tokenCost) {
      const now = ctx.clock.now();
      const parsed = Date.parse(rendertokens.resets);
      throw new InsufficientRendertokensError({
        required: composition.tokenCost,
        remaining: rendertokens.remaining,
        limit: rendertokens.limit,
        resetsAt: new Date(Number.isNaN(parsed) ? nextRendertokenReset(now).getTime() : parsed),
        now,
      });
    }
  }
  const reference = await state.api.createRender({
    compositionReference: composition.reference,
    imageReference,
  });
  emit({ type: 'submitted', renderReference: reference, tokenCost: composition.tokenCost });
  if (store) {
    try {
      await store.set(storeKey, reference);
    } catch (error) {
      emit({
        type: 'warning',
        code: 'cache-write-failed',
        message: `The render store failed to write: ${error}`,
      });
    }
  }
  return { reference, cached: false, spent: composition.tokenCost };
}

function file(bytes: Uint8Array, contentType: string | null, info: Render['media']): RenderFile {
  const mimeType = info?.mimeType ?? contentType?.split(';')[0]?.trim() ?? 'application/octet-stream';
  return {
    bytes,
    mimeType,
    extension: info?.extension ?? mimeType.split('/')[1] ?? 'bin',
    size: bytes.byteLength,
  };
}

/** Steps 5 and 6: poll until the render finishes, then fetch media and thumbnail. One loop per render. */
function complete(state: ClientState, renderReference: string, ctx: CallContext): Promise<Completed> {
  if (state.completions.has(renderReference)) ctx.emit({ type: 'joined', key: renderReference });
  return state.completions.join(
    renderReference,
    { clock: ctx.clock, signal: ctx.signal, deadline: ctx.deadline, listener: ctx.listener },
    async (task) => {
      let render: Render;
      for (let attempt = 1; ; attempt++) {
        const polled = await state.api.getRender(renderReference, task.signal);
        render = polled.render;
        task.emit({ type: 'poll', renderReference, status: render.status, attempt });
        if (render.status === 'completed') break;
        if (render.status === 'failed') throw new RenderFailedError(render);
        // Never sooner than the interval; later when the service asks for it.
        const waitMs = Math.max(ctx.pollIntervalMs, retryAfterMs(polled.retryAfter, ctx.clock.now()) ?? 0);
        task.emit({ type: 'waiting', renderReference, waitMs });
        await task.sleep(waitMs);
      }
      task.emit({ type: 'download', renderReference });
      const [media, thumbnail] = await Promise.all([
        state.api.download(renderReference, 'media', task.signal),
        state.api.download(renderReference, 'thumbnail', task.signal),
      ]);
      return {
        render,
        media: file(media.bytes, media.contentType, render.media),
        thumbnail: file(thumbnail.bytes, thumbnail.contentType, render.thumbnail),
      };
    },
  );
}

function placeholderOf(render: Render, emit: ProgressListener): string | null {
  if (!render.thumbhash) return null;
  try {
    return thumbhashToDataUrl(render.thumbhash);
  } catch (error) {
    emit({
      type: 'warning',
      code: 'placeholder-invalid',
      message: `The thumbhash of render ${render.reference} could not be decoded: ${(error as Error).message}`,
    });
    return null;
  }
}

/** Steps 3 to 6 for a resolved composition and image. */
export async function produce(
  state: ClientState,
  composition: Composition,
  imageReference: string,
  ctx: CallContext,
): Promise<RenderMockupResult> {
  let acquired = await acquire(state, composition, imageReference, ctx);
  let completed: Completed;
  try {
    completed = await complete(state, acquired.reference, ctx);
  } catch (error) {
    if (error instanceof RenderFailedError && ctx.store?.delete) {
      // A failed render is not worth remembering: the next call renders again (and pays again).
      try {
        await ctx.store.delete(renderCacheKey(composition.reference, imageReference));
      } catch {
        // the failure is what the caller needs to hear about
      }
    }
    // A stored reference the service no longer knows (another environment, purged): pay once for a new one.
    if (!(acquired.cached && error instanceof NotFoundError)) throw error;
    ctx.emit({
      type: 'warning',
      code: 'cached-render-missing',
      message: `The stored render ${acquired.reference} was not found; creating a new render.`,
    });
    acquired = await acquire(state, composition, imageReference, ctx, true);
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

function queryOf(options: CompositionQuery): CompositionQuery {
  for (const field of ['sceneReference', 'productReference', 'perspectiveReference'] as const) {
    if (typeof options[field] !== 'string' || !options[field]) throw new TypeError(`${field} is required`);
  }
  return {
    sceneReference: options.sceneReference,
    productReference: options.productReference,
    perspectiveReference: options.perspectiveReference,
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
export async function renderMockup(
  client: RenderClient,
  options: RenderMockupOptions,
): Promise<RenderMockupResult> {
  const query = queryOf(options);
  const state = stateOf(client);
  const ctx = callContext(state, options);
  checkpoint(ctx, 'starting');
  const composition = await resolveComposition(state, query, ctx);
  const imageReference = await resolveImage(state, options.image, ctx);
  return produce(state, composition, imageReference, ctx);
}
