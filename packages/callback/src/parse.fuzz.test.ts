import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCallbackUrl } from './build-url.ts';
import { ORDER_NUMBER_PATTERN, ORDER_REFERENCE_V2_PATTERN, STORE_CODE_PATTERN } from './params.ts';
import { parseOrderUpdatedCallback } from './parse.ts';
import type { ParseResult } from './types.ts';

const NAMES = [
  'environment',
  'order_reference',
  'order_reference_v2',
  'store_code',
  'custom_reference',
  'via_store_code',
  'partner_reference',
  'partner_code',
  'via_partner_code',
];

function assertSound(result: ParseResult) {
  if (!result.ok) {
    expect(result.errors.length).toBeGreaterThan(0);
    return;
  }
  const v = result.value;
  expect(v.environment === 'prod' || v.environment === 'test').toBe(true);
  expect(v.orderReferenceV2).toMatch(ORDER_REFERENCE_V2_PATTERN);
  // Every field that is present passed its check; a field that did not is absent, with a warning.
  if (v.storeCode !== undefined) expect(v.storeCode).toMatch(STORE_CODE_PATTERN);
  expect(v.orderReference === undefined).toBe(v.orderReferenceParts === undefined);
  if (v.orderReferenceParts !== undefined) {
    expect(v.orderReference).toBe(`${v.orderReferenceParts.storeCode}-${v.orderReferenceParts.number}`);
    expect(v.orderReferenceParts.storeCode).toMatch(STORE_CODE_PATTERN);
    if (v.storeCode !== undefined) expect(v.orderReferenceParts.storeCode).toBe(v.storeCode);
    expect(v.orderReferenceParts.number).toMatch(ORDER_NUMBER_PATTERN);
  }
  if (v.viaStoreCode !== undefined) expect(v.viaStoreCode).toMatch(STORE_CODE_PATTERN);
  const fields = ['storeCode', 'orderReference', 'customReference', 'viaStoreCode'] as const;
  if (fields.some((f) => v[f] === undefined) && result.warnings.length === 0) {
    // Only a parameter that was simply not sent may be absent without a warning (optional ones).
    expect(v.storeCode).toBeDefined();
    expect(v.orderReference).toBeDefined();
  }
  // Nothing that could alter a path survives into the values used in one.
  for (const s of [v.orderReferenceV2, v.storeCode, v.orderReference, v.viaStoreCode]) {
    if (s !== undefined) expect(s).not.toMatch(/[/?#%\s\\]|^\.\.?$/);
  }
}

const printable = (ch: string) => {
  const c = ch.codePointAt(0)!;
  return c >= 0x20 && !(c >= 0x7f && c <= 0x9f) && c !== 0xfffd;
};

// Any UTF-16 code unit, lone surrogates included.
const utf16 = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  maxLength: 200,
});

const validV2 = fc.stringMatching(/^[0-9A-Za-z]{26}$/).map((s) => `Order_${s}`);
const storeCode = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{0,20}$/);
// Values that are often valid, sometimes almost valid, sometimes anything at all.
const nearValue = fc.oneof(
  fc.constantFrom('prod', 'test', 'Prod', ''),
  validV2,
  validV2.map((s) => `${s}/`),
  storeCode,
  fc.tuple(storeCode, fc.nat()).map(([c, n]) => `${c}-${n}`),
  fc.string({ unit: 'grapheme-composite' }),
  fc.string({ unit: 'binary' }),
  fc.string(),
  utf16,
);
const pair = fc.tuple(fc.oneof(fc.constantFrom(...NAMES), fc.string()), nearValue);

describe('parseOrderUpdatedCallback (fuzz)', () => {
  it('never throws on arbitrary query strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 400 }), utf16), (query) => {
        assertSound(parseOrderUpdatedCallback(`?${query}`));
        assertSound(parseOrderUpdatedCallback(`https://p.example/h?${query}`));
        assertSound(parseOrderUpdatedCallback(query));
      }),
      { numRuns: 2000 },
    );
  });

  it('never yields an invalid reference from near-valid parameter lists', () => {
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 14 }), fc.boolean(), (pairs, encodeRaw) => {
        const params = new URLSearchParams(pairs);
        assertSound(parseOrderUpdatedCallback(params));
        const raw = encodeRaw
          ? pairs.map(([n, v]) => `${n}=${v}`).join('&') // unencoded: '&', '=', '%' and '#' leak through
          : params.toString();
        assertSound(parseOrderUpdatedCallback(`?${raw}`));
      }),
      { numRuns: 3000 },
    );
  });

  it('parses back whatever buildCallbackUrl builds from valid values', () => {
    fc.assert(
      fc.property(
        fc.record({
          environment: fc.constantFrom('prod' as const, 'test' as const),
          storeCode,
          number: fc.stringMatching(/^[0-9]{1,20}$/),
          orderReferenceV2: validV2,
          customReference: fc.option(
            fc.string({ minLength: 1, maxLength: 50 }).filter((s) => [...s].every(printable)),
            { nil: undefined },
          ),
          viaStoreCode: fc.option(storeCode, { nil: undefined }),
        }),
        fc.array(fc.tuple(fc.string(), fc.string()), { maxLength: 4 }),
        (p, own) => {
          const configured = new URL('https://partner.example/hook');
          configured.search = new URLSearchParams(own).toString();
          const href = buildCallbackUrl(configured, { ...p, orderReference: `${p.storeCode}-${p.number}` });
          const result = parseOrderUpdatedCallback(href);
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          expect(result.value.orderReferenceV2).toBe(p.orderReferenceV2);
          expect(result.value.storeCode).toBe(p.storeCode);
          expect(result.value.customReference).toBe(p.customReference);
          expect(result.value.viaStoreCode).toBe(p.viaStoreCode);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
