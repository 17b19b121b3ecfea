import { describe, expect, test } from 'vitest';
import { referencePrefixOf } from '../../../tools/codegen/references.ts';
import { REFERENCE_PREFIXES, REFERENCE_SCHEMA_PATTERNS } from './generated/reference-prefixes.ts';
import { referencePattern, REFERENCE_PREFIXES as WIRE_PREFIXES } from './wire/index.ts';

describe('reference prefixes generated from x-reference-prefix', () => {
  test('are the wire module prefixes (the reference list), no more, no fewer', () => {
    expect([...REFERENCE_PREFIXES].sort()).toEqual([...WIRE_PREFIXES].sort());
  });

  test("each schema's pattern is the wire module's spec pattern", () => {
    for (const prefix of REFERENCE_PREFIXES) {
      expect(REFERENCE_SCHEMA_PATTERNS[prefix]).toBe(referencePattern(prefix).source);
    }
  });

  test('the codegen refuses a prefix its pattern does not start with', () => {
    expect(
      referencePrefixOf({ pattern: '^Order_[0-9A-Za-z]{26}$', 'x-reference-prefix': 'Order' }, 'x'),
    ).toBe('Order');
    expect(() =>
      referencePrefixOf({ pattern: '^Product_[0-9A-Za-z]{26}$', 'x-reference-prefix': 'Store' }, 'x'),
    ).toThrow(/pattern must start with \^Store_/);
    expect(() => referencePrefixOf({ 'x-reference-prefix': 'order' }, 'x')).toThrow(/capitalised/);
    expect(referencePrefixOf({ pattern: '^Order_' }, 'x')).toBeUndefined();
  });
});
