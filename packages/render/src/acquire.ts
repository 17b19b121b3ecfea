import { RendertokenLimitError } from '@partner-print/client';
import { isReference, type Reference } from '@partner-print/openapi/wire';
import { isLeasing, type LeasingStore, type RenderStore, renderCacheKey } from './cache.ts';
import type { CallContext } from './context.ts';
import { InsufficientRendertokensError, RenderTimeoutError } from './errors.ts';
import type { ProgressListener, RenderProgressEvent } from './events.ts';
import { nextRendertokenReset } from './reset.ts';
import type { SharedContext } from './shared.ts';
import type { Acquired, ClientState } from './state.ts';
import type { Composition } from './types.ts';

/** Waiting for the weekly reset wakes this long after it, against clock skew ("earlier retry fails"). */
export const RESET_MARGIN_MS = 1_000;

function resetOf(error: RendertokenLimitError, now: number): number {
  const resetsAt = error.resetsAt?.getTime();
  // A reset in the past would make the wait a busy loop: fall back to the computed next Monday.
  return resetsAt !== undefined && resetsAt > now ? resetsAt : nextRendertokenReset(now).getTime();
}

/** Steps 3 and 4: a render reference for (composition, image), paying only when no known one exists. */
export async function acquire(
  state: ClientState,
  composition: Composition,
  imageReference: Reference<'Image'>,
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
        (task) => acquireTask(state, { composition, imageReference, storeKey }, ctx, fresh, task),
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

/** A reference the store knows for this pair, or undefined (a failing store counts as empty, with a warning). */
async function readKnown(
  store: RenderStore,
  key: string,
  emit: ProgressListener,
): Promise<Reference<'Render'> | undefined> {
  try {
    const known = await store.get(key);
    // Anything else in the store (another tool's key, a cut-off value) is not a render to reuse.
    return isReference('Render', known, 'unreserved') ? known : undefined;
  } catch (error) {
    emit({
      type: 'warning',
      code: 'cache-read-failed',
      message: `The render store failed to read: ${error}`,
    });
    return undefined;
  }
}

/** Step 3: enough rendertokens for the composition, or InsufficientRendertokensError. */
async function preflight(
  state: ClientState,
  composition: Composition,
  ctx: CallContext,
  emit: ProgressListener,
) {
  const rendertokens = await state.api.getRendertokens();
  emit({ type: 'tokens', rendertokens, tokenCost: composition.tokenCost });
  if (rendertokens.remaining >= composition.tokenCost) return;
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

/** Step 4: the one POST /renders, stored at once so no other call pays for the pair again. */
async function submit(
  state: ClientState,
  job: { composition: Composition; imageReference: Reference<'Image'>; storeKey: string },
  ctx: CallContext,
  task: SharedContext<RenderProgressEvent>,
): Promise<Acquired> {
  const { emit } = task;
  if (ctx.preflight) await preflight(state, job.composition, ctx, emit);
  // A POST once sent finishes (its reference is stored); one not yet sent is not worth paying for when every
  // caller has gone (aborted, or past its deadline) while the tokens were read or a lease was awaited.
  if (!task.wanted()) throw new DOMException('Every caller stopped waiting.', 'AbortError');
  const reference = await state.api.createRender({
    compositionReference: job.composition.reference,
    imageReference: job.imageReference,
  });
  emit({ type: 'submitted', renderReference: reference, tokenCost: job.composition.tokenCost });
  try {
    await ctx.store?.set(job.storeKey, reference);
  } catch (error) {
    emit({
      type: 'warning',
      code: 'cache-write-failed',
      message: `The render store failed to write: ${error}`,
    });
  }
  return { reference, cached: false, spent: job.composition.tokenCost };
}

const hit = (reference: Reference<'Render'>, emit: ProgressListener): Acquired => {
  emit({ type: 'cache-hit', renderReference: reference });
  return { reference, cached: true, spent: 0 };
};

/**
 * With a store that leases (a fleet's shared store): one worker holds the pair's lease and submits; the
 * others wait for the reference it stores, or take the lease over when it expires (its worker died).
 */
async function submitLeased(
  state: ClientState,
  job: { composition: Composition; imageReference: Reference<'Image'>; storeKey: string },
  ctx: CallContext,
  task: SharedContext<RenderProgressEvent>,
  store: LeasingStore,
): Promise<Acquired> {
  for (let waited = false; ; waited = true) {
    const held = await store.lease(job.storeKey);
    if (held.acquired) {
      try {
        // Whoever held the lease before may have stored the reference since this call last looked, even
        // on the first try: another worker can lease, submit, store and release between that look and this
        // lease (a loaded fleet paid 86 times for 50 mockups).
        const known = await readKnown(store, job.storeKey, task.emit);
        return known ? hit(known, task.emit) : await submit(state, job, ctx, task);
      } finally {
        await Promise.resolve(held.release()).catch(() => {});
      }
    }
    if (!waited) task.emit({ type: 'leased-elsewhere', key: job.storeKey });
    if (task.waiting === 0) throw new DOMException('Every caller stopped waiting.', 'AbortError');
    await task.sleep(held.retryMs);
    const known = await readKnown(store, job.storeKey, task.emit);
    if (known) return hit(known, task.emit);
  }
}

async function acquireTask(
  state: ClientState,
  job: { composition: Composition; imageReference: Reference<'Image'>; storeKey: string },
  ctx: CallContext,
  fresh: boolean,
  task: SharedContext<RenderProgressEvent>,
): Promise<Acquired> {
  const { store } = ctx;
  if (!store) return submit(state, job, ctx, task);
  if (!fresh) {
    const known = await readKnown(store, job.storeKey, task.emit);
    if (known) return hit(known, task.emit);
  }
  if (fresh || !isLeasing(store)) return submit(state, job, ctx, task);
  return submitLeased(state, job, ctx, task, store);
}
