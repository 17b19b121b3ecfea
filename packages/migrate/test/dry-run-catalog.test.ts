import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newSandbox, PNG_B64, run, tempDir } from './helpers.ts';

const readJsonl = (p: string) =>
  readFileSync(p, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('orders dry run against the catalog', () => {
  it('fails a print product without an image and a non-print product with one, as V2 would', async () => {
    const sb = newSandbox();
    const { legacySkus, stores } = sb.seed;
    const dir = tempDir();
    const file = join(dir, 'orders.jsonl');
    const order = (partner_reference: string, orderlines: unknown[]) =>
      JSON.stringify({
        store_reference: stores.combined,
        shipping_kind: 'combined',
        partner_reference,
        orderlines,
      });
    writeFileSync(
      file,
      [
        order('OK-1', [
          { sku: legacySkus.print, image: PNG_B64, quantity: 1 },
          { sku: legacySkus.nonPrint, quantity: 1 },
        ]),
        order('NO-IMAGE', [{ sku: legacySkus.print, quantity: 1 }]),
        order('IMAGE-ON-PROTECTOR', [{ sku: legacySkus.nonPrint, image: PNG_B64, quantity: 1 }]),
      ].join('\n'),
    );
    const r = await run(['orders', file, '--sandbox'], { sandbox: sb });
    expect(r.code).toBe(1);
    const report = readJsonl(join(dir, 'orders.report.jsonl'));
    expect(report.map((l) => [l.line, l.status, l.errors.map((e: { code: string }) => e.code)])).toEqual([
      [1, 'converted', []],
      [2, 'failed', ['missing_image_reference']],
      [3, 'failed', ['unexpected_image_reference']],
    ]);
    expect(r.stderr).toMatch(/line 2: orderlines\[0\]: Product_\S+ is a print product and needs an image/);
    expect(r.stderr).not.toMatch(/orderlines\[0\]: orderlines\[0\]/);

    // What the dry run let through, V2 accepts.
    const submitted = await run(['orders', file, '--sandbox', '--submit', '--json'], { sandbox: sb });
    expect(JSON.parse(submitted.stdout).counts).toMatchObject({ created: 1, failed: 2 });
  });
});
