import { PartnerPrintError, RendertokenLimitError } from '@partner-print/client/errors';
import { quietly, sha256Hex } from '@partner-print/openapi/wire';
import { readKnown } from './acquire.ts';
import type { RenderClient } from './api.ts';
import { renderCacheKey } from './cache.ts';
import { referenceQuery, resolveComposition } from './composition.ts';
import {
  abortReason,
  bounded,
  type CallContext,
  callContext,
  checkConcurrency,
  type RenderOptions,
  settle as settled,
  until,
} from './context.ts';
import type { RenderProgressEvent } from './events.ts';
import { produce, type RenderMockupOptions, type RenderMockupResult } from './render.ts';
import { nextRendertokenReset, resetsAtOf } from './reset.ts';
import { stateOf } from './state.ts';
import { type BatchTrace, telemetryFor, traceBatch, traceMockup } from './telemetry.ts';
import type { Composition, ImageInput } from './types.ts';
import { imageBytes, resolveImage, uploadOnce } from './upload.ts';

/** One mockup of a batch: the same fields as `renderMockup` takes. */
export type RenderJob = Pick<
  RenderMockupOptions,
  'sceneReference' | 'productReference' | 'perspectiveReference'
> & {
  image: ImageInput;
};

export interface PlannedJob {
  index: number;
  job: RenderJob;
  composition: Composition;
  /** The image's identity: its `Image_…` reference (of bytes the plan uploaded too), else `sha256:…` of its bytes. */
  imageKey: string;
  /** Rendertokens this job adds to the batch: 0 for a repeat of an earlier job or a render already known. */
  cost: number;
  /** Index of the earlier job with the same composition and image, whose render this job shares. */
  duplicateOf?: number;
  /** The render store already knows this (composition, image): no tokens needed. */
  cached: boolean;
}

export interface RejectedJob {
  index: number;
  job: RenderJob;
  /** Why it cannot render at all (CompositionNotFoundError, IncompatibleCompositionError…). */
  error: unknown;
}

export interface RenderPlan {
  /** Rendertokens the whole batch needs: each distinct (composition, image) once, known renders free. */
  totalCost: number;
  /** What the jobs in `fits` spend. */
  fitsCost: number;
  remaining: number;
  limit: number;
  resetsAt: Date;
  /** Jobs whose tokens are covered before the reset, in job order. */
  fits: PlannedJob[];
  /** Jobs that would exceed the remaining tokens: they can run after `resetsAt`. */
  deferred: PlannedJob[];
  /** Jobs that cannot render (no composition, incompatible, …). */
  rejected: RejectedJob[];
}

export type PlanOptions = Pick<
  RenderOptions,
  'cache' | 'clock' | 'signal' | 'checkCompatibility' | 'catalogTtlMs' | 'onProgress'
> & {
  /** Concurrent catalog reads while planning; default 4. */
  concurrency?: number;
};

