import type { Hono } from 'hono';
import type { Env, SandboxContext } from '../context.ts';
import { evidenceFile } from '../domain/claims.ts';
import { fail } from '../http.ts';

/** Evidence files behind `evidenceUrls`: served without a key, until the evidence is purged. */
export function fileRoutes(app: Hono<Env>, ctx: SandboxContext): void {
  app.get('/files/evidence/:name', (c) => {
    const reference = c.req.param('name').replace(/\.(jpg|png)$/, '');
    const file = evidenceFile(ctx, reference);
    if (!file) return fail(c, 404, 'not_found', 'No such evidence file (it may have been purged)');
    return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': file.type });
  });
}
