import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileSkuCache } from './file-cache.ts';
import { readSkuRecords, skuFileFormat, UsageError } from './files.ts';

const dir = mkdtempSync(join(tmpdir(), 'pp-migrate-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function records(name: string, text: string, skip?: number) {
  const p = join(dir, name);
  writeFileSync(p, text);
  const out = [];
  for await (const r of readSkuRecords(
    p,
    skuFileFormat(p),
    skip === undefined ? {} : { skipUntilLine: skip },
  )) {
    out.push(r);
  }
  return out;
}

describe('readSkuRecords', () => {
  it('reads a CSV with or without header, a TSV, with BOM and CRLF', async () => {
    expect(await records('a.csv', '\uFEFFtitle,SKU\r\nMug,MUG-1\r\n\r\nCase,CASE-1\r\n')).toEqual([
      { line: 2, sku: 'MUG-1', extra: { title: 'Mug' } },
      { line: 4, sku: 'CASE-1', extra: { title: 'Case' } },
    ]);
    expect(await records('b.csv', 'MUG-1\nCASE-1\n')).toEqual([
      { line: 1, sku: 'MUG-1' },
      { line: 2, sku: 'CASE-1' },
    ]);
    expect((await records('c.tsv', 'sku\tqty\nMUG-1\t3\n'))[0]).toEqual({
      line: 2,
      sku: 'MUG-1',
      extra: { qty: '3' },
    });
    expect(await records('d.csv', 'sku\nA\nB\nC\n', 3)).toEqual([{ line: 4, sku: 'C' }]);
  });

  it('reports a malformed CSV line with its own number, in order, and reads the lines after it', async () => {
    expect(
      await records('stray.csv', 'sku,note\nA1,x\nB2,"oops\nC3,y\nD4,"a"b\nE5,w\nF6,"say ""hi"""\n'),
    ).toEqual([
      { line: 2, sku: 'A1', extra: { note: 'x' } },
      { line: 3, error: expect.stringMatching(/^Malformed CSV on line 3: /) },
      { line: 4, sku: 'C3', extra: { note: 'y' } },
      { line: 5, error: expect.stringMatching(/^Malformed CSV on line 5: /) },
      { line: 6, sku: 'E5', extra: { note: 'w' } },
      { line: 7, sku: 'F6', extra: { note: 'say "hi"' } },
    ]);
    // A quote inside an unquoted field is kept as it is.
    expect(await records('inner.csv', 'sku\nMUG"1\n')).toEqual([{ line: 2, sku: 'MUG"1' }]);
    // On resume, lines up to the last one done are skipped, malformed ones included.
    expect(await records('resume.csv', 'sku\nA\n"B\nC\n"D\n', 3)).toEqual([
      { line: 4, sku: 'C' },
      { line: 5, error: expect.stringMatching(/^Malformed CSV on line 5/) },
    ]);
  });

  it('reads JSONL objects and strings and reports bad lines with their numbers', async () => {
    expect(await records('e.jsonl', '{"legacy_sku":"A","n":1}\n"B"\n\n42\n{"x":1}\n{oops\n')).toEqual([
      { line: 1, sku: 'A', extra: { n: 1 } },
      { line: 2, sku: 'B' },
      { line: 4, error: 'Line 4 is neither a JSON string nor an object with "sku"' },
      { line: 5, error: 'Line 5 has no string "sku" field' },
      { line: 6, error: expect.stringMatching(/^Malformed JSON on line 6/) },
    ]);
  });

  it('needs a known extension or --format', () => {
    expect(() => skuFileFormat('skus.xlsx')).toThrow(UsageError);
    expect(skuFileFormat('skus.xlsx', 'csv')).toBe('csv');
    expect(skuFileFormat('skus.NDJSON')).toBe('jsonl');
  });
});

describe('createFileSkuCache', () => {
  it('persists across opens and survives a torn last line', async () => {
    const p = join(dir, 'cache', 'skus.jsonl');
    const a = await createFileSkuCache(p);
    await a.set('A', { productReference: 'Product_a' });
    await a.set('B', { productReference: 'Product_b' });
    writeFileSync(
      p,
      `${'{"sku":"A","productReference":"Product_a2"}\n'}{"sku":"B","productReference":"Product_b"}\n{"sku":"C","prod`,
      {
        flag: 'w',
      },
    );
    const b = await createFileSkuCache(p);
    expect(b.size).toBe(2);
    expect(b.get('A')).toEqual({ productReference: 'Product_a2' });
    await b.set('D', { productReference: 'Product_d' });
    const c = await createFileSkuCache(p);
    expect(c.get('D')).toEqual({ productReference: 'Product_d' });
    expect(c.size).toBe(3);
  });
});