async function pool<T>(
  items: T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/**
 * A batch's images given as bytes, by object: read once (a Blob, a File: a second read may differ or fail, and
 * costs its size again), then the `Image_` reference once uploaded, which lets the bytes go.
 */
type Reads = Map<unknown, Promise<Uint8Array> | string>;

async function imageKeyOf(
  image: ImageInput,
  index: number,
  reads: Reads,
  streams: Map<unknown, string>,
): Promise<string> {
  if (typeof image === 'string') return image;
  // A stream is not read by the plan: one stream object is one image (its jobs share its one upload), keyed by
  // the first job giving it; two streams count apart, whatever they hold.
  if (typeof ReadableStream !== 'undefined' && image instanceof ReadableStream) {
    const key = streams.get(image) ?? `stream:${index}`;
    streams.set(image, key);
    return key;
  }
  const read = reads.get(image) ?? imageBytes(image);
  reads.set(image, read);
  return `sha256:${await sha256Hex(await (read as Promise<Uint8Array>))}`;
}

/**
 * Whether the store already knows a render of this composition and uploaded image: a `Render_` reference under
 * its key, read as renderMockup reads it (an unreadable store, with its warning, or any other value: no).
 */
const isKnown = async (ctx: CallContext, composition: Composition, imageKey: string) =>
  !!ctx.store &&
  imageKey.startsWith('Image_') &&
  !!(await readKnown(ctx.store, renderCacheKey(composition.reference, imageKey), ctx.emit, (answer) =>
    until(ctx.clock, ctx.deadline, answer),
  ));

/** The plan; aborted, it rejects with the signal's reason (the rendertokens read's own error is an AbortedError). */
const planWith = (
  client: RenderClient,
  jobs: RenderJob[],
  ctx: CallContext,
  concurrency: number,
  reads: Reads = new Map(),
) =>
  planning(client, jobs, ctx, concurrency, reads).catch((error: unknown) => {
    throw ctx.signal?.aborted ? abortReason(ctx.signal) : error;
  });

async function planning(
  client: RenderClient,
  jobs: RenderJob[],
  ctx: CallContext,
  concurrency: number,
  reads: Reads,
) {
  // A signal aborted already: no catalog read either (those run for every caller, whoever gives up).
  if (ctx.signal?.aborted) throw abortReason(ctx.signal);
  const state = stateOf(client);
  const resolved: ({ composition: Composition; imageKey: string; cached?: boolean } | { error: unknown })[] =
    [];
  // The tokens read first: a failure here fails the plan before any catalog read. Aborted with the signal, and at
  // the deadline (a read that hangs).
  const stop = new AbortController();
  const onAbort = () => stop.abort(abortReason(ctx.signal!));
  if (ctx.signal?.aborted) onAbort();
  ctx.signal?.addEventListener('abort', onAbort, { once: true });
  const tokens = state.api.getRendertokens(stop.signal);
  tokens.catch(() => {}).finally(() => ctx.signal?.removeEventListener('abort', onAbort));
  const streams = new Map<unknown, string>();
  await pool(jobs, concurrency, async (job, index) => {
    try {
      const query = referenceQuery(job);
      const [composition, key] = await Promise.all([
        resolveComposition(state, query, ctx),
        settled(imageKeyOf(job.image, index, reads, streams)),
      ]);
      // An image that cannot be read (a File changed on disk since: NotReadableError) fails its job alone.
      resolved[index] = key.ok ? { composition, imageKey: key.value } : { error: key.error };
    } catch (error) {
      // Once aborted, whatever failed is the abort (a reason may itself be a PartnerPrintError or TypeError).
      if (ctx.signal?.aborted || !(error instanceof PartnerPrintError || error instanceof TypeError))
        throw error;
      resolved[index] = { error };
    }
  });
  // Bytes and an `Image_` reference of one composition may be one image: the reference of those bytes (one
  // upload per content, which the renders share) tells. Bytes whose upload fails stay apart: never counted too few.
  const referenced = new Set(
    resolved.map((r) => 'imageKey' in r && r.imageKey.startsWith('Image_') && r.composition.reference),
  );
  // The store asked side by side, once per (composition, image), within the abort: a slow store (a loaded
  // Redis) took all its reads in a row, one that did not answer held the plan past its abort.
  const known = new Map<string, Promise<boolean>>();
  await pool(jobs, concurrency, async (job, index) => {
    const r = resolved[index]!;
    if (!('imageKey' in r)) return;
    if (r.imageKey.startsWith('sha256:') && referenced.has(r.composition.reference))
      try {
        const bytes = (await reads.get(job.image)) as Uint8Array;
        r.imageKey = await uploadOnce(state, bytes, r.imageKey.slice(7), ctx);
      } catch (error) {
        if (ctx.signal?.aborted) throw error;
      }
    const unit = `${r.composition.reference}|${r.imageKey}`;
    if (!known.has(unit)) known.set(unit, isKnown(ctx, r.composition, r.imageKey));
    r.cached = await bounded(ctx, 'reading the render store', known.get(unit)!);
  });
  const rendertokens = await bounded(ctx, 'reading the rendertokens', tokens).catch((error: unknown) => {
    stop.abort(error);
    throw error;
  });
  const now = ctx.clock.now();
  const resetsAt = resetsAtOf(rendertokens, now);

  const result: RenderPlan = {
    totalCost: 0,
    fitsCost: 0,
    remaining: rendertokens.remaining,
    limit: rendertokens.limit,
    resetsAt,
    fits: [],
    deferred: [],
    rejected: [],
  };
  const firsts = new Map<string, PlannedJob>();
  let budget = rendertokens.remaining;
  for (const [index, job] of jobs.entries()) {
    const r = resolved[index]!;
    if ('error' in r) {
      result.rejected.push({ index, job, error: r.error });
      continue;
    }
    const unit = `${r.composition.reference}|${r.imageKey}`;
    const first = firsts.get(unit);
    if (first) {
      const planned: PlannedJob = { ...first, index, job, cost: 0, duplicateOf: first.index };
      (result.fits.includes(first) ? result.fits : result.deferred).push(planned);
      continue;
    }
    const cached = r.cached!;
    const cost = cached ? 0 : r.composition.tokenCost;
    const planned: PlannedJob = {
      index,
      job,
      composition: r.composition,
      imageKey: r.imageKey,
      cost,
      cached,
    };
    firsts.set(unit, planned);
    result.totalCost += cost;
    // In job order; a later, cheaper job may still fit after an expensive one did not.
    if (cost <= budget) {
      budget -= cost;
      result.fitsCost += cost;
      result.fits.push(planned);
    } else {
      result.deferred.push(planned);
    }
  }
  return result;
}

/**
 * The batch's rendertoken cost against the remaining tokens, before anything is spent: each distinct
 * (composition, image) counts once (bytes of a composition that also has an `Image_` reference are uploaded
 * to learn theirs, an upload the renders share), renders already in the store count nothing, and jobs are taken in
 * order while the remaining tokens cover them; the rest are deferred until `resetsAt`.
 */
export async function plan(
  client: RenderClient,
  jobs: RenderJob[],
  options: PlanOptions = {},
): Promise<RenderPlan> {
  const concurrency = checkConcurrency(options.concurrency, 4);
  const ctx = callContext(stateOf(client).store, options);
  return planWith(client, jobs, ctx, concurrency);
}

export type RenderManyResult =
  | { status: 'fulfilled'; value: RenderMockupResult }
  | {
      status: 'rejected';
      reason: unknown;
      /** The render this job paid for (its POST /renders was sent): running the job again picks it up without paying. */
      renderReference?: string;
      tokensSpent?: number;
    }
  | {
      /** Not rendered: the tokens ran out; it can run after `resetsAt` (or pass `waitForTokens`). */
      status: 'deferred';
      resetsAt: Date;
    };

export type BatchProgressEvent =
  | { type: 'planned'; plan: RenderPlan }
  | { type: 'job'; index: number; event: RenderProgressEvent }
  | {
      type: 'settled';
      index: number;
      status: RenderManyResult['status'];
      /** Jobs settled so far, and in all. */
      done: number;
      total: number;
    };

export interface RenderManyOptions extends Omit<RenderOptions, 'onProgress'> {
  /** Jobs rendering at once; default 4. */
  concurrency?: number;
  onProgress?: (event: BatchProgressEvent) => void;
}

export interface RenderManyOutcome {
  plan: RenderPlan;
  /** One entry per job, in job order. */
  results: RenderManyResult[];
}

/**
 * Renders a batch: plans it (see `plan`), runs the jobs that fit `concurrency` at a time, and reports
 * progress. Deferred jobs wait for the weekly reset with `waitForTokens`, else come back as `deferred`.
 * `timeoutMs` bounds the whole batch.
 */
export function renderMany(
  client: RenderClient,
  jobs: RenderJob[],
  options: RenderManyOptions = {},
): Promise<RenderManyOutcome> {
  const telemetry = telemetryFor(client, options.telemetry);
  return traceBatch(telemetry, jobs.length, (trace) =>
    batchOf(client, jobs, { ...options, telemetry }, trace),
  );
}

async function batchOf(
  client: RenderClient,
  jobs: RenderJob[],
  options: RenderManyOptions,
  trace: BatchTrace | undefined,
): Promise<RenderManyOutcome> {
  const state = stateOf(client);
  const notify = (event: BatchProgressEvent) => quietly(() => options.onProgress?.(event));
  const concurrency = checkConcurrency(options.concurrency, 4);
  const base = callContext(state.store, { ...options, onProgress: undefined });
  const reads: Reads = new Map();
  const batch = await planWith(client, jobs, base, concurrency, reads);
  trace?.planned(batch);
  notify({ type: 'planned', plan: batch });

  const results: RenderManyResult[] = new Array(jobs.length);
  let done = 0;
  const settle = (index: number, result: RenderManyResult) => {
    results[index] = result;
    trace?.settled(result.status);
    notify({ type: 'settled', index, status: result.status, done: ++done, total: jobs.length });
  };
  for (const { index, error } of batch.rejected) settle(index, { status: 'rejected', reason: error });

  const run = (planned: PlannedJob, preflight: boolean) =>
    traceMockup(
      options.telemetry,
      'renderMockup',
      { 'partner_print.render.composition_reference': planned.composition.reference },
      (event) => notify({ type: 'job', index: planned.index, event }),
      async (onProgress) => {
        const ctx: CallContext = {
          ...callContext(state.store, { ...options, onProgress }),
          deadline: base.deadline,
          preflight,
        };
        try {
          const { image } = planned.job;
          // The bytes the plan read (or their reference once a job uploaded them), never read again.
          const imageReference = await resolveImage(state, (await reads.get(image)) ?? image, ctx);
          reads.set(image, imageReference);
          settle(planned.index, {
            status: 'fulfilled',
            value: await produce(state, planned.composition, imageReference, ctx),
          });
        } catch (error) {
          // A job that sent its POST /renders says which render it paid for (one in flight is waited for).
          const renderReference = await ctx.post?.catch(() => {});
          if (error instanceof RendertokenLimitError && !options.waitForTokens) {
            settle(planned.index, {
              status: 'deferred',
              resetsAt: error.resetsAt ?? nextRendertokenReset(ctx.clock.now()),
            });
          } else {
            settle(planned.index, {
              status: 'rejected',
              reason: error,
              ...(renderReference && { renderReference, tokensSpent: planned.composition.tokenCost }),
            });
          }
        }
      },
    );

  // The plan read the tokens; a job that fits goes straight to POST (a 429 still defers it).
  await pool(batch.fits, concurrency, (planned) => run(planned, false));
  if (options.waitForTokens) {
    await pool(batch.deferred, concurrency, (planned) => run(planned, true));
  } else {
    for (const planned of batch.deferred)
      settle(planned.index, { status: 'deferred', resetsAt: batch.resetsAt });
  }
  return { plan: batch, results };
}
