import { ValidationError } from './errors.ts';

export type UploadData = Uint8Array | ArrayBuffer | ArrayBufferView | Blob | ReadableStream<Uint8Array>;

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((b, i) => bytes[i] === b);

/**
 * The upload as one byte array. Streams are read to the end: the signature must be checked before
 * anything is sent, and a retried upload must send the same bytes again.
 */
export async function toBytes(data: UploadData, operation: string): Promise<Uint8Array> {
  if (data instanceof Uint8Array) return data;
  // Response reads every accepted shape (BufferSource, Blob, ReadableStream) the same way in every runtime.
  if (data && typeof data === 'object')
    return new Uint8Array(await new Response(data as BodyInit).arrayBuffer());
  throw new ValidationError(`${operation} takes a Uint8Array, ArrayBuffer, Blob or ReadableStream`, {
    code: 'invalid_upload',
    operation,
  });
}

/** Throws unless the bytes start with the JPEG (FF D8 FF) or PNG (89 50 4E 47 0D 0A 1A 0A) signature. */
export function checkImageSignature(bytes: Uint8Array, operation: string): void {
  if (startsWith(bytes, JPEG) || startsWith(bytes, PNG)) return;
  throw new ValidationError(`${operation} takes JPEG or PNG only; nothing was sent`, {
    code: 'unsupported_image_format',
    operation,
  });
}
