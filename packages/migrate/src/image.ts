/**
 * V1 uploads images as base64 inside JSON; V2 takes raw JPEG or PNG bytes (POST /images,
 * application/octet-stream) and returns an `Image_…` reference. Only JPEG and PNG are accepted (the
 * signature rule lives in `@partner-print/openapi/wire`), so we check before uploading rather than spend a
 * request (and an upload token) on a 4xx.
 */
import { PartnerPrintError } from '@partner-print/client/errors';
import { type Reference, sha256Hex, sniffImageType } from '@partner-print/openapi/wire';
import { hasPrefix } from './convert/report.ts';

export type ImageKind = 'jpeg' | 'png';

/** The bytes are not a JPEG or PNG image (`code: 'invalid_image'`); nothing was uploaded. */
export class InvalidImageError extends PartnerPrintError {
  override name = 'InvalidImageError';
  /** What the bytes look like, when recognisable (`gif`, `webp`, `pdf`, …). */
  readonly detected: string | undefined;
  constructor(message: string, detected?: string) {
    super(message, { code: 'invalid_image' });
    this.detected = detected;
  }
}

// Formats V2 refuses, only to name them in the error (whether bytes are accepted is the wire rule's job).
const REFUSED_SIGNATURES: Array<{ kind: string; bytes: number[]; offset?: number }> = [
  { kind: 'gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  { kind: 'pdf', bytes: [0x25, 0x50, 0x44, 0x46] },
  { kind: 'bmp', bytes: [0x42, 0x4d] },
  { kind: 'tiff', bytes: [0x49, 0x49, 0x2a, 0x00] },
  { kind: 'tiff', bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  { kind: 'webp', bytes: [0x57, 0x45, 0x42, 0x50], offset: 8 },
  { kind: 'heif/avif', bytes: [0x66, 0x74, 0x79, 0x70], offset: 4 },
];

function describeRefused(bytes: Uint8Array): string | undefined {
  return REFUSED_SIGNATURES.find((sig) => {
    const off = sig.offset ?? 0;
    return bytes.length >= off + sig.bytes.length && sig.bytes.every((b, i) => bytes[off + i] === b);
  })?.kind;
}

export interface DecodedImage {
  bytes: Uint8Array;
  kind: ImageKind;
  /** The media type declared by a data URL, if any. */
  declaredType?: string;
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Strips a `data:…;base64,` prefix; returns the payload and the declared media type. */
function splitDataUrl(input: string): { data: string; declaredType?: string } {
  const dataUrl = /^data:([^;,]*)((?:;[^;,]*)*),/i.exec(input);
  if (!dataUrl) return { data: input };
  if (!/;base64/i.test(dataUrl[2] ?? '')) throw new InvalidImageError('The data URL is not base64-encoded.');
  const data = input.slice(dataUrl[0].length);
  return dataUrl[1] ? { data, declaredType: dataUrl[1] } : { data };
}

function base64ToBytes(input: string): Uint8Array {
  let data = input.replace(/\s+/g, '');
  if (!BASE64.test(data) || data.length % 4 === 1)
    throw new InvalidImageError('The image is not valid base64.');
  data = data.replace(/-/g, '+').replace(/_/g, '/');
  while (data.length % 4 !== 0) data += '=';
  let binary: string;
  try {
    binary = atob(data);
  } catch {
    throw new InvalidImageError('The image is not valid base64.');
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Decodes a V1 base64 image (plain base64, base64url, or a `data:image/…;base64,` URL; whitespace and
 * line breaks are ignored) and checks that it is a JPEG or PNG. Throws {@link InvalidImageError}.
 */
export function decodeBase64Image(input: string): DecodedImage {
  if (typeof input !== 'string' || input.length === 0) {
    throw new InvalidImageError('The image is empty or not a string.');
  }
  const { data, declaredType } = splitDataUrl(input);
  const bytes = base64ToBytes(data);
  return { bytes, kind: checkImageBytes(bytes), ...(declaredType ? { declaredType } : {}) };
}

/** Returns `jpeg` or `png`, or throws {@link InvalidImageError} naming what the bytes look like. */
export function checkImageBytes(bytes: Uint8Array): ImageKind {
  if (bytes.length === 0) throw new InvalidImageError('The image is empty.');
  const type = sniffImageType(bytes);
  if (type === 'image/jpeg') return 'jpeg';
  if (type === 'image/png') return 'png';
  const kind = describeRefused(bytes);
  throw new InvalidImageError(
    kind
      ? `The image is ${kind.toUpperCase()}; V2 accepts only JPEG and PNG. Convert it before migrating.`
      : 'The image is neither JPEG nor PNG (unrecognised signature); V2 accepts only JPEG and PNG.',
    kind,
  );
}

export interface ImageUploader {
  /** Uploads bytes (checked to be JPEG/PNG) once per distinct content; returns the `Image_…` reference. */
  upload(bytes: Uint8Array): Promise<Reference<'Image'>>;
  /** Decodes a V1 base64 image, then {@link ImageUploader.upload}. */
  uploadBase64(base64: string): Promise<Reference<'Image'>>;
  stats(): { uploads: number; deduplicated: number };
}

/**
 * Deduplicates uploads by content hash: the same bytes are uploaded once, including concurrent
 * requests for the same bytes. A failed upload is forgotten so that a later attempt retries it.
 */
export function createImageUploader(
  target: { uploadImage(data: Uint8Array): Promise<string> } | ((data: Uint8Array) => Promise<string>),
): ImageUploader {
  const send = typeof target === 'function' ? target : (d: Uint8Array) => target.uploadImage(d);
  const uploadFn = async (d: Uint8Array): Promise<Reference<'Image'>> => {
    const ref = await send(d);
    if (hasPrefix('Image', ref)) return ref;
    throw new PartnerPrintError('The upload answered without an Image_ reference', {
      code: 'unexpected_response',
    });
  };
  const byHash = new Map<string, Promise<Reference<'Image'>>>();
  let uploads = 0;
  let deduplicated = 0;
  async function upload(bytes: Uint8Array): Promise<Reference<'Image'>> {
    checkImageBytes(bytes);
    const hash = await sha256Hex(bytes);
    const existing = byHash.get(hash);
    if (existing) {
      deduplicated++;
      return existing;
    }
    uploads++;
    const p = uploadFn(bytes);
    byHash.set(hash, p);
    p.catch(() => byHash.delete(hash));
    return p;
  }
  return {
    upload,
    uploadBase64: (b64) => upload(decodeBase64Image(b64).bytes),
    stats: () => ({ uploads, deduplicated }),
  };
}
