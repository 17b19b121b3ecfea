/**
 * Every operation sample shown on the site runs here, whole, through the same runner the page uses (compiled
 * from TypeScript, `process.env` filled by the session) against an in-process sandbox; a sample that no longer
 * matches the SDK or the API fails the suite (type errors are caught by `pnpm --filter @partner-print/docs
 * typecheck`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createSandbox } from '@partner-print/sandbox';
import { describe, expect, it } from 'vitest';
import { listOperations } from '../../tools/docs/lib/openapi.ts';
import { PATHS } from '../../tools/docs/lib/paths.ts';
import { operationRoutes, operationSamples } from '../../tools/docs/lib/runnable.ts';
import { sdkSample, wholeSample } from '../../tools/docs/lib/samples.ts';
import { compileSample } from '../../tools/docs/runner/compile.ts';
import { createModules } from '../../tools/docs/runner/modules.ts';
import { createSession, type Session } from '../../tools/docs/runner/session.ts';
import type { RunEvent, RunResult } from '../../tools/docs/runner/types.ts';
import { readBundledSpec } from './site-files.ts';

const spec = readBundledSpec();
const operations = listOperations(spec).map((op) => op.operationId);
const samples = operationSamples(spec, PATHS.operationExamples);
const routes = operationRoutes(spec);
const files = readdirSync(PATHS.operationExamples)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => basename(f, '.ts'));

const REFERENCE = (prefix: string) => new RegExp(`\\b${prefix}_[0-9A-Za-z]{26}\\b`);

function session(): Session {
  return createSession({
    createSandbox: () => createSandbox({ jitter: 0 }),
    samples,
    modules: createModules,
    routes,
  });
}

const output = (result: RunResult) =>
  result.events
    .filter((e): e is Extract<RunEvent, { kind: 'console' }> => e.kind === 'console')
    .map((e) => e.text)
    .join('\n');
const exchanges = (result: RunResult) =>
  result.events.flatMap((e) => (e.kind === 'exchange' ? [e.exchange] : []));
const steps = (result: RunResult) => result.events.flatMap((e) => (e.kind === 'step' ? [e.text] : []));

/** What a sample prints, checked beyond "it succeeded". */
const PRINTS: Record<string, RegExp> = {
  uploadImage: REFERENCE('Image'),
  uploadEvidence: REFERENCE('Evidence'),
  createOrder: REFERENCE('Order'),
  createPackageMissingClaim: REFERENCE('Claim'),
  createItemIssuesClaim: REFERENCE('Claim'),
  retractClaim: /retracted/,
  createRender: REFERENCE('Render'),
  lookupProductByLegacySku: REFERENCE('Product'),
  lookupOrderReferenceByCustomIdentifier: /shop-order-10042 → Order_/,
  lookupComposition: /costs \d+ rendertokens/,
  getRenderMedia: /image\/\w+ \d+ bytes/,
  getRenderThumbnail: /not ready; ask again in \d+ s/,
  orderUpdated: /^200 \[ "Order_/m,
};

describe('operation samples', () => {
  it('exist for every operation of the spec, and only for those', () => {
    expect(operations.filter((id) => !files.includes(id))).toEqual([]);
    expect(files.filter((f) => !operations.includes(f))).toEqual([]);
  });

  it.each(files)('%s is whole: imports, a client from the environment, a setup part first', (id) => {
    const source = readFileSync(join(PATHS.operationExamples, `${id}.ts`), 'utf8');
    const { setup } = wholeSample(source);
    const shown = sdkSample(PATHS.operationExamples, id)!.source;
    expect(shown).toMatch(/^import .* from '@partner-print\/client';$/m);
    expect(shown).toContain('secretKey: process.env.PARTNER_PRINT_SECRET_KEY');
    expect(shown).toContain('baseUrl: process.env.PARTNER_PRINT_BASE_URL');
    expect(shown).not.toMatch(/\bworld\b|harness|#region|#endregion|from earlier calls/);
    expect(setup?.[0]).toBe(1);
    // Everything the code uses is declared: the type check (docs typecheck) covers the names; here, that the
    // part after the set-up is the sample's own.
    expect(shown.split('\n').slice(setup![1]).join('\n')).toMatch(/\bclient\b|\bhandle\b/);
  });

  it.each(samples.map((s) => [s.operationId ?? s.id, s] as const))(
    '%s runs in a fresh session with its documented status',
    async (id, sample) => {
      const result = await session().run(sample.id);
      expect(result.error).toBeUndefined();
      expect(result.ok).toBe(true);
      if (sample.operationId) {
        const own = exchanges(result).filter((x) => x.operationId === sample.operationId);
        expect(own.length, `${id} made its own request`).toBeGreaterThan(0);
        expect(sample.statuses).toContain(own.at(-1)!.status);
      }
      if (PRINTS[id]) expect(output(result)).toMatch(PRINTS[id]!);
    },
  );
});

describe('the page session', () => {
  it('carries state: the order "Create an order" made is the one "Get an order" reads', async () => {
    const s = session();
    const created = await s.run('op:createOrder');
    const reference = REFERENCE('Order').exec(output(created))![0];
    const read = await s.run('op:getOrder');
    expect(steps(read)).toEqual([]);
    expect(read.env).toContainEqual(['ORDER_REFERENCE', reference]);
    expect(exchanges(read).map((x) => `${x.method} ${x.path} ${x.status}`)).toEqual([
      `GET /orders/${reference} 200`,
    ]);
  });

  it('makes what a sample needs first, and says so', async () => {
    const s = session();
    const result = await s.run('op:createPackageMissingClaim');
    expect(result.ok).toBe(true);
    const said = steps(result).join('\n');
    expect(said).toMatch(/No order in this session yet: running "Create an order" first/);
    expect(said).toMatch(/Sandbox control: shipped Order_\w+ → Shipment_\w+/);
    expect(said).toMatch(/Sandbox control: clock advanced 49 h/);
    // A second claim needs a shipment without one: a new order is made and shipped.
    const second = await s.run('op:createPackageMissingClaim');
    expect(second.ok).toBe(true);
    expect(steps(second).join('\n')).toMatch(/already has a claim: running "Create an order" first/);
    expect(s.memory.orders).toHaveLength(2);
  });

  it('reset starts over from the seed', async () => {
    const s = session();
    await s.run('op:createOrder');
    await s.reset();
    expect(s.memory.orders).toEqual([]);
    const list = await s.run('op:listOrders');
    expect(output(list)).toBe('');
  });

  it('reports an SDK error as raised, with its fields, and the output before it', async () => {
    const missing = compileSample(
      [
        "import { createClient } from '@partner-print/client';",
        'const client = createClient({',
        "  secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '',",
        "  baseUrl: process.env.PARTNER_PRINT_BASE_URL ?? '',",
        '});',
        "console.log('looking');",
        "await client.get('/orders/{orderReference}', { params: { path: { orderReference: 'Order_00000000000000000000000000' } } });",
      ].join('\n'),
      { id: 'test:missing', title: 'missing' },
    );
    const s = createSession({
      createSandbox: () => createSandbox({ jitter: 0 }),
      samples: [missing],
      modules: createModules,
      routes,
    });
    const result = await s.run('test:missing');
    expect(result.ok).toBe(false);
    expect(output(result)).toBe('looking');
    expect(result.error?.name).toBe('NotFoundError');
    expect(result.error?.fields).toContainEqual(['status', '404']);
    expect(result.error?.fields).toContainEqual(['operation', 'getOrder']);
    expect(JSON.stringify(result)).not.toContain(s.sandbox.keys.primary);
  });
});
