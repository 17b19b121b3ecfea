import { RendertokenLimitError } from '@partner-print/client/errors';
import { isUnreservedReference, type Reference, systemClock } from '@partner-print/openapi/wire';
import { isLeasing, type LeasingStore, type RenderLease, type RenderStore, renderCacheKey } from './cache.ts';
import { type CallContext, until } from './context.ts';
import { InsufficientRendertokensError, RenderTimeoutError } from './errors.ts';
import type { ProgressListener, RenderProgressEvent } from './events.ts';
import { nextRendertokenReset, resetsAtOf } from './reset.ts';
import { abandoned, attempt, type SharedContext } from './shared.ts';
import type { Acquired, ClientState } from './state.ts';
import type { Composition } from './types.ts';

/** Waiting for the weekly reset wakes this long after it, against clock skew ("earlier retry fails"). */
export const RESET_MARGIN_MS = 1_000;

function resetOf(error: RendertokenLimitError, now: number): number {
  const resetsAt = error.resetsAt?.getTime();
  // A reset in the past would make the wait a busy loop: fall back to the computed next Monday.
  return resetsAt !== undefined && resetsAt > now ? resetsAt : nextRendertokenReset(now).getTime();
}

/**
 * Steps 3 and 4: a render reference for (composition, image), paying only when no known one exists. `stale`: a
 * reference the service no longer knows (its poll answered 404), to be replaced: it does not count as known, any
 * other does (one another call or worker stored since), and the one new render goes through the lease like any.
 */
