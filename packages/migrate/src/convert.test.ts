import { describe, expect, it } from 'vitest';
import { convertV1Order } from './convert.ts';
import { createImageUploader, decodeBase64Image, InvalidImageError } from './image.ts';

const PNG_B64 = btoa(String.fromCharCode(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3));
const GIF_B64 = btoa('GIF89a-not-accepted');
const skus: Record<string, string> = { 'CASE-1': 'Product_case', 'CASE-1P001': 'Product_case_new' };
const resolveSku = async (sku: string) =>
  skus[sku] ? skus[sku] : ({ status: 'unknown', note: 'No product carries it.' } as const);

describe('convertV1Order', () => {
  it('converts the accepted V1 shape and reports every field', async () => {
    const uploader = createImageUploader(async () => 'Image_one');
    const { order, report, errors, ok } = await convertV1Order(
      {
        store_code: 'AB1',
        shipping_kind: 'dropship',
        partner_reference: 'PO-1001',
        dropship_address: { firstname: 'Ada', country_code: 'NL', housenumber: 12, fax: '0123' },
        dropship_minimal_shipping_level: 'tracked',
        orderlines: [
          { sku: 'CASE-1', image: PNG_B64, quantity: 2 },
          {
            product_reference: 'Product_direct',
            image_reference: 'Image_given',
            quantity: '3',
            colour: 'red',
          },
          { sku: 'CASE-1P001', image: `data:image/png;base64,${PNG_B64}`, quantity: 1 },
        ],
        status: 'new',
      },
      {
        resolveSku,
        uploadImage: uploader.uploadBase64,
        storeReference: (c) => (c === 'AB1' ? 'Store_ab1' : undefined),
      },
    );
    expect(errors).toEqual([]);
    expect(ok).toBe(true);
    expect(order).toEqual({
      storeReference: 'Store_ab1',
      shippingKind: 'dropship',
      customIdentifier: 'PO-1001',
      dropshipAddress: { firstname: 'Ada', countryCode: 'NL', housenumber: '12' },
      dropshipMinimalShippingLevel: 'tracked',
      orderlines: [
        { productReference: 'Product_case', imageReference: 'Image_one', quantity: 2 },
        { productReference: 'Product_direct', imageReference: 'Image_given', quantity: 3 },
        { productReference: 'Product_case_new', imageReference: 'Image_one', quantity: 1 },
      ],
    });
    expect(uploader.stats()).toEqual({ uploads: 1, deduplicated: 1 });
    const byPath = Object.fromEntries(report.map((e) => [e.path, e]));
    expect(byPath.status).toMatchObject({ action: 'unknown', to: null });
    expect(byPath['dropship_address.fax']).toMatchObject({ action: 'unknown' });
    expect(byPath['orderlines[1].colour']).toMatchObject({ action: 'unknown', from: 'red' });
    expect(byPath.partner_reference).toMatchObject({ action: 'renamed', to: 'customIdentifier' });
    expect(byPath.store_code).toMatchObject({ action: 'converted', value: 'Store_ab1' });
    expect(byPath['orderlines[0].sku']).toMatchObject({ action: 'converted', value: 'Product_case' });
    expect(byPath['orderlines[0].image']).toMatchObject({ action: 'converted', value: 'Image_one' });
    expect(String(byPath['orderlines[0].image']?.from)).toMatch(/^<base64 image/);
    expect(byPath['orderlines[1].quantity']).toMatchObject({ action: 'converted', value: 3 });
    expect(byPath.shipping_kind).toMatchObject({ action: 'mapped', to: 'shippingKind' });
    // Nothing lost silently: every V1 leaf field shows up in the report.
    expect(report.map((e) => e.path)).toEqual(
      expect.arrayContaining([
        'store_code',
        'shipping_kind',
        'dropship_address.firstname',
        'dropship_address.country_code',
        'dropship_address.housenumber',
        'dropship_minimal_shipping_level',
        'orderlines[0].quantity',
        'orderlines[1].product_reference',
        'orderlines[1].image_reference',
        'orderlines[2].sku',
        'orderlines[2].image',
      ]),
    );
  });

  it('reports unknown SKUs, invalid images and missing fields as errors without dropping the rest', async () => {
    const r = await convertV1Order(
      {
        shipping_kind: 'dropship',
        orderlines: [{ sku: 'NOPE', quantity: 1 }, { sku: 'CASE-1', image: GIF_B64, quantity: 0 }, 'junk'],
      },
      {
        resolveSku,
        uploadImage: async (b) => createImageUploader(async () => 'Image_x').uploadBase64(b),
      },
    );
    expect(r.ok).toBe(false);
    expect(r.errors.map((e) => [e.path, e.code])).toEqual([
      ['store_reference', 'missing_field'],
      ['dropship_address', 'missing_field'],
      ['orderlines[0].sku', 'unknown_sku'],
      ['orderlines[1].image', 'invalid_image'],
      ['orderlines[1].quantity', 'invalid_value'],
      ['orderlines[2]', 'invalid_value'],
    ]);
    expect(r.errors[3]?.message).toMatch(/GIF/);
    expect(r.order.orderlines[1]?.productReference).toBe('Product_case');
  });

  it('a dropship address with no usable field ({}, only empty values, only unknown fields) is missing, as V2 says (missing_address)', async () => {
    for (const address of [{}, { city: null }, { city: undefined, fax: '0123' }, { fax: '0123' }]) {
      const r = await convertV1Order({
        store_reference: 'Store_1',
        shipping_kind: 'dropship',
        dropship_address: address,
        orderlines: [{ product_reference: 'Product_1', quantity: 1 }],
      });
      expect(r.ok).toBe(false);
      expect(r.errors.map((e) => [e.path, e.code])).toEqual([['dropship_address', 'missing_field']]);
      expect(r.errors[0]?.message).toMatch(/missing_address/);
      expect(r.order).not.toHaveProperty('dropshipAddress');
    }
    // One field set is an address.
    const one = await convertV1Order({
      store_reference: 'Store_1',
      shipping_kind: 'dropship',
      dropship_address: { city: 'Utrecht', fax: '0123' },
      orderlines: [{ product_reference: 'Product_1', quantity: 1 }],
    });
    expect(one.ok).toBe(true);
    expect(one.order).toMatchObject({ dropshipAddress: { city: 'Utrecht' } });
  });

  it('treats a thrown UnknownSkuError or 404 as unknown_sku and other throws as lookup_failed', async () => {
    const r = await convertV1Order(
      {
        store_reference: 'Store_1',
        shipping_kind: 'combined',
        orderlines: [
          { sku: 'A', quantity: 1 },
          { sku: 'B', quantity: 1 },
        ],
      },
      {
        resolveSku: async (s) => {
          if (s === 'A') throw Object.assign(new Error('not found'), { status: 404 });
          throw new Error('socket hang up');
        },
      },
    );
    expect(r.errors.map((e) => e.code)).toEqual(['unknown_sku', 'lookup_failed']);
  });

  it('unwraps a wrapped body, drops the address of combined orders, prefers custom_identifier', async () => {
    const r = await convertV1Order({
      order: {
        store_reference: 'Store_1',
        shipping_kind: 'combined',
        custom_identifier: 'C-1',
        partner_reference: 'P-1',
        dropship_address: { city: 'Utrecht' },
        orderlines: [{ product_reference: 'Product_1', quantity: 1 }],
      },
    });
    expect(r.ok).toBe(true);
    expect(r.order).toEqual({
      storeReference: 'Store_1',
      shippingKind: 'combined',
      customIdentifier: 'C-1',
      orderlines: [{ productReference: 'Product_1', quantity: 1 }],
    });
    expect(r.report.find((e) => e.path === 'dropship_address')?.action).toBe('dropped');
    expect(r.report.find((e) => e.path === 'partner_reference')?.action).toBe('dropped');
    expect(r.report[0]).toMatchObject({ path: 'order', action: 'converted' });
  });

  it('rejects non-objects', async () => {
    expect((await convertV1Order([1, 2])).errors[0]?.code).toBe('invalid_value');
  });

  it('refuses an image that is not a JPEG or PNG with an InvalidImageError that says what it is', () => {
    const refused = (() => {
      try {
        decodeBase64Image(GIF_B64);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(InvalidImageError);
    expect((refused as InvalidImageError).detected).toBe('gif');
  });
});

describe('convertV1Order messages and the orderline image rule', () => {
  it('never repeats the field path in a message, and names the CLI flag for a missing store', async () => {
    const r = await convertV1Order(
      {
        store_code: 'NOPE',
        shipping_kind: 'sideways',
        dropship_address: 'x',
        custom_identifier: '',
        orderlines: [{ sku: '', image: 12, quantity: -1 }, { product_reference: 'Product_1' }, 'junk'],
      },
      { storeReference: () => undefined },
    );
    expect(r.errors.length).toBeGreaterThan(5);
    for (const e of r.errors) {
      if (e.path) expect(e.message).not.toContain(e.path);
    }
    expect(r.errors.find((e) => e.path === 'store_code')?.message).toMatch(/--store NOPE=Store_…/);
    const storeless = await convertV1Order({ shipping_kind: 'combined', orderlines: [] });
    expect(storeless.errors.find((e) => e.path === 'store_reference')?.message).toMatch(/--store-reference/);
  });

  it('checks the image rule when the catalog says which products are print products', async () => {
    const isPrintProduct = (ref: string) =>
      ref === 'Product_print' ? true : ref === 'Product_np' ? false : undefined;
    const order = (lines: unknown[]) => ({
      store_reference: 'Store_1',
      shipping_kind: 'combined',
      orderlines: lines,
    });
    const r = await convertV1Order(
      order([
        { product_reference: 'Product_print', quantity: 1 },
        { product_reference: 'Product_np', image_reference: 'Image_1', quantity: 1 },
        { product_reference: 'Product_print', image_reference: 'Image_1', quantity: 1 },
        { product_reference: 'Product_np', quantity: 1 },
        { product_reference: 'Product_unknown', quantity: 1 },
      ]),
      { isPrintProduct },
    );
    expect(r.errors).toEqual([
      expect.objectContaining({ path: 'orderlines[0]', code: 'missing_image_reference' }),
      expect.objectContaining({ path: 'orderlines[1]', code: 'unexpected_image_reference' }),
    ]);
    // Without catalog knowledge nothing is guessed.
    expect((await convertV1Order(order([{ product_reference: 'Product_print', quantity: 1 }]))).ok).toBe(
      true,
    );
    // A SKU resolution that carries `print` is used too.
    const viaSku = await convertV1Order(order([{ sku: 'CASE-1', quantity: 1 }]), {
      resolveSku: async () => ({ status: 'resolved', productReference: 'Product_case', print: true }),
    });
    expect(viaSku.errors.map((e) => e.code)).toEqual(['missing_image_reference']);
  });
});
