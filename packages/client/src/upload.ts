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
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (typeof Blob !== 'undefined' && data instanceof Blob) return new Uint8Array(await data.arrayBuffer());
  if (data && typeof (data as ReadableStream).getReader === 'function') {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = (data as ReadableStream<Uint8Array>).getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      chunks.push(r.value);
      size += r.value.byteLength;
    }
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const c of chunks) {
      bytes.set(c, offset);
      offset += c.byteLength;
    }
    return bytes;
  }
  throw new ValidationError(`${operation} takes a Uint8Array, ArrayBuffer, Blob or ReadableStream`, {
    code: 'invalid_upload',
    operation,
  });
}

/** Throws unless the bytes start with the JPEG (FF D8 FF) or PNG (89 50 4E 47 0D 0A 1A 0A) signature. */
export function checkImageSignature(bytes: Uint8Array, operation: string): void {
  if (startsWith(bytes, JPEG) || startsWith(bytes, PNG)) return;
  throw new ValidationError(
    `${operation} takes JPEG or PNG only; these ${bytes.length} bytes start ${Array.from(bytes.subarray(0, 4), (b) => b.toString(16))}. Nothing was sent.`,
    { code: 'unsupported_image_format', operation },
  );
}
