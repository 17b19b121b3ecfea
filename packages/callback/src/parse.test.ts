import { describe, expect, it } from 'vitest';
import { stallFreeStopwatch } from '../../../test-utils/stall.ts';
import { parseOrderUpdatedCallback } from './parse.ts';

const V2 = 'Order_01JABCDEFGHJKMNPQRSTVWXYZ0';
const base = `environment=test&order_reference=ACME-1001&order_reference_v2=${V2}&store_code=ACME`;
const url = (query: string) => `https://partner.example/hooks/print?${query}`;

function ok(input: unknown) {
  const result = parseOrderUpdatedCallback(input);
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.errors)}`);
  return result;
}
/** The warnings of a notification that is still accepted. */
function warningCodes(input: unknown) {
  return ok(input).warnings.map((w) => [w.code, w.parameter]);
}
function errorCodes(input: unknown) {
  const result = parseOrderUpdatedCallback(input);
  if (result.ok) throw new Error('expected errors');
  return result.errors.map((e) => [e.code, e.parameter]);
}

describe('parseOrderUpdatedCallback', () => {
  it('reads every parameter the service sends, aliases included', () => {
    const { value, warnings } = ok(
      url(
        `${base}&custom_reference=shop-42&via_store_code=INTEG&partner_reference=shop-42&partner_code=ACME&via_partner_code=INTEG`,
      ),
    );
    expect(warnings).toEqual([]);
    expect(value).toEqual({
      environment: 'test',
      orderReference: 'ACME-1001',
      orderReferenceParts: { storeCode: 'ACME', number: '1001' },
      orderReferenceV2: V2,
      storeCode: 'ACME',
      customReference: 'shop-42',
      viaStoreCode: 'INTEG',
      extra: [],
    });
  });

  it('accepts URL, URLSearchParams, Request, `/path?query` and `?query`', () => {
    for (const input of [
      new URL(url(base)),
      new URLSearchParams(base),
      new Request(url(base)),
      `/hooks?${base}`,
      `?${base}`,
    ]) {
      expect(ok(input).value.orderReferenceV2).toBe(V2);
    }
  });

  it('accepts a Request of another fetch implementation (same shape, different class)', () => {
    const foreign = { url: url(base), method: 'GET', headers: {} };
    expect(ok(foreign).value.orderReferenceV2).toBe(V2);
  });

  it('omits optional fields that are absent', () => {
    const { value } = ok(url(base));
    expect('customReference' in value).toBe(false);
    expect('viaStoreCode' in value).toBe(false);
  });

  it("returns the partner's own parameters separately, in order, duplicates kept", () => {
    const { value } = ok(url(`tenant=eu&${base}&tag=a&tag=b&tenant=eu`));
    expect(value.extra).toEqual([
      ['tenant', 'eu'],
      ['tag', 'a'],
      ['tag', 'b'],
      ['tenant', 'eu'],
    ]);
    expect(new URLSearchParams(value.extra).getAll('tag')).toEqual(['a', 'b']);
  });

  it('splits the V1 reference on its last "-" (store codes may contain "-")', () => {
    const { value } = ok(
      url(`${base.replace('ACME-1001', 'ACME-EU-0042').replace('store_code=ACME', 'store_code=ACME-EU')}`),
    );
    expect(value.orderReferenceParts).toEqual({ storeCode: 'ACME-EU', number: '0042' });
  });

  describe('aliases', () => {
    it('uses a value given only by its alias, with a warning', () => {
      const result = ok(
        url(
          `environment=prod&order_reference=ACME-1&order_reference_v2=${V2}&partner_code=ACME&partner_reference=r1&via_partner_code=VIA`,
        ),
      );
      expect(result.value).toMatchObject({ storeCode: 'ACME', customReference: 'r1', viaStoreCode: 'VIA' });
      expect(result.warnings.map((w) => [w.code, w.parameter])).toEqual([
        ['alias_only', 'partner_code'],
        ['alias_only', 'partner_reference'],
        ['alias_only', 'via_partner_code'],
      ]);
    });

    it('lets the canonical name win a conflict, with a warning', () => {
      const result = ok(url(`${base}&partner_code=OTHER&custom_reference=a&partner_reference=b`));
      expect(result.value.storeCode).toBe('ACME');
      expect(result.value.customReference).toBe('a');
      expect(result.warnings.map((w) => [w.code, w.parameter])).toEqual([
        ['alias_conflict', 'partner_code'],
        ['alias_conflict', 'partner_reference'],
      ]);
    });

    it('validates a value taken from an alias', () => {
      const input = url(base.replace('store_code=ACME', 'partner_code=AC/ME'));
      expect(warningCodes(input)).toContainEqual(['invalid_parameter', 'partner_code']);
      expect(ok(input).value.storeCode).toBeUndefined();
    });
  });

  describe('duplicated parameters', () => {
    it('refuses a repeated environment or V2 reference with different values', () => {
      expect(errorCodes(url(`${base}&order_reference_v2=Order_${'Z'.repeat(26)}`))).toEqual([
        ['duplicate_parameter', 'order_reference_v2'],
      ]);
      expect(errorCodes(url(`${base}&environment=prod`))).toEqual([['duplicate_parameter', 'environment']]);
    });

    it('leaves out another repeated parameter with different values, with a warning', () => {
      const input = url(`${base}&custom_reference=a&custom_reference=b`);
      expect(warningCodes(input)).toEqual([['duplicate_parameter', 'custom_reference']]);
      expect('customReference' in ok(input).value).toBe(false);
    });

    it('accepts a repeated name with the same value, with a warning', () => {
      const result = ok(url(`${base}&store_code=ACME`));
      expect(result.warnings.map((w) => [w.code, w.parameter])).toEqual([
        ['duplicate_parameter', 'store_code'],
      ]);
    });

    it('does not fall back to the alias when the canonical name was refused', () => {
      const input = url(`${base}&store_code=B&partner_code=ACME`);
      expect(warningCodes(input)).toEqual([['duplicate_parameter', 'store_code']]);
      expect(ok(input).value.storeCode).toBeUndefined();
    });
  });

  describe('percent-encoding', () => {
    it('decodes values before validating them', () => {
      const { value } = ok(url(`${base}&custom_reference=caf%C3%A9%20%2B%201&extra=a%26b`));
      expect(value.customReference).toBe('café + 1');
      expect(value.extra).toEqual([['extra', 'a&b']]);
    });

    it('reads encoded parameter names', () => {
      expect(ok(url(base.replace('store_code', 'store%5Fcode'))).value.storeCode).toBe('ACME');
    });

    it('refuses encoded path characters in the V2 reference, and leaves them out of codes', () => {
      expect(errorCodes(url(base.replace(V2, `Order_${'A'.repeat(24)}%2F.`)))).toEqual([
        ['invalid_parameter', 'order_reference_v2'],
      ]);
      const badStore = url(base.replace('store_code=ACME', 'store_code=..%2FACME'));
      expect(warningCodes(badStore)).toContainEqual(['invalid_parameter', 'store_code']);
      expect(ok(badStore).value.storeCode).toBeUndefined();
      const badVia = url(`${base}&via_store_code=%2E%2E`);
      expect(warningCodes(badVia)).toEqual([['invalid_parameter', 'via_store_code']]);
      expect('viaStoreCode' in ok(badVia).value).toBe(false);
    });

    it('leaves out a custom reference with broken encodings or control characters, with a warning', () => {
      for (const value of ['%FF', 'a%0Ab', 'PO%0942', '', 'x'.repeat(1001)]) {
        const input = url(`${base}&custom_reference=${value}`);
        expect(warningCodes(input)).toEqual([['invalid_parameter', 'custom_reference']]);
        expect('customReference' in ok(input).value).toBe(false);
      }
      expect(ok(url(`${base}&custom_reference=${'x'.repeat(1000)}`)).value.customReference).toHaveLength(
        1000,
      );
    });
  });

  describe('validation', () => {
    it('refuses a notification without environment or V2 reference', () => {
      expect(errorCodes(url('x=1'))).toEqual([
        ['missing_parameter', 'environment'],
        ['missing_parameter', 'order_reference_v2'],
      ]);
    });

    it('accepts a notification with only environment and V2 reference, warning of the others', () => {
      const input = url(`environment=test&order_reference_v2=${V2}`);
      expect(warningCodes(input)).toEqual([
        ['missing_parameter', 'store_code'],
        ['missing_parameter', 'order_reference'],
      ]);
      expect(ok(input).value).toEqual({ environment: 'test', orderReferenceV2: V2, extra: [] });
    });

    it('accepts any URL-unreserved characters in the 26 of the V2 reference (the alphabet is not shown)', () => {
      const odd = `Order_abc-def_ghi.jkl~mnoPQRSTUV`;
      expect(ok(url(base.replace(V2, odd))).value.orderReferenceV2).toBe(odd);
    });

    it.each([
      ['environment=production', 'environment'],
      ['environment=TEST', 'environment'],
      [`order_reference_v2=Order_${'A'.repeat(25)}`, 'order_reference_v2'],
      [`order_reference_v2=Order_${'A'.repeat(27)}`, 'order_reference_v2'],
      [`order_reference_v2=order_${'A'.repeat(26)}`, 'order_reference_v2'],
      [`order_reference_v2=Store_${'A'.repeat(26)}`, 'order_reference_v2'],
      [`order_reference_v2=Order_${'A'.repeat(25)}%C3%A9`, 'order_reference_v2'],
      ['order_reference=ACME1001', 'order_reference'],
      ['order_reference=ACME-', 'order_reference'],
      ['order_reference=-1001', 'order_reference'],
      ['order_reference=ACME-10a', 'order_reference'],
      ['order_reference=ACME-%EF%BC%91', 'order_reference'],
      ['store_code=AC%20ME', 'store_code'],
      ['store_code=_ACME', 'store_code'],
      [`store_code=${'A'.repeat(65)}`, 'store_code'],
    ])('checks %s', (replacement, parameter) => {
      const name = replacement.split('=')[0]!;
      const query = base
        .split('&')
        .map((pair) => (pair.startsWith(`${name}=`) ? replacement : pair))
        .join('&');
      if (parameter === 'environment' || parameter === 'order_reference_v2') {
        expect(errorCodes(url(query))).toContainEqual(['invalid_parameter', parameter]);
      } else {
        // Not needed to act on the notification: left out, with a warning.
        expect(warningCodes(url(query))).toContainEqual(['invalid_parameter', parameter]);
        const field = parameter === 'store_code' ? 'storeCode' : 'orderReference';
        expect(field in ok(url(query)).value).toBe(false);
      }
    });

    it('leaves out order_reference when its store code differs from store_code', () => {
      const input = url(base.replace('ACME-1001', 'OTHER-1001'));
      expect(warningCodes(input)).toEqual([['store_code_mismatch', 'order_reference']]);
      const { value } = ok(input);
      expect(value.storeCode).toBe('ACME');
      expect('orderReference' in value || 'orderReferenceParts' in value).toBe(false);
    });
  });

  describe('never throws', () => {
    it.each([
      ['undefined', undefined],
      ['null', null],
      ['number', 42],
      ['object', { url: 'https://x.example/?environment=test' }],
      ['array', ['a']],
      ['relative path', 'hooks?environment=test'],
      ['not a URL', 'http://['],
      ['lone surrogate', `?${base}&custom_reference=\ud800`],
      ['lone surrogate in URL', `https://x.example/\udfff?${base}`],
    ])('%s', (_, input) => {
      expect(() => parseOrderUpdatedCallback(input)).not.toThrow();
    });

    it('takes the longest callback whose fields pass their checks (custom_reference and its alias at 1000 CJK characters)', () => {
      // 18,000 characters of percent-encoded custom reference (9 per character): over the 16 KiB it once refused whole.
      const longest = '\u4e2d'.repeat(1000);
      const input = url(
        `${base}&custom_reference=${encodeURIComponent(longest)}&partner_reference=${encodeURIComponent(longest)}`,
      );
      expect(input.length).toBeGreaterThan(16 * 1024);
      const result = parseOrderUpdatedCallback(input);
      expect(result.ok).toBe(true);
      expect(result.ok && result.value.customReference).toBe(longest);
    });

    it('refuses huge inputs quickly', () => {
      const huge = url(`${base}&pad=${'x'.repeat(10_000_000)}`);
      // The process's CPU and waits, not the time a starved machine did not run it (test-utils/stall.ts).
      const watch = stallFreeStopwatch();
      try {
        expect(errorCodes(huge)).toEqual([['input_too_long', undefined]]);
        expect(errorCodes(new URLSearchParams({ pad: 'x'.repeat(100_000) }))).toEqual([
          ['input_too_long', undefined],
        ]);
      } finally {
        watch.stop();
      }
      expect(watch.elapsed()).toBeLessThan(500);
    });

    it('survives a throwing getter', () => {
      const hostile = new Proxy(new URL(url(base)), {
        get() {
          throw new Error('boom');
        },
      });
      expect(() => parseOrderUpdatedCallback(hostile)).not.toThrow();
    });

    it('leaves out a custom reference with a lone surrogate, with a warning', () => {
      expect(warningCodes(`?${base}&custom_reference=a\ud800`)).toEqual([
        ['invalid_parameter', 'custom_reference'],
      ]);
    });
  });

  it('never repeats received values in its messages', () => {
    const secret = 'SECRETVALUE';
    const result = parseOrderUpdatedCallback(
      url(
        `environment=${secret}&order_reference=${secret}&order_reference_v2=${secret}&store_code=${secret}%20`,
      ),
    );
    expect(JSON.stringify(result)).not.toContain(secret);
    const accepted = ok(
      url(
        `environment=test&order_reference_v2=${V2}&order_reference=${secret}&store_code=${secret}%20&custom_reference=${secret}%0A&via_store_code=${secret}.`,
      ),
    );
    expect(accepted.warnings).toHaveLength(4);
    expect(JSON.stringify(accepted)).not.toContain(secret);
  });
});
