import { describe, expect, it } from 'vitest';
import { type CodeSample, isObject, listOperations } from '../../tools/docs/lib/openapi.ts';
import { guideRunnables, withoutRunnableMarks } from '../../tools/docs/lib/runnable.ts';
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
    const { PATHS } = await import('../../tools/docs/lib/paths.ts');
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
    '```ts runnable',
    "import { createClient } from '@partner-print/client';",
    "const client = createClient({ secretKey: process.env.PARTNER_PRINT_SECRET_KEY ?? '', baseUrl: '' });",
    "const { productgroups } = await client.get('/productgroups');",
    '```',
    '```ts',
    'fragment(client);',
    '```',
  ].join('\n');

  it('are the ```ts runnable fences, compiled as whole programs', () => {
    const entries = guideRunnables('guide.md', 'Guide', guide);
    expect(entries.map((e) => [e.sample.id, e.sample.title, e.sample.env])).toEqual([
      ['guide:guide.md:3', 'Guide: Try it', ['PARTNER_PRINT_SECRET_KEY']],
    ]);
    expect(entries[0]!.shown).toContain("await client.get('/productgroups')");
    expect(entries[0]!.sample.js).toContain('require("@partner-print/client")');
  });

  it('reach the page as plain ```ts fences', () => {
    expect(withoutRunnableMarks(guide)).toBe(guide.replace('```ts runnable', '```ts'));
    expect(withoutRunnableMarks('```ts no-check runnable')).toBe('```ts no-check');
  });
});
