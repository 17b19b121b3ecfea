import { describe, expect, it } from 'vitest';
import { loadGuides } from '../../tools/docs/lib/guides.ts';
import { type CodeSample, isObject, listOperations } from '../../tools/docs/lib/openapi.ts';
import { PATHS } from '../../tools/docs/lib/paths.ts';
import {
  fenceMarks,
  guideRunnables,
  NOT_RUNNABLE,
  tsFences,
  withoutRunnableMarks,
} from '../../tools/docs/lib/runnable.ts';
import { wholeSample } from '../../tools/docs/lib/samples.ts';
import { readBuiltSpec } from './site-files.ts';

const built = readBuiltSpec();
const operations = listOperations(built);
const samples = (id: string): CodeSample[] =>
  (operations.find((op) => op.operationId === id)?.node['x-codeSamples'] as unknown as CodeSample[]) ?? [];

describe('code samples in the built spec copy', () => {
  it.each(operations.map((op) => op.operationId))('%s has an SDK sample and a curl command', (id) => {
    const labels = samples(id).map((s) => s.label);
    expect(labels).toContain('SDK (TypeScript)');
    expect(labels.some((l) => l?.startsWith('curl'))).toBe(true);
  });

  it('curl sends raw bytes to the upload endpoints and saves binary downloads', () => {
    const upload = samples('uploadImage').find((s) => s.label === 'curl')!.source;
    expect(upload).toContain('-X POST "$PARTNER_PRINT_BASE_URL/images"');
    expect(upload).toContain('Content-Type: application/octet-stream');
    expect(upload).toContain('--data-binary @design.png');
    const media = samples('getRenderMedia').find((s) => s.label === 'curl')!.source;
    expect(media).toMatch(/\/renders\/Render_[0-9A-Za-z]{26}\/media"/);
    expect(media).toContain('-o output');
    expect(media).toContain('202');
  });

  it('curl carries the example body of JSON operations and never a real key', () => {
    const create = samples('createOrder').find((s) => s.label === 'curl')!.source;
    const body = /--data '([\s\S]*)'\n$/.exec(create)?.[1];
    expect(JSON.parse(body!)).toHaveProperty('order.orderlines');
    for (const op of operations) {
      for (const s of samples(op.operationId)) expect(s.source).not.toMatch(/X-Service-Secret-Key: [^$]/);
    }
  });

  it('spec files are untouched: the samples live only in the built copy', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    for (const f of readdirSync(join(PATHS.specDir, 'paths'))) {
      expect(readFileSync(join(PATHS.specDir, 'paths', f), 'utf8')).not.toContain('SDK (TypeScript)');
    }
    expect(isObject(built.info)).toBe(true);
  });
});

describe('whole samples', () => {
  const source = [
    '// #region setup',
    "import { x } from 'y';",
    '',
    "const a = process.env.A ?? '';",
    '// #endregion',
    '',
    'use(a);',
  ].join('\n');

  it('are shown without their markers, the setup lines noted for folding', () => {
    expect(wholeSample(source)).toEqual({
      source: "import { x } from 'y';\n\nconst a = process.env.A ?? '';\n\nuse(a);\n",
      setup: [1, 3],
    });
    expect(wholeSample('use(a);\n')).toEqual({ source: 'use(a);\n' });
  });

  it('have one closed setup region and no other marker', () => {
    expect(() => wholeSample('// #region setup\nx')).toThrow(/not closed/);
    expect(() => wholeSample('// #region setup\n// #endregion\n// #region setup\n// #endregion')).toThrow(
      /one/,
    );
    expect(() => wholeSample('// #region sample\nx\n// #endregion')).toThrow(/unexpected marker/);
  });
});

