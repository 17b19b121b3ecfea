import { encode } from 'fast-png';
import { imageSize } from 'image-size';
import { rgbaToThumbHash } from 'thumbhash';

export type ImageFormat = 'jpeg' | 'png';

/** Recognises JPEG and PNG by their magic bytes, never by a declared type. */
export function sniffImage(bytes: Uint8Array): ImageFormat | undefined {
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) {
    if (bytes[4] === 0x0d && bytes[5] === 0x0a && bytes[6] === 0x1a && bytes[7] === 0x0a) return 'png';
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return undefined;
}

export function dimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  try {
    const size = imageSize(bytes);
    if (!size.width || !size.height) return undefined;
    return { width: size.width, height: size.height };
  } catch {
    return undefined;
  }
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  let out = '';
  for (const b of new Uint8Array(digest)) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Deterministic RGBA pixels: a gradient tinted by a seed, so renders differ per image. */
export function pixels(width: number, height: number, seed: number): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  const r0 = seed & 0xff;
  const g0 = (seed >>> 8) & 0xff;
  const b0 = (seed >>> 16) & 0xff;
  let i = 0;
  for (let y = 0; y < height; y++) {
    const fy = y / Math.max(1, height - 1);
    for (let x = 0; x < width; x++) {
      const fx = x / Math.max(1, width - 1);
      data[i++] = (r0 + fx * 160) & 0xff;
      data[i++] = (g0 + fy * 160) & 0xff;
      data[i++] = (b0 + (fx + fy) * 60) & 0xff;
      data[i++] = 255;
    }
  }
  return data;
}

export function png(width: number, height: number, seed: number): Uint8Array {
  return encode({ width, height, data: pixels(width, height, seed), channels: 4, depth: 8 });
}

export interface RenderedMedia {
  media: Uint8Array;
  thumbnail: Uint8Array;
  thumbhash: string;
}

export function thumbnailSize(width: number, height: number): { width: number; height: number } {
  const scale = 100 / Math.max(width, height);
  return {
    width: Math.max(1, Math.round(width * Math.min(1, scale))),
    height: Math.max(1, Math.round(height * Math.min(1, scale))),
  };
}

function base64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/** Renders real PNG bytes and a thumbhash computed from the real thumbnail's pixels. */
export function renderMedia(width: number, height: number, seed: number): RenderedMedia {
  const t = thumbnailSize(width, height);
  const thumbPixels = pixels(t.width, t.height, seed);
  return {
    media: png(width, height, seed),
    thumbnail: encode({ width: t.width, height: t.height, data: thumbPixels, channels: 4, depth: 8 }),
    thumbhash: base64(rgbaToThumbHash(t.width, t.height, thumbPixels)),
  };
}
