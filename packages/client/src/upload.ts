import { type AnyInit, coreOf } from './core.ts';
import { ValidationError } from './errors.ts';
import { describeCall } from './response.ts';

export type UploadData = Uint8Array | ArrayBuffer | ArrayBufferView | Blob | ReadableStream<Uint8Array>;

// JPEG (FF D8 FF) and PNG (89 50 4E 47 0D 0A 1A 0A)
const SIGNATURES = [
  [0xff, 0xd8, 0xff],
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
];

/**
 * The upload as one byte array, checked to be a JPEG or PNG before anything is sent. Streams are read
 * to the end: the signature must be checked first, and a retried upload must send the same bytes again.
 */
export async function imageBytes(data: UploadData, operation: string): Promise<Uint8Array> {
  // Response reads every accepted shape (BufferSource, Blob, ReadableStream) the same way in every runtime.
  const bytes =
    data instanceof Uint8Array
      ? data
      : data &&
        typeof data === 'object' &&
        new Uint8Array(await new Response(data as BodyInit).arrayBuffer());
  if (!bytes)
    throw new ValidationError(`${operation} takes a Uint8Array, ArrayBuffer, Blob or ReadableStream`, {
      code: 'invalid_upload',
      operation,
    });
  if (!SIGNATURES.some((signature) => signature.every((b, i) => bytes[i] === b)))
    throw new ValidationError(`${operation} takes JPEG or PNG only; nothing was sent`, {
      code: 'unsupported_image_format',
      operation,
    });
  return bytes;
}

const upload = async (
  client: object,
  template: '/images' | '/evidence',
  data: UploadData,
  init?: AnyInit,
) => {
  const { call, context } = coreOf(client);
  const { reference } = (
    await call('POST', template, {
      ...init,
      body: await imageBytes(data, describeCall(context('POST', template))),
      bodySerializer: (bytes: unknown) => bytes,
      headers: { ...init?.headers, 'Content-Type': 'application/octet-stream' },
    })
  )[template === '/images' ? 'image' : 'evidence'];
  return reference as string;
};

/** Uploads a JPEG or PNG print image (checked before sending, as `application/octet-stream`) and returns its `Image_…` reference. */
export const uploadImage = (client: object, data: UploadData, init?: AnyInit): Promise<string> =>
  upload(client, '/images', data, init);

/** Uploads a JPEG or PNG evidence photo (checked before sending) and returns its `Evidence_…` reference. */
export const uploadEvidence = (client: object, data: UploadData, init?: AnyInit): Promise<string> =>
  upload(client, '/evidence', data, init);
