import type { Hono } from 'hono';
import { readLimited, tooLargeMessage } from '../body.ts';
import type { Ctx, Env, SandboxContext } from '../context.ts';
import { fail } from '../http.ts';
import { MAX_UPLOAD_BYTES } from '../limits.ts';
import { dimensions, sha256Hex, sniffImage } from '../media.ts';
import type { UploadRecord } from '../model.ts';
import type { Organization } from '../state.ts';

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

async function upload(c: Ctx, ctx: SandboxContext, kind: UploadRecord['kind']): Promise<Response> {
  const org = c.get('org');
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/octet-stream') {
    return fail(
      c,
      415,
      'unsupported_content_type',
      'Send the raw image bytes with Content-Type: application/octet-stream',
    );
  }
  const read = await readLimited(c.req.raw, MAX_UPLOAD_BYTES);
  if (read.kind === 'too_large') return fail(c, 413, 'payload_too_large', tooLargeMessage(read.limit));
  const bytes = read.bytes;
  if (bytes.length === 0) return fail(c, 400, 'empty_body', 'The request body holds no image bytes');
  const format = sniffImage(bytes);
  if (!format) {
    return fail(c, 415, 'unsupported_image_format', 'Only JPEG and PNG images are accepted');
  }
  const size = dimensions(bytes);
  if (!size) return fail(c, 422, 'invalid_image', `The ${format.toUpperCase()} image could not be read`);

  const now = ctx.clock.now();
  const hash = await sha256Hex(bytes);
  const existing = org.uploadsByHash.get(`${kind}:${hash}`);
  if (existing && liveUpload(org, existing.reference, kind, now) && !existing.purged) {
    return c.json({ [kind]: { reference: existing.reference } }, 200);
  }
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
  return c.json({ [kind]: { reference: record.reference } }, 200);
}

export function uploadRoutes(app: Hono<Env>, ctx: SandboxContext) {
  app.post('/images', (c) => upload(c, ctx, 'image'));
  app.post('/evidence', (c) => upload(c, ctx, 'evidence'));
}
