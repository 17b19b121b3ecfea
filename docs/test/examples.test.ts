/**
 * Every operation sample shown on the site runs here against the in-process sandbox, so a sample that no longer
 * matches the SDK or the API fails the suite (type errors are caught by `pnpm --filter @partner-print/docs
 * typecheck`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listOperations } from '../../tools/docs/lib/openapi.ts';
import { PATHS } from '../../tools/docs/lib/paths.ts';
import { extractRegions, sdkSample } from '../../tools/docs/lib/samples.ts';
import { createExampleContext, type Example } from '../examples/harness.ts';
import { readBundledSpec } from './site-files.ts';

const operations = listOperations(readBundledSpec()).map((op) => op.operationId);
const files = readdirSync(PATHS.operationExamples)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => basename(f, '.ts'));

const REFERENCE = (prefix: string) => new RegExp(`^${prefix}_[0-9A-Za-z]{26}$`);

/** What a sample's `run` returns, checked beyond "it did not throw". */
const EXPECT: Record<string, (result: unknown) => void> = {
  uploadImage: (r) => expect(r).toMatch(REFERENCE('Image')),
  uploadEvidence: (r) => expect(r).toMatch(REFERENCE('Evidence')),
  createOrder: (r) => expect(r).toMatch(REFERENCE('Order')),
  createPackageMissingClaim: (r) => expect(r).toMatch(REFERENCE('Claim')),
  createItemIssuesClaim: (r) => expect(r).toMatch(REFERENCE('Claim')),
  retractClaim: (r) => expect(r).toBe('retracted'),
  createRender: (r) => expect(r).toMatch(REFERENCE('Render')),
  lookupProductByLegacySku: (r) => expect(r).toMatch(REFERENCE('Product')),
  lookupOrderReferenceByCustomIdentifier: (r) => expect(r).toMatch(REFERENCE('Order')),
  lookupComposition: (r) => expect(r).toBe('ok'),
  listOrders: (r) => expect((r as unknown[]).length).toBeGreaterThanOrEqual(2),
  listClaims: (r) => expect((r as unknown[]).length).toBeGreaterThanOrEqual(1),
  getRenderMedia: (r) => expect((r as Uint8Array).byteLength).toBeGreaterThan(0),
  getProductMedia: (r) => expect((r as Uint8Array).byteLength).toBeGreaterThan(0),
  getRenderThumbnail: (r) => expect(r).toMatchObject({ pending: true }),
  orderUpdated: (r) => {
    const { status, saved } = r as { status: number; saved: string[] };
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(300);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatch(REFERENCE('Order'));
  },
};

beforeAll(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterAll(() => {
  vi.restoreAllMocks();
});

describe('operation samples', () => {
  it('exist for every operation of the spec, and only for those', () => {
    expect(operations.filter((id) => !files.includes(id))).toEqual([]);
    expect(files.filter((f) => !operations.includes(f))).toEqual([]);
  });

  it.each(files)('%s shows a self-explanatory sample region', (id) => {
    const source = readFileSync(join(PATHS.operationExamples, `${id}.ts`), 'utf8');
    const regions = extractRegions(source);
    expect(regions.length).toBeGreaterThan(0);
    const shown = sdkSample(PATHS.operationExamples, id)!.source;
    // The harness stays out of the docs.
    expect(shown).not.toMatch(/\bworld\b|harness|#region|#endregion/);
    expect(shown).toMatch(/\bclient\b/);
  });

  it.each(files)('%s runs against the sandbox', async (id) => {
    const { run } = (await import(join(PATHS.operationExamples, `${id}.ts`))) as { run: Example };
    const context = createExampleContext();
    try {
      const result = await run(context);
      expect(result).toBeDefined();
      EXPECT[id]?.(result);
    } finally {
      context.close();
    }
  });
});
