import { isUnreservedReference, type Reference, sha256Hex } from '@partner-print/openapi/wire';
import { bounded, type CallContext, checkpoint } from './context.ts';
import type { ClientState } from './state.ts';
import type { ImageInput } from './types.ts';

/** The bytes of an image given as bytes, a Blob or a stream (not as a reference). */
export async function imageBytes(image: Exclude<ImageInput, string>): Promise<Uint8Array> {
  if (image instanceof Uint8Array) return image;
  if (image instanceof ArrayBuffer) return new Uint8Array(image);
  return new Uint8Array(await new Response(image).arrayBuffer());
}

/** An `Image_…` reference as given, or the reference of the uploaded bytes (one upload per distinct content). */
export async function resolveImage(
  state: ClientState,
  image: ImageInput,
  ctx: CallContext,
): Promise<Reference<'Image'>> {
  let reference: Reference<'Image'>;
  if (typeof image === 'string') {
    if (!isUnreservedReference('Image', image))
      throw new TypeError(`image must be an Image_… reference or image bytes, got "${image.slice(0, 40)}"`);
    reference = image;
  } else if (typeof ReadableStream !== 'undefined' && image instanceof ReadableStream) {
    ctx.emit({ type: 'upload' });
    // Read once: every job and call given this same stream shares its upload (a second read found it locked).
    // Not under one caller's signal, so the others' wait is not cut short: each leaves at its own. A caller that
    // has already left starts none (no one would wait for it, and a failure would go unhandled).
    checkpoint(ctx, 'uploading the image');
    const upload = state.streams.get(image) ?? state.api.uploadImage(image);
    state.streams.set(image, upload);
    reference = await bounded(ctx, 'uploading the image', upload);
  } else {
    const bytes = await imageBytes(image);
    const digest = await sha256Hex(bytes);
    ctx.emit({ type: 'upload', digest });
    reference = await uploadOnce(state, bytes, digest, ctx);
  }
  ctx.emit({ type: 'image', imageReference: reference });
  return reference;
}

/** The reference of these bytes: the service returns the same one for the same bytes, so one upload per content. */
export const uploadOnce = (state: ClientState, bytes: Uint8Array, digest: string, ctx: CallContext) =>
  bounded(
    ctx,
    'uploading the image',
    state.images.load(`image:${digest}`, ctx.clock.now(), Number.POSITIVE_INFINITY, () =>
      state.api.uploadImage(bytes),
    ),
  );
