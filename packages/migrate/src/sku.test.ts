import { describe, expect, it } from 'vitest';
import { parseLegacySku } from './sku.ts';

describe('parseLegacySku', () => {
  it('tells plain from suffixed when the item SKUs are known', () => {
    const items = new Set(['CASE-IP15', 'MUGP100']);
    expect(parseLegacySku('CASE-IP15', { itemSkus: items })).toMatchObject({
      kind: 'plain',
      itemSku: 'CASE-IP15',
    });
    expect(parseLegacySku('CASE-IP15P001', { itemSkus: items })).toMatchObject({
      kind: 'suffixed',
      itemSku: 'CASE-IP15',
      suffix: '001',
    });
    // An item SKU that itself ends in P + 3 digits.
    expect(parseLegacySku('MUGP100', { itemSkus: items })).toMatchObject({
      kind: 'plain',
      itemSku: 'MUGP100',
    });
    expect(parseLegacySku('MUGP100P002', { itemSkus: items })).toMatchObject({
      kind: 'suffixed',
      itemSku: 'MUGP100',
    });
  });

  it('plain when the shape cannot be a suffix', () => {
    for (const sku of ['CASE-IP15', 'P12', 'ABCP1234', 'ABCp001', 'ABCP01']) {
      expect(parseLegacySku(sku).kind).toBe('plain');
    }
  });

  it('explains the ambiguity instead of guessing', () => {
    const r = parseLegacySku('MUGP100');
    expect(r.kind).toBe('ambiguous');
    expect(r.itemSku).toBeUndefined();
    expect(r.readings).toEqual([
      { kind: 'suffixed', itemSku: 'MUG', suffix: '100' },
      { kind: 'plain', itemSku: 'MUGP100' },
    ]);
    expect(r.note).toMatch(/could also be a plain item SKU/);
  });

  it('rejects empty and padded SKUs', () => {
    expect(parseLegacySku('').kind).toBe('invalid');
    expect(parseLegacySku(' ABC').kind).toBe('invalid');
    expect(parseLegacySku('AB\tC').kind).toBe('invalid');
  });
});
