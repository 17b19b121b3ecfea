import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { camelToSnake, fromV2Body, snakeToCamel, toCamelDeep, toSnakeDeep, toV2Body } from './case.ts';

describe('case conversion', () => {
  it('converts names', () => {
    expect(snakeToCamel('dropship_address')).toBe('dropshipAddress');
    expect(snakeToCamel('dropship_minimal_shipping_level')).toBe('dropshipMinimalShippingLevel');
    expect(snakeToCamel('_private')).toBe('_private');
    expect(camelToSnake('housenumberAddition')).toBe('housenumber_addition');
    expect(camelToSnake('countryCode')).toBe('country_code');
    expect(camelToSnake('legacyItemSKU')).toBe('legacy_item_sku');
  });

  it('converts deep through arrays and applies the rename table', () => {
    const v1 = {
      partner_reference: 'PO-1',
      shipping_kind: 'dropship',
      dropship_address: { country_code: 'NL', housenumber_addition: 'A' },
      orderlines: [{ product_reference: 'Product_x', quantity: 1, tags: [{ some_key: 1 }] }],
    };
    const v2 = toCamelDeep(v1);
    expect(v2).toEqual({
      customIdentifier: 'PO-1',
      shippingKind: 'dropship',
      dropshipAddress: { countryCode: 'NL', housenumberAddition: 'A' },
      orderlines: [{ productReference: 'Product_x', quantity: 1, tags: [{ someKey: 1 }] }],
    });
    expect(toSnakeDeep(v2)).toEqual(v1);
    expect(toCamelDeep({ partner_reference: 'x' }, { renames: false })).toEqual({ partnerReference: 'x' });
  });

  it('leaves values alone', () => {
    expect(toCamelDeep({ some_key: 'snake_value', d: new Date(0) })).toEqual({
      someKey: 'snake_value',
      d: new Date(0),
    });
  });

  it('an own __proto__ key (from JSON.parse) stays an own key, converted deep, and never sets a prototype', () => {
    const v1 = JSON.parse('{"__proto__": {"some_key": 1}, "a_b": {"__proto__": {"c_d": 2}}}');
    const v2 = toCamelDeep<Record<string, unknown>>(v1);
    expect(Object.getPrototypeOf(v2)).toBe(Object.prototype);
    expect(Object.keys(v2)).toEqual(['__proto__', 'aB']);
    expect(Object.getOwnPropertyDescriptor(v2, '__proto__')?.value).toEqual({ someKey: 1 });
    expect((v2 as { someKey?: unknown }).someKey).toBeUndefined();
    const inner = v2.aB as Record<string, unknown>;
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(inner, '__proto__')?.value).toEqual({ cD: 2 });
    const back = toSnakeDeep<Record<string, unknown>>(v2);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(['__proto__', 'a_b']);
    expect(JSON.stringify(back)).toBe(JSON.stringify(v1));
  });

  it('wraps and unwraps', () => {
    expect(toV2Body('order', { shipping_kind: 'combined' })).toEqual({ order: { shippingKind: 'combined' } });
    expect(fromV2Body('order', { order: { reference: 'Order_1', customIdentifier: 'a' } })).toEqual({
      reference: 'Order_1',
      partner_reference: 'a',
    });
    expect(() => fromV2Body('order', { claim: {} })).toThrow(/wrapped under "order"/);
  });

  it('round-trips snake_case names (property)', () => {
    // Words of two or more letters: a run of one-letter words reads as an acronym (a_b_c → aBC → a_bc).
    const word = fc.stringMatching(/^[a-z][a-z0-9]{1,6}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), (parts) => {
        const snake = parts.join('_');
        // A digit right after an underscore is ambiguous in camelCase (a_1 → a1); skip those.
        fc.pre(!/_\d/.test(snake));
        expect(camelToSnake(snakeToCamel(snake))).toBe(snake);
      }),
    );
  });

  it('refuses two keys that become one name with different values, naming both', () => {
    expect(() => toCamelDeep({ custom_reference: 'x', partner_reference: 'y' })).toThrow(
      /"custom_reference" and "partner_reference" both become "customIdentifier"/,
    );
    expect(() => toCamelDeep({ order: { lines: [{ foo_bar: 1, fooBar: 2 }] } })).toThrow(
      /"foo_bar" and "fooBar" in order\.lines\[0\] both become "fooBar"/,
    );
    expect(() => toSnakeDeep({ fooBar: 1, foo_bar: 2 })).toThrow(TypeError);
    // The same value under both names is one value.
    expect(
      toCamelDeep({ partner_reference: 'A-1', custom_reference: 'A-1', n: { a_b: [1], aB: [1] } }),
    ).toEqual({
      customIdentifier: 'A-1',
      n: { aB: [1] },
    });
  });
});
