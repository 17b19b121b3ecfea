import { describe, expect, it } from 'vitest';
import { buildCallbackUrl } from './build-url.ts';
import { parseOrderUpdatedCallback } from './parse.ts';

const V2 = 'Order_01JABCDEFGHJKMNPQRSTVWXYZ0';
const params = {
  environment: 'prod',
  orderReference: 'ACME-7',
  orderReferenceV2: V2,
  storeCode: 'ACME',
} as const;

describe('buildCallbackUrl', () => {
  it('adds the parameters and fills the deprecated aliases as the service does', () => {
    const href = buildCallbackUrl('https://partner.example/hook', {
      ...params,
      customReference: 'r 1',
      viaStoreCode: 'VIA',
    });
    expect(href).toBe(
      `https://partner.example/hook?environment=prod&order_reference=ACME-7&order_reference_v2=${V2}` +
        '&store_code=ACME&custom_reference=r+1&via_store_code=VIA&partner_reference=r+1&partner_code=ACME&via_partner_code=VIA',
    );
  });

  it('omits absent optional parameters and their aliases', () => {
    const search = new URL(buildCallbackUrl('https://partner.example/hook', params)).searchParams;
    expect([...search.keys()]).toEqual([
      'environment',
      'order_reference',
      'order_reference_v2',
      'store_code',
      'partner_code',
    ]);
  });

  it('can leave the aliases out', () => {
    const href = buildCallbackUrl('https://partner.example/hook', params, { aliases: false });
    expect(new URL(href).searchParams.has('partner_code')).toBe(false);
  });

  it("preserves the configured URL's own query text and order", () => {
    const href = buildCallbackUrl('https://partner.example/hook?tenant=eu%20west&sig=a~b&flag#frag', params);
    expect(
      href.startsWith('https://partner.example/hook?tenant=eu%20west&sig=a~b&flag&environment=prod&'),
    ).toBe(true);
    expect(href.endsWith('#frag')).toBe(true);
  });

  it("lets the service's value win every collision, however the name was encoded", () => {
    const href = buildCallbackUrl(
      'https://partner.example/hook?environment=test&keep=1&store%5Fcode=X&store_code=Y&partner_code=Z',
      params,
    );
    const search = new URL(href).searchParams;
    expect(search.getAll('environment')).toEqual(['prod']);
    expect(search.getAll('store_code')).toEqual(['ACME']);
    expect(search.getAll('partner_code')).toEqual(['ACME']);
    expect(search.get('keep')).toBe('1');
  });

  it('keeps a configured alias the service does not send', () => {
    const search = new URL(buildCallbackUrl('https://partner.example/hook?partner_reference=mine', params))
      .searchParams;
    expect(search.get('partner_reference')).toBe('mine');
  });

  it('round-trips through the parser, with the partner parameters as extra', () => {
    const href = buildCallbackUrl('https://partner.example/hook?tenant=eu&tag=a&tag=b', {
      ...params,
      orderReference: 'AC-ME-0007',
      storeCode: 'AC-ME',
      customReference: 'café & co',
    });
    const result = parseOrderUpdatedCallback(href);
    expect(result).toEqual({
      ok: true,
      warnings: [],
      value: {
        environment: 'prod',
        orderReference: 'AC-ME-0007',
        orderReferenceParts: { storeCode: 'AC-ME', number: '0007' },
        orderReferenceV2: V2,
        storeCode: 'AC-ME',
        customReference: 'café & co',
        extra: [
          ['tenant', 'eu'],
          ['tag', 'a'],
          ['tag', 'b'],
        ],
      },
    });
  });

  it('throws a TypeError for a configured URL that is not absolute', () => {
    expect(() => buildCallbackUrl('/hook', params)).toThrow(TypeError);
  });
});
