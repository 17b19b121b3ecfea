import type { ImageInput } from './types.ts';

/** The bytes of an image given as bytes, a Blob or a stream (not as a reference). */
export async function imageBytes(image: Exclude<ImageInput, string>): Promise<Uint8Array> {
  if (image instanceof Uint8Array) return image;
  if (image instanceof ArrayBuffer) return new Uint8Array(image);
  return new Uint8Array(await new Response(image).arrayBuffer());
}

/** Hex SHA-256 of the bytes, or undefined where Web Crypto is missing. */
export async function sha256Hex(bytes: Uint8Array): Promise<string | undefined> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return undefined;
  const digest = new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