describe('runnable guide blocks', () => {
  const guide = [
    '# Guide',
    '## Try it',
    '```ts runnable:first',
    '// #region setup',
    "import { createClient } from '@partner-print/client';",
    "const client = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: '' });",
    '// #endregion',
    "const { claimcategories } = await client.get('/claimcategories');",
    '```',
    '```ts not-runnable:step',
    'fragment(client);',
    '```',
    '```ts runnable',
    "console.log('unnamed');",
    '```',
  ].join('\n');
  const routes = [
    { operationId: 'listClaimcategories', method: 'GET', path: '/claimcategories' },
    { operationId: 'listClaims', method: 'GET', path: '/claims' },
  ];

  it('are the ```ts runnable fences, compiled as whole programs named by their mark', () => {
    const entries = guideRunnables('guide.md', 'Guide', guide, routes);
    expect(
      entries.map((e) => [e.sample.id, e.sample.title, e.sample.env, e.sample.setup, e.sample.uses]),
    ).toEqual([
      [
        'guide:guide.md:first',
        'Guide: Try it',
        ['PARTNER_PRINT_SECRET_KEY'],
        [1, 2],
        ['listClaimcategories'],
      ],
      ['guide:guide.md:13', 'Guide: Try it', [], undefined, undefined],
    ]);
    expect(entries[0]!.shown).toContain("await client.get('/claimcategories')");
    expect(entries[0]!.shown).not.toContain('#region');
    expect(entries[0]!.sample.js).toContain('require("@partner-print/client")');
  });

  it('reach the page as plain ```ts fences, without marks or region markers', () => {
    const shown = withoutRunnableMarks(guide);
    expect(shown).not.toMatch(/runnable|#region|#endregion/);
    expect(shown).toContain("```ts\nimport { createClient } from '@partner-print/client';\nconst client");
    expect(shown).toContain('```ts\nfragment(client);\n```');
    expect(withoutRunnableMarks('```ts no-check runnable\nx\n```')).toBe('```ts no-check\nx\n```');
    // The page shows what the loader recognises: the runnable block's text as compiled.
    const entry = guideRunnables('guide.md', 'Guide', guide, routes)[0]!;
    expect(shown).toContain(entry.shown.trimEnd());
  });

  it('read their marks from the fence info string', () => {
    expect(fenceMarks('```ts runnable:orders')).toEqual({ runnable: 'orders' });
    expect(fenceMarks('```ts runnable')).toEqual({ runnable: '' });
    expect(fenceMarks('```typescript not-runnable:server')).toEqual({ notRunnable: 'server' });
    expect(fenceMarks('```ts')).toEqual({});
    expect(fenceMarks('```sh runnable')).toBeUndefined();
  });
});

describe('every TypeScript block of the guides', () => {
  const guides = loadGuides(PATHS.guides).filter((g) => !g.missing);
  const fences = guides.flatMap((g) => tsFences(g.markdown).map((f) => ({ file: g.file, ...f })));

  it('is runnable or says why not, with a known reason', () => {
    const unclassified = fences.filter(
      (f) => f.marks.runnable === undefined && f.marks.notRunnable === undefined,
    );
    expect(unclassified.map((f) => `${f.file}:${f.line}`)).toEqual([]);
    for (const f of fences.filter((f) => f.marks.notRunnable !== undefined)) {
      expect(Object.keys(NOT_RUNNABLE), `${f.file}:${f.line}`).toContain(f.marks.notRunnable);
    }
  });

  it('that is runnable is a whole program: a named mark, a setup part first, a client from the environment', () => {
    const runnable = fences.filter((f) => f.marks.runnable !== undefined);
    expect(runnable.length).toBeGreaterThanOrEqual(15);
    const ids = new Set<string>();
    for (const f of runnable) {
      const where = `${f.file}:${f.line}`;
      expect(f.marks.runnable, where).toMatch(/^[a-z][a-z-]*$/);
      ids.add(`${f.file}:${f.marks.runnable}`);
      const { source, setup } = wholeSample(f.code);
      expect(setup?.[0], where).toBe(1);
      const setupText = source.split('\n').slice(0, setup![1]).join('\n');
      expect(setupText, where).toMatch(/^import /m);
      if (/createClient/.test(source))
        expect(setupText, where).toMatch(/process\.env\.PARTNER_PRINT_BASE_URL/);
      expect(source, where).not.toMatch(/\bsandbox\.|<[a-z ]+host>/);
    }
    expect(ids.size).toBe(runnable.length);
  });
});