export async function acquire(
  state: ClientState,
  composition: Composition,
  imageReference: Reference<'Image'>,
  ctx: CallContext,
  stale?: Reference<'Render'>,
): Promise<Acquired & { joined: boolean }> {
  const storeKey = renderCacheKey(composition.reference, imageReference);
  for (;;) {
    try {
      // Paid for, its store write not settled (a set that never answers): known here, nothing to wait for.
      const paid = state.writes.get(storeKey);
      if (paid && paid !== stale) return { ...hit(paid, ctx.emit), joined: false };
      // One task per pair, whether it replaces a stale reference or not: a call joining either gets its answer.
      const joined = state.acquisitions.has(storeKey);
      if (joined) ctx.emit({ type: 'joined', key: storeKey });
      const acquired = await state.acquisitions.join(storeKey, ctx, (task) =>
        acquireTask(state, { composition, imageReference, storeKey }, ctx, stale, task),
      );
      // A task begun by a call that knew nothing of the stale reference found it in the store: look again.
      if (stale !== undefined && acquired.cached && acquired.reference === stale) continue;
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

/**
 * A reference the store knows for this pair, or undefined: a failing store, or one that has not answered
 * `within` the call's deadline, counts as empty, with a warning.
 */
export async function readKnown(
  store: RenderStore,
  key: string,
  emit: ProgressListener,
  within: SharedContext['within'],
  stale?: Reference<'Render'>,
): Promise<Reference<'Render'> | undefined> {
  try {
    const known = await within(store.get(key));
    // Anything else in the store (another tool's key, a cut-off value) is not a render to reuse; nor is the
    // reference being replaced.
    return isUnreservedReference('Render', known) && known !== stale ? known : undefined;
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
  task: SharedContext<RenderProgressEvent>,
) {
  // Aborted once every caller has gone (then no POST follows).
  const rendertokens = await task.request((signal) => state.api.getRendertokens(signal));
  task.emit({ type: 'tokens', rendertokens, tokenCost: composition.tokenCost });
  if (rendertokens.remaining >= composition.tokenCost) return;
  const now = ctx.clock.now();
  throw new InsufficientRendertokensError({
    required: composition.tokenCost,
    remaining: rendertokens.remaining,
    limit: rendertokens.limit,
    resetsAt: resetsAtOf(rendertokens, now),
    now,
  });
}

/** What one acquisition renders: the pair, its store key, and the stale reference it replaces (if any). */
interface Job {
  composition: Composition;
  imageReference: Reference<'Image'>;
  storeKey: string;
  stale?: Reference<'Render'> | undefined;
}

/** A fleet's lease was lost (it expired in a stall; another worker may hold it): a `lease-lost` warning. */
const leaseLost = (emit: ProgressListener, when: string) =>
  emit({ type: 'warning', code: 'lease-lost', message: `The render lease expired ${when}.` });

/**
 * Step 4: the one POST /renders, stored at once so no other call pays for the pair again. `lost`: the
 * signal of the lease held for it, aborted once another worker may hold the lease instead.
 */
async function submit(
  state: ClientState,
  job: Job,
  ctx: CallContext,
  task: SharedContext<RenderProgressEvent>,
  lost?: AbortSignal,
): Promise<Acquired> {
  const { emit } = task;
  if (ctx.preflight) await preflight(state, job.composition, ctx, task);
  // A POST once sent finishes (its reference is stored); one not yet sent is not worth paying for when every
  // caller has gone (aborted, or past its deadline) while the tokens were read or a lease was awaited.
  if (!task.wanted()) throw abandoned();
  // A lease lost before the POST: none is sent (thrown to submitLeased, which waits for the new holder).
  if (lost?.aborted) throw lost;
  ctx.post = state.api.createRender({
    compositionReference: job.composition.reference,
    imageReference: job.imageReference,
  });
  // Not cancelled: a caller past its deadline is let go, and the POST sent finishes and is stored without it.
  const reference = await task.watch(ctx.post);
  emit({ type: 'submitted', renderReference: reference, tokenCost: job.composition.tokenCost });
  const { store } = ctx;
  try {
    // The lease was lost while the POST ran: the worker holding it now may have stored its own reference,
    // which is not written over (this call still answers with the render it paid for).
    if (lost?.aborted && store && (await readKnown(store, job.storeKey, emit, task.within, job.stale)))
      leaseLost(emit, "during POST /renders; another worker's reference is kept");
    else if (store) {
      // Known in this process until the store has it; waited for until the first caller's deadline, then
      // the render paid for is answered all the same (with a warning).
      const write = Promise.resolve(store.set(job.storeKey, reference));
      const forget = () => state.writes.delete(job.storeKey);
      state.writes.set(job.storeKey, reference);
      write.then(forget, forget);
      await task.within(write);
    }
  } catch (error) {
    emit({
      type: 'warning',
      code: 'cache-write-failed',
      message: `The render store failed to write: ${error}`,
    });
  }
  return { reference, cached: false, spent: job.composition.tokenCost };
}

/** Real time a lease's release is waited for: it is cleanup (a lease expires by itself), the render is known. */
export const RELEASE_WAIT_MS = 1_000;

/**
 * Gives a lease back. Its failure (a throw, a rejection, no answer within RELEASE_WAIT_MS of real time or by the
 * deadline) changes nothing of the call's outcome: a `lease-failed` warning, and the release is left to finish.
 */
async function release(
  held: Extract<RenderLease, { acquired: true }>,
  ctx: CallContext,
  task: SharedContext<RenderProgressEvent>,
): Promise<void> {
  try {
    const released = until(
      systemClock,
      systemClock.now() + RELEASE_WAIT_MS,
      attempt(() => held.release()),
      () => Error(`no answer within ${RELEASE_WAIT_MS} ms`),
    );
    // On another clock (a virtual one), the real-time bound alone: its deadline would be armed only as late.
    await (ctx.clock === systemClock ? task.within(released) : released);
  } catch (error) {
    task.emit({
      type: 'warning',
      code: 'lease-failed',
      message: `The render store failed to release the lease: ${error}`,
    });
  }
}

const hit = (reference: Reference<'Render'>, emit: ProgressListener): Acquired => {
  emit({ type: 'cache-hit', renderReference: reference });
  return { reference, cached: true, spent: 0 };
};

/**
 * With a store that leases (a fleet's shared store): one worker holds the pair's lease and submits; the
 * others wait for the reference it stores, or take the lease over when it expires (its worker died). A lease
 * lost before the POST (its signal aborted) sends none: the call waits for the new holder like the others.
 */
async function submitLeased(
  state: ClientState,
  job: Job,
  ctx: CallContext,
  task: SharedContext<RenderProgressEvent>,
  store: LeasingStore,
): Promise<Acquired> {
  for (let waited = false; ; waited = true) {
    let held: RenderLease;
    let asked: Promise<RenderLease> | undefined;
    try {
      asked = store.lease(job.storeKey);
      held = await task.within(asked);
    } catch (error) {
      // Past the deadline: a lease that comes later is given back (whatever its release does: nobody waits).
      asked?.then(
        (late) => {
          if (late.acquired) attempt(() => late.release()).catch(() => {});
        },
        () => {},
      );
      // A lease the store cannot give (its Redis down) fails no render, as a read that fails counts as empty:
      // the render goes on without it, and only the sharing across processes is lost meanwhile.
      task.emit({
        type: 'warning',
        code: 'lease-failed',
        message: `The render store failed to lease: ${error}`,
      });
      return submit(state, job, ctx, task);
    }
    if (held.acquired) {
      try {
        // Whoever held the lease before may have stored the reference since this call last looked, even
        // on the first try: another worker can lease, submit, store and release between that look and this
        // lease (a loaded fleet paid 86 times for 50 mockups).
        const known = await readKnown(store, job.storeKey, task.emit, task.within, job.stale);
        return known ? hit(known, task.emit) : await submit(state, job, ctx, task, held.signal);
      } catch (error) {
        if (error !== held.signal) throw error;
        leaseLost(task.emit, 'before POST /renders; none was sent');
        continue;
      } finally {
        await release(held, ctx, task);
      }
    }
    if (!waited) task.emit({ type: 'leased-elsewhere', key: job.storeKey });
    if (task.waiting === 0) throw abandoned();
    await task.sleep(held.retryMs);
    const known = await readKnown(store, job.storeKey, task.emit, task.within, job.stale);
    if (known) return hit(known, task.emit);
  }
}

async function acquireTask(
  state: ClientState,
  job: Omit<Job, 'stale'>,
  ctx: CallContext,
  stale: Reference<'Render'> | undefined,
  task: SharedContext<RenderProgressEvent>,
): Promise<Acquired> {
  const { store } = ctx;
  if (!store) return submit(state, job, ctx, task);
  // Replacing a stale reference too: another call or worker may have stored the new one since this call read it.
  const known = await readKnown(store, job.storeKey, task.emit, task.within, stale);
  if (known) return hit(known, task.emit);
  if (!isLeasing(store)) return submit(state, { ...job, stale }, ctx, task);
  return submitLeased(state, { ...job, stale }, ctx, task, store);
}
