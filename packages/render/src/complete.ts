import { parseRetryAfter, type Reference } from '@partner-print/openapi/wire';
import type { CallContext } from './context.ts';
import { RenderFailedError } from './errors.ts';
import type { ProgressListener } from './events.ts';
import { thumbhashToDataUrl } from './placeholder.ts';
import type { ClientState, Completed } from './state.ts';
import type { Render, RenderFile } from './types.ts';

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
export function complete(
  state: ClientState,
  renderReference: Reference<'Render'>,
  ctx: CallContext,
): Promise<Completed> {
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
        const waitMs = Math.max(ctx.pollIntervalMs, parseRetryAfter(polled.retryAfter, ctx.clock.now()) ?? 0);
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
