import type { SandboxContext } from '../context.ts';
import { dimensions, sha256Hex, sniffImage } from '../media.ts';
import type { UploadRecord } from '../model.ts';
import type { Organization } from '../state.ts';
import { ok, type Result, refused } from './result.ts';

export const MAX_SIDE = 7000;
export const EVIDENCE_UNUSED_LIFETIME_MS = 86_400_000;

/** Unused evidence disappears a day after upload; checked whenever evidence is looked up. */
export function liveUpload(
  org: Organization,
  reference: string,
  kind: UploadRecord['kind'],
  now: number,
): UploadRecord | undefined {
  const upload = org.uploads.get(reference);
  if (!upload || upload.kind !== kind) return undefined;
  if (
    kind === 'evidence' &&
    upload.claimReference === null &&
    now - upload.uploaded > EVIDENCE_UNUSED_LIFETIME_MS
  ) {
    org.uploads.delete(reference);
    org.uploadsByHash.delete(`${kind}:${upload.hash}`);
    return undefined;
  }
  return upload;
}

/** POST /images and POST /evidence: JPEG or PNG bytes; the same bytes give the same reference. */
export async function storeUpload(
  ctx: SandboxContext,
  org: Organization,
  kind: UploadRecord['kind'],
  bytes: Uint8Array,
): Promise<Result<UploadRecord>> {
  if (bytes.length === 0) return refused('empty_body', 'The request body holds no image bytes', 400);
  const format = sniffImage(bytes);
  if (!format) return refused('unsupported_image_format', 'Only JPEG and PNG images are accepted', 415);
  const size = dimensions(bytes);
  if (!size) return refused('invalid_image', `The ${format.toUpperCase()} image could not be read`);
  const now = ctx.clock.now();
  const hash = await sha256Hex(bytes);
  const existing = org.uploadsByHash.get(`${kind}:${hash}`);
  if (existing && liveUpload(org, existing.reference, kind, now) && !existing.purged) return ok(existing);
  const downsized = size.width > MAX_SIDE || size.height > MAX_SIDE;
  const scale = downsized ? MAX_SIDE / Math.max(size.width, size.height) : 1;
  const record: UploadRecord = {
    reference: ctx.world.refs.next(kind === 'image' ? 'Image' : 'Evidence'),
    kind,
    hash,
    format,
    width: Math.round(size.width * scale),
    height: Math.round(size.height * scale),
    originalWidth: size.width,
    originalHeight: size.height,
    downsized,
    size: bytes.length,
    uploaded: now,
    bytes,
    claimReference: null,
    purged: false,
  };
  org.uploads.set(record.reference, record);
  org.uploadsByHash.set(`${kind}:${hash}`, record);
  return ok(record);
}
