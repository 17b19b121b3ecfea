import type { Hono } from 'hono';
import { readLimited, tooLargeMessage } from '../body.ts';
import type { Ctx, Env, SandboxContext } from '../context.ts';
import { storeUpload } from '../domain/uploads.ts';
import { fail, refuse, wrongMediaType } from '../http.ts';
import { MAX_UPLOAD_BYTES } from '../limits.ts';
import type { UploadRecord } from '../model.ts';

async function upload(c: Ctx, ctx: SandboxContext, kind: UploadRecord['kind']): Promise<Response> {
  const wrong = wrongMediaType(c, 'application/octet-stream');
  if (wrong) return wrong;
  const read = await readLimited(c.req.raw, MAX_UPLOAD_BYTES);
  if (read.kind === 'too_large') return fail(c, 413, 'payload_too_large', tooLargeMessage(read.limit));
  const stored = await storeUpload(ctx, c.get('org'), kind, read.bytes);
  if (stored.kind === 'refused') return refuse(c, stored);
  return c.json({ [kind]: { reference: stored.value.reference } }, 200);
}

export function uploadRoutes(app: Hono<Env>, ctx: SandboxContext): void {
  app.post('/images', (c) => upload(c, ctx, 'image'));
  app.post('/evidence', (c) => upload(c, ctx, 'evidence'));
}
