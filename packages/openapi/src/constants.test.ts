import { describe, expect, test } from 'vitest';
import {
  isKnownErrorCode,
  isReference,
  KNOWN_ERROR_CODES,
  REFERENCE_PREFIXES,
  referencePattern,
  spec,
} from './index.ts';

const schemas = spec.components.schemas as Record<string, { pattern?: string; enum?: string[] }>;

describe('REFERENCE_PREFIXES', () => {
  test('match the reference schemas of the spec', () => {
    const fromSpec = Object.keys(schemas)
      .filter((name) => name.endsWith('Reference') && schemas[name]?.pattern)
      .map((name) => name.slice(0, -'Reference'.length))
      .sort();
    expect(fromSpec).toEqual([...REFERENCE_PREFIXES].sort());
    for (const prefix of REFERENCE_PREFIXES) {
      expect(schemas[`${prefix}Reference`]?.pattern).toBe(referencePattern(prefix).source);
    }
  });

  test('patterns accept 26 opaque characters after the prefix and nothing else', () => {
    expect(isReference('Order', 'Order_HVGT82HTHLMGVK4N9XP02EUR5L')).toBe(true);
    expect(isReference('Order', 'Order_HVGT82HTHLMGVK4N9XP02EUR5')).toBe(false);
    expect(isReference('Order', 'Product_EK7ZHPBV3DGMZFQDP1AUWU5X8I')).toBe(false);
    expect(isReference('Product', 'Productgroup_Q7N5R9047J91JONM2Y1W3TNJGX')).toBe(false);
    expect(isReference('Order', 42)).toBe(false);
  });
});

describe('KNOWN_ERROR_CODES', () => {
  test('match the KnownErrorCode enum of the spec', () => {
    expect(schemas.KnownErrorCode?.enum).toEqual([...KNOWN_ERROR_CODES]);
  });

  test('isKnownErrorCode', () => {
    expect(isKnownErrorCode('rate_limited')).toBe(true);
    expect(isKnownErrorCode('something_new')).toBe(false);
  });
});
