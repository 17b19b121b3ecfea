import { describe, expect, it } from 'vitest';
import { type CodeSample, isObject, listOperations } from '../../tools/docs/lib/openapi.ts';
import { dedent, extractRegions, sampleInputs } from '../../tools/docs/lib/samples.ts';
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

describe('sample regions', () => {
  const source = [
    '// #region sample',
    "import { x } from 'y';",
    '// #endregion',
    'export const run = async ({ world }) => {',
    '  const { a, b: renamed } = world.things;',
    '  const unused = 1;',
    '  // #region sample',
    '  if (a) {',
    '    use(renamed);',
    '  }',
    '  // #endregion',
    '};',
  ].join('\n');

  it('are cut out, dedented and joined', () => {
    expect(extractRegions(source)).toEqual(["import { x } from 'y';", 'if (a) {\n  use(renamed);\n}']);
    expect(dedent(['    a', '      b', '', '    c'])).toEqual(['a', '  b', '', 'c']);
  });

  it('name the inputs the hidden set-up provides', () => {
    expect(sampleInputs(source, extractRegions(source).join('\n'))).toEqual(['a', 'renamed']);
  });

  it('must be closed and not nested', () => {
    expect(() => extractRegions('// #region sample\nx')).toThrow(/not closed/);
    expect(() => extractRegions('// #region sample\n// #region sample\n// #endregion')).toThrow(/nested/);
  });
});
