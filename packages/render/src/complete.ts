import { NotFoundError } from '@partner-print/client/errors';
import { MIN_FILE_WAIT_MS, parseRetryAfter, type Reference } from '@partner-print/openapi/wire';
import type { FileKind } from './api.ts';
import type { CallContext } from './context.ts';
import { RenderFailedError, RenderTimeoutError } from './errors.ts';
import type { ProgressListener, RenderProgressEvent } from './events.ts';
import { thumbhashToDataUrl } from './placeholder.ts';
import type { SharedContext } from './shared.ts';
import type { ClientState, Completed } from './state.ts';
import type { Render, RenderFile } from './types.ts';

/** How long one file may stay 202 once the render completed (what the client's `download` allows). */
export const MAX_FILE_WAIT_MS = 600_000;

function file(bytes: Uint8Array, contentType: string | null, info: Render['media']): RenderFile {
  const mimeType = info?.mimeType ?? contentType?.split(';')[0]?.trim() ?? 'application/octet-stream';
  return {
    bytes,
    mimeType,
    extension: info?.extension ?? mimeType.split('/')[1] ?? 'bin',
    size: bytes.byteLength,
  };
}

/**
 * Whether `error` is the status poll's 404: the render itself is unknown to the service. A 404 of one of its
 * files says nothing of the kind (the render exists; a new POST would return it and charge again).
 */
export function isUnknownRender(state: ClientState, error: unknown): boolean {
  // A WeakSet answers false for a value that is not an object.
  return state.unknownRenders.has(error as object);
}

async function poll(state: ClientState, renderReference: Reference<'Render'>, signal: AbortSignal) {
  try {
    return await state.api.getRender(renderReference, signal);
  } catch (error) {
    if (error instanceof NotFoundError) state.unknownRenders.add(error);
    throw error;
  }
}

/** Steps 5 and 6: poll until the render finishes, then fetch media and thumbnail. One loop per render. */
export function complete(
  state: ClientState,
  renderReference: Reference<'Render'>,
  ctx: CallContext,
): Promise<Completed> {
  if (state.completions.has(renderReference)) ctx.emit({ type: 'joined', key: renderReference });
  return state.completions.join(renderReference, ctx, async (task) => {
    let render: Render;
    // A loop its callers left (a timeoutMs, an abort) polled this render a moment ago: no sooner than it would have.
    let waitMs = (state.nextPolls.get(renderReference) ?? 0) - ctx.clock.now();
    for (let attempt = 1; ; attempt++) {
      if (waitMs > 0) {
        task.emit({ type: 'waiting', renderReference, waitMs });
        await task.sleep(waitMs);
      }
      const polled = await task.request((signal) => poll(state, renderReference, signal));
      render = polled.render;
      task.emit({ type: 'poll', renderReference, status: render.status, attempt });
      if (render.status !== 'pending') state.nextPolls.delete(renderReference);
      if (render.status === 'completed') break;
      if (render.status === 'failed') throw new RenderFailedError(render);
      // Never sooner than the interval; later when the service asks for it.
      waitMs = Math.max(
        ctx.pollIntervalMs,
        parseRetryAfter(polled.retryAfter, ctx.clock.now(), polled.date) ?? 0,
      );
      state.nextPolls.set(renderReference, ctx.clock.now() + waitMs);
    }
    task.emit({ type: 'download', renderReference });
    const [media, thumbnail] = await Promise.all([
      fetchFile(state, renderReference, 'media', task),
      fetchFile(state, renderReference, 'thumbnail', task),
    ]);
    return {
      render,
      media: file(media.bytes, media.contentType, render.media),
      thumbnail: file(thumbnail.bytes, thumbnail.contentType, render.thumbnail),
    };
  });
}

/**
 * One file of a completed render. A 202 is waited out here, on the task's sleep, so the callers' deadlines
 * and signals bound it like the polls (the client's own wait knows neither).
 */
async function fetchFile(
  state: ClientState,
  renderReference: Reference<'Render'>,
  kind: FileKind,
  task: SharedContext<RenderProgressEvent>,
): Promise<{ bytes: Uint8Array; contentType: string | null }> {
  let waited = 0;
  for (;;) {
    const result = await task.request((signal) => state.api.download(renderReference, kind, signal));
    if (!result.pending) return result;
    const waitMs = Math.max(MIN_FILE_WAIT_MS, result.retryAfterSeconds * 1000);
    if (waited + waitMs > MAX_FILE_WAIT_MS)
      throw new RenderTimeoutError(
        `The ${kind} of render ${renderReference} was still not ready within ${MAX_FILE_WAIT_MS} ms of 202 waits.`,
        renderReference,
      );
    waited += waitMs;
    await task.sleep(waitMs);
  }
}

export function placeholderOf(render: Render, emit: ProgressListener): string | null {
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
