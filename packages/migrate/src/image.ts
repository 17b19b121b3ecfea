/**
 * V1 uploads images as base64 inside JSON; V2 takes raw JPEG or PNG bytes (POST /images,
 * application/octet-stream) and returns an `Image_…` reference. Only JPEG and PNG are accepted, so we
 * check the signature before uploading rather than spending a request (and an upload token) on a 4xx.
 */

export type ImageKind = 'jpeg' | 'png';

export class InvalidImageError extends Error {
  override readonly name = 'InvalidImageError';
  /** What the bytes look like, when recognisable (`gif`, `webp`, `pdf`, …). */
  readonly detected: string | undefined;
  constructor(message: string, detected?: string) {
    super(message);
    this.detected = detected;
  }
}

const SIGNATURES: Array<{ kind: string; bytes: number[]; offset?: number }> = [
  { kind: 'jpeg', bytes: [0xff, 0xd8, 0xff] },
  { kind: 'png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { kind: 'gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  { kind: 'pdf', bytes: [0x25, 0x50, 0x44, 0x46] },
  { kind: 'bmp', bytes: [0x42, 0x4d] },
  { kind: 'tiff', bytes: [0x49, 0x49, 0x2a, 0x00] },
  { kind: 'tiff', bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  { kind: 'webp', bytes: [0x57, 0x45, 0x42, 0x50], offset: 8 },
];

/** Identifies the format from the first bytes; `undefined` when unknown. */
export function sniffImageKind(bytes: Uint8Array): string | undefined {
  for (const sig of SIGNATURES) {
    const off = sig.offset ?? 0;
    if (bytes.length < off + sig.bytes.length) continue;
    if (sig.bytes.every((b, i) => bytes[off + i] === b)) return sig.kind;
  }
  if (
    bytes.length >= 12 &&
    bytes[4] === 0x66 &&
    bytes[5] === 0x74 &&
    bytes[6] === 0x79 &&
    bytes[7] === 0x70
  ) {
    return 'heif/avif';
  }
  return undefined;
}

export interface DecodedImage {
  bytes: Uint8Array;
  kind: ImageKind;
  /** The media type declared by a data URL, if any. */
  declaredType?: string;
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Decodes a V1 base64 image (plain base64, base64url, or a `data:image/…;base64,` URL; whitespace and
 * line breaks are ignored) and checks that it is a JPEG or PNG. Throws {@link InvalidImageError}.
 */
export function decodeBase64Image(input: string): DecodedImage {
  if (typeof input !== 'string' || input.length === 0) {
    throw new InvalidImageError('The image is empty or not a string.');
  }
  let data = input;
  let declaredType: string | undefined;
  const dataUrl = /^data:([^;,]*)((?:;[^;,]*)*),/i.exec(data);
  if (dataUrl) {
    declaredType = dataUrl[1] || undefined;
    if (!/;base64/i.test(dataUrl[2] ?? '')) {
      throw new InvalidImageError('The data URL is not base64-encoded.');
    }
    data = data.slice(dataUrl[0].length);
  }
  data = data.replace(/\s+/g, '');
  if (!BASE64.test(data) || data.length % 4 === 1) {
    throw new InvalidImageError('The image is not valid base64.');
  }
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
  return { bytes, kind: checkImageBytes(bytes), ...(declaredType ? { declaredType } : {}) };
}

/** Returns `jpeg` or `png`, or throws {@link InvalidImageError} naming what the bytes look like. */
export function checkImageBytes(bytes: Uint8Array): ImageKind {
  if (bytes.length === 0) throw new InvalidImageError('The image is empty.');
  const kind = sniffImageKind(bytes);
  if (kind === 'jpeg' || kind === 'png') return kind;
  throw new InvalidImageError(
    kind
      ? `The image is ${kind.toUpperCase()}; V2 accepts only JPEG and PNG. Convert it before migrating.`
      : 'The image is neither JPEG nor PNG (unrecognised signature); V2 accepts only JPEG and PNG.',
    kind,
  );
}

/** Hex SHA-256 of the bytes (Web Crypto). */
export async function sha256Hex(bytes: Uint8Array | string): Promise<string> {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const digest = await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>);
  let hex = '';
  for (const b of new Uint8Array(digest)) hex += b.toString(16).padStart(2, '0');
  return hex;
}

export interface ImageUploader {
  /** Uploads bytes (checked to be JPEG/PNG) once per distinct content; returns the `Image_…` reference. */
  upload(bytes: Uint8Array): Promise<string>;
  /** Decodes a V1 base64 image, then {@link ImageUploader.upload}. */
  uploadBase64(base64: string): Promise<string>;
  stats(): { uploads: number; deduplicated: number };
}

/**
 * Deduplicates uploads by content hash: the same bytes are uploaded once, including concurrent
 * requests for the same bytes. A failed upload is forgotten so that a later attempt retries it.
 */
export function createImageUploader(
  target: { uploadImage(data: Uint8Array): Promise<string> } | ((data: Uint8Array) => Promise<string>),
): ImageUploader {
  const uploadFn = typeof target === 'function' ? target : (d: Uint8Array) => target.uploadImage(d);
  const byHash = new Map<string, Promise<string>>();
  let uploads = 0;
  let deduplicated = 0;
  async function upload(bytes: Uint8Array): Promise<string> {
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
