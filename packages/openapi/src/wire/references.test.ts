import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isReference,
  isUnreservedReference,
  REFERENCE_OPAQUE_LENGTH,
  REFERENCE_PREFIXES,
  referencePattern,
  unreservedReferencePattern,
} from './index.ts';

// isUnreservedReference and unreservedReferencePattern exist so that render and the callback parser do not
// bundle the spec's table of patterns; they must answer exactly what the 'unreserved' alphabet answers.
const agree = (prefix: (typeof REFERENCE_PREFIXES)[number], value: unknown) => {
  expect(isUnreservedReference(prefix, value)).toBe(isReference(prefix, value, 'unreserved'));
  if (typeof value === 'string')
    expect(unreservedReferencePattern(prefix).test(value)).toBe(isReference(prefix, value, 'unreserved'));
};

const UNRESERVED = [...'ABCXYZabcxyz0189._~-'];
const OTHER = [...'%/?#@:+ =é\n\t\0', '😀', '\u200b'];

describe('isUnreservedReference and unreservedReferencePattern', () => {
  it("are the 'unreserved' alphabet's pattern, the same object, for every prefix", () => {
    for (const prefix of REFERENCE_PREFIXES) {
      expect(unreservedReferencePattern(prefix)).toBe(referencePattern(prefix, 'unreserved'));
      expect(unreservedReferencePattern(prefix).source).toBe(
        `^${prefix}_[A-Za-z0-9._~-]{${REFERENCE_OPAQUE_LENGTH}}$`,
      );
    }
  });

  it('agree with isReference(prefix, value, "unreserved") on generated reference-shaped values', () => {
    const prefix = fc.constantFrom(...REFERENCE_PREFIXES);
    const opaque = fc
      .array(fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...UNRESERVED) }, fc.constantFrom(...OTHER)), {
        minLength: REFERENCE_OPAQUE_LENGTH - 2,
        maxLength: REFERENCE_OPAQUE_LENGTH + 2,
      })
      .map((chars) => chars.join(''));
    fc.assert(
      fc.property(prefix, prefix, opaque, fc.constantFrom('_', '', '-', '__'), (p, q, rest, sep) =>
        agree(p, `${q}${sep}${rest}`),
      ),
      { numRuns: 2000 },
    );
  });

  it('agree on any value at all', () => {
    fc.assert(
      fc.property(fc.constantFrom(...REFERENCE_PREFIXES), fc.anything(), (p, value) => agree(p, value)),
      { numRuns: 1000 },
    );
  });

  it('agree on the edge cases', () => {
    const ok = 'a-b.c~d_'.repeat(3).concat('xy');
    for (const prefix of REFERENCE_PREFIXES) {
      const cases: unknown[] = [
        `${prefix}_${ok}`,
        `${prefix}_${'A'.repeat(26)}`,
        `${prefix}_${'_'.repeat(26)}`,
        `${prefix}_${'A'.repeat(25)}`,
        `${prefix}_${'A'.repeat(27)}`,
        `${prefix}_${ok}\n`,
        `\n${prefix}_${ok}`,
        ` ${prefix}_${ok}`,
        `${prefix}_${'%'.repeat(26)}`,
        `${prefix}_${'é'.repeat(26)}`,
        `${prefix.toLowerCase()}_${ok}`,
        `${prefix.toUpperCase()}_${ok}`,
        `${prefix}${ok}_`,
        `${prefix}_`,
        prefix,
        '',
        `Productgroup_${ok}`,
        `Product_${ok}`,
        `Claim_${ok}`,
        `Claimcategory_${ok}`,
        new String(`${prefix}_${ok}`),
        { toString: () => `${prefix}_${ok}` },
        [`${prefix}_${ok}`],
        42,
        null,
        undefined,
      ];
      for (const value of cases) agree(prefix, value);
    }
    expect(isUnreservedReference('Order', `Order_${ok}`)).toBe(true);
    expect(isUnreservedReference('Product', `Productgroup_${ok}`)).toBe(false);
    expect(isUnreservedReference('Order', new String(`Order_${ok}`))).toBe(false);
  });
});

describe('an unknown prefix (untyped JavaScript)', () => {
  it('is refused with a TypeError, not read as a pattern that matches everything', () => {
    const untyped = isReference as (prefix: string, value: unknown) => boolean;
    // Not shown: what was passed may be anything, a key pasted in the wrong place included.
    expect(() => untyped('Foo', 'anything')).toThrow(
      new TypeError('Not a reference prefix (REFERENCE_PREFIXES lists them)'),
    );
    for (const prefix of ['Foo', 'constructor', '__proto__', 'toString', ''])
      expect(() => (referencePattern as (prefix: string) => RegExp)(prefix)).toThrow(TypeError);
  });
});
