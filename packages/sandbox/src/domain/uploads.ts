import type { SandboxContext } from '../context.ts';
import { dimensions, sha256Hex, sniffImage } from '../media.ts';
import type { ClaimRecord, UploadRecord } from '../model.ts';
import type { Organization } from '../state.ts';
import { ok, type Result, refused } from './result.ts';

export const MAX_SIDE = 7000;
const DAY_MS = 86_400_000;
/** Unused evidence is deleted after 1 day; attached evidence is purged about four months after its claim closed. */
export const EVIDENCE_UNUSED_LIFETIME_MS = DAY_MS;
export const EVIDENCE_RETENTION_MS: number = 120 * DAY_MS;

/** When a claim was closed (decided or retracted), or null while it is pending. */
export function closedAt(claim: ClaimRecord): number | null {
  return claim.decision?.decided ?? claim.retracted;
}

/** Evidence is purged about four months after the claim's decision or retraction. */
export function evidencePurged(claim: ClaimRecord, now: number): boolean {
  const closed = closedAt(claim);
  return closed !== null && now - closed >= EVIDENCE_RETENTION_MS;
}

/** Evidence that is gone: unused for more than a day (deleted), or purged after its claim closed. */
function evidenceGone(org: Organization, upload: UploadRecord, now: number): boolean {
  if (upload.purged) return true;
  if (upload.claimReference === null) return now - upload.uploaded > EVIDENCE_UNUSED_LIFETIME_MS;
  const claim = org.claims.get(upload.claimReference);
  if (!claim || !evidencePurged(claim, now)) return false;
  // Kept (control.upload shows it), but no longer a usable reference or file.
  upload.purged = true;
  return true;
}

/**
 * A live upload of this kind: unused evidence disappears a day after upload and attached evidence when it is
 * purged; checked whenever evidence is looked up. The same bytes uploaded again then get a new reference.
 */
export function liveUpload(
  org: Organization,
  reference: string,
  kind: UploadRecord['kind'],
  now: number,
): UploadRecord | undefined {
  const upload = org.uploads.get(reference);
  if (!upload || upload.kind !== kind) return undefined;
  if (kind === 'evidence' && evidenceGone(org, upload, now)) {
    if (upload.claimReference === null) org.uploads.delete(reference);
    if (org.uploadsByHash.get(`${kind}:${upload.hash}`) === upload)
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
  if (existing && liveUpload(org, existing.reference, kind, now)) return ok(existing);
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
