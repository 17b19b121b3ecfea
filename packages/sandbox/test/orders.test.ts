import { describe, expect, it } from 'vitest';
import { json } from './contract.ts';
import { setup } from './fixtures.ts';

type Err = { code: string; message: string };
const address = {
  firstname: 'Ada',
  lastname: 'Lovelace',
  streetname: 'Damrak',
  housenumber: '1',
  zipcode: '1012 LG',
  city: 'Amsterdam',
  countryCode: 'NL',
};

describe('POST /orders', () => {
  it('creates a combined order shipped to the store address', async () => {
    const { a, seed, order } = setup();
    const ref = await order({ customIdentifier: 'shop-1001' });
    expect(ref).toMatch(/^Order_[0-9A-Za-z]{26}$/);
    const res = await a.get(`/orders/${ref}`);
    const { order: o } = await json<{ order: Record<string, unknown> }>(res);
    expect(o).toMatchObject({
      reference: ref,
      storeReference: seed.stores.combined,
      shippingKind: 'combined',
      customIdentifier: 'shop-1001',
      status: { code: 'received', replaced: false },
      dropshipAddress: null,
      shipments: [],
      legacyOrderCode: `${seed.storeCodes.combined}-100001`,
    });
    expect((o.shippingAddress as { city: string }).city).toBe('Amsterdam');
    expect(o.orderlines).toMatchObject([
      {
        orderlineIndex: 0,
        productReference: seed.products.print,
        quantity: 3,
        legacySku: seed.legacySkus.print,
      },
      { orderlineIndex: 1, productReference: seed.products.nonPrint, imageReference: null, quantity: 2 },
    ]);
  });

  it('creates a dropship order with its address and shipping level', async () => {
    const { a, seed, order } = setup();
    const ref = await order({
      storeReference: seed.stores.dropship,
      shippingKind: 'dropship',
      dropshipAddress: address,
      dropshipMinimalShippingLevel: 'tracked',
    });
    const { order: o } = await json<{ order: Record<string, unknown> }>(await a.get(`/orders/${ref}`));
    expect(o).toMatchObject({
      shippingKind: 'dropship',
      dropshipAddress: address,
      shippingAddress: address,
      dropshipMinimalShippingLevel: 'tracked',
    });
  });

  type Setup = ReturnType<typeof setup>;
  type Build = (s: Setup, img: string) => Record<string, unknown>;
  /** One orderline of the seeded print product with the uploaded image, quantity 1, with `changes`. */
  const line = (s: Setup, img: string, changes: Record<string, unknown> = {}) => ({
    productReference: s.seed.products.print,
    imageReference: img,
    quantity: 1,
    ...changes,
  });
  /** A valid combined order of one such line, with `changes`. */
  const combined =
    (changes: Build): Build =>
    (s, img) => ({
      storeReference: s.seed.stores.combined,
      shippingKind: 'combined',
      orderlines: [line(s, img)],
      ...changes(s, img),
    });
  /** A valid dropship order of one such line, with `changes`. */
  const dropship =
    (changes: Build): Build =>
    (s, img) => ({
      storeReference: s.seed.stores.dropship,
      shippingKind: 'dropship',
      dropshipAddress: address,
      orderlines: [line(s, img)],
      ...changes(s, img),
    });
  const withLine = (changes: Record<string, unknown>) =>
    combined((s, img) => ({ orderlines: [line(s, img, changes)] }));

  // Each a valid order but for one thing, which the service answers with 422 and this code.
  const cases: Array<[string, Build, string]> = [
    ['dropship without address', dropship(() => ({ dropshipAddress: undefined })), 'missing_address'],
    ['dropship with an empty address', dropship(() => ({ dropshipAddress: {} })), 'missing_address'],
    // Wrongly typed, the address is malformed, not missing (review: these answered missing_address).
    ['an address given as a string', dropship(() => ({ dropshipAddress: 'Main st 1' })), 'invalid_address'],
    ['an address given as a number', dropship(() => ({ dropshipAddress: 5 })), 'invalid_address'],
    ['an address given as an array', dropship(() => ({ dropshipAddress: [] })), 'invalid_address'],
    ['an address given as null', dropship(() => ({ dropshipAddress: null })), 'invalid_address'],
    [
      'an address with a bad country code',
      dropship(() => ({ dropshipAddress: { ...address, countryCode: 'Netherlands' } })),
      'invalid_address',
    ],
    [
      'an unknown shipping level',
      dropship(() => ({ dropshipMinimalShippingLevel: 'teleport' })),
      'invalid_shipping_level',
    ],
    [
      'a print product without image',
      combined((s) => ({ orderlines: [{ productReference: s.seed.products.print, quantity: 1 }] })),
      'missing_image_reference',
    ],
    [
      'a non-print product with an image',
      combined((s, img) => ({ orderlines: [line(s, img, { productReference: s.seed.products.nonPrint })] })),
      'unexpected_image_reference',
    ],
    [
      'an unknown product',
      combined((s, img) => ({
        orderlines: [line(s, img, { productReference: s.seed.otherOrganization.products.print })],
      })),
      'unknown_product',
    ],
    [
      'a deprecated product',
      combined((s, img) => ({
        orderlines: [line(s, img, { productReference: s.seed.products.unavailable })],
      })),
      'product_unavailable',
    ],
    [
      "another organization's store",
      combined((s) => ({ storeReference: s.seed.otherOrganization.stores.combined })),
      'unknown_store',
    ],
    [
      'a combined order for a store without combined address',
      combined((s) => ({ storeReference: s.seed.stores.dropship })),
      'missing_combined_address',
    ],
    ['quantity 0', withLine({ quantity: 0 }), 'invalid_quantity'],
    ['a negative quantity', withLine({ quantity: -2 }), 'invalid_quantity'],
    ['a fractional quantity', withLine({ quantity: 1.5 }), 'invalid_quantity'],
    ['a malformed store reference', combined(() => ({ storeReference: 'store-1' })), 'invalid_reference'],
    ['a malformed product reference', withLine({ productReference: 'Product_short' }), 'invalid_reference'],
    [
      'a malformed image reference',
      withLine({ imageReference: 'Evidence_00000000000000000000000000' }),
      'invalid_reference',
    ],
    ['an unknown image', withLine({ imageReference: 'Image_00000000000000000000000000' }), 'unknown_image'],
    ['an unknown shipping kind', combined(() => ({ shippingKind: 'pickup' })), 'invalid_shipping_kind'],
    ['no orderlines', combined(() => ({ orderlines: [] })), 'missing_orderlines'],
    ['orderlines left out', combined(() => ({ orderlines: undefined })), 'missing_orderlines'],
    ['orderlines that are not an array', combined(() => ({ orderlines: 'x' })), 'invalid_request'],
    ['an orderline that is not an object', combined(() => ({ orderlines: ['x'] })), 'invalid_request'],
    ['an empty custom identifier', combined(() => ({ customIdentifier: '' })), 'invalid_custom_identifier'],
    [
      'an unknown address field',
      dropship(() => ({ dropshipAddress: { ...address, planet: 'Mars' } })),
      'invalid_address',
    ],
    // The spec types these fields as strings, not nullable: null is refused, not read as "left out".
    ['a null custom identifier', combined(() => ({ customIdentifier: null })), 'invalid_custom_identifier'],
    [
      'a null address field',
      dropship(() => ({ dropshipAddress: { ...address, streetname: null } })),
      'invalid_address',
    ],
    [
      'an address of null fields only',
      dropship(() => ({ dropshipAddress: { city: null } })),
      'invalid_address',
    ],
    [
      'a null shipping level',
      dropship(() => ({ dropshipMinimalShippingLevel: null })),
      'invalid_shipping_level',
    ],
    ['a null image reference on a print product', withLine({ imageReference: null }), 'invalid_reference'],
    [
      'a null image reference on a non-print product',
      combined((s, img) => ({
        orderlines: [line(s, img, { productReference: s.seed.products.nonPrint, imageReference: null })],
      })),
      'unexpected_image_reference',
    ],
    ['a legacySku that is not a string', withLine({ legacySku: 12345 }), 'invalid_request'],
    ['a null legacySku', withLine({ legacySku: null }), 'invalid_request'],
  ];
  for (const [name, build, code] of cases) {
    it(`refuses ${name} with 422 ${code}`, async () => {
      const s = setup();
      const img = await s.image();
      const res = await s.a.post('/orders', { order: build(s, img) });
      expect(res.status).toBe(422);
      expect((await json<Err>(res)).code).toBe(code);
    });
  }

  it('counts customIdentifier and address fields in characters: 255 emoji are accepted, 256 refused', async () => {
    // The spec's maxLength 255 on customIdentifier counts code points, as JSON Schema does.
    const s = setup();
    const tooLong = await s.order({ customIdentifier: '😀'.repeat(256) }).catch((e: Error) => e.message);
    expect(tooLong).toContain('invalid_custom_identifier');
    const ref = await s.order({ customIdentifier: '😀'.repeat(255) });
    expect(ref).toMatch(/^Order_/);
    const dropship = (city: string) =>
      s.a.post('/orders', {
        order: {
          storeReference: s.seed.stores.dropship,
          shippingKind: 'dropship',
          dropshipAddress: { ...address, city },
          orderlines: [{ productReference: s.seed.products.nonPrint, quantity: 1 }],
        },
      });
    expect((await dropship('😀'.repeat(255))).status).toBe(200);
    expect(await json<Err>(await dropship('😀'.repeat(256)))).toMatchObject({ code: 'invalid_address' });
  });

  it('refuses a body that is not JSON (400 invalid_json) or has no order object (422 invalid_request)', async () => {
    const { a } = setup();
    const bad = await a.raw('/orders', {
      method: 'POST',
      body: '{not json',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect((await json<Err>(bad)).code).toBe('invalid_json');
    const noOrder = await a.post('/orders', { orders: {} });
    expect(noOrder.status).toBe(422);
    expect((await json<Err>(noOrder)).code).toBe('invalid_request');
  });

  it('numbers legacy order codes per store', async () => {
    const { a, seed, order } = setup();
    const first = await order();
    const second = await order();
    const codes = await Promise.all(
      [first, second].map(
        async (r) =>
          (await json<{ order: { legacyOrderCode: string } }>(await a.get(`/orders/${r}`))).order
            .legacyOrderCode,
      ),
    );
    expect(codes).toEqual([`${seed.storeCodes.combined}-100001`, `${seed.storeCodes.combined}-100002`]);
  });
});

describe('custom identifier lookup', () => {
  it('maps a custom identifier to the order reference, per organization', async () => {
    const { a, b, order } = setup();
    const ref = await order({ customIdentifier: 'webshop-42' });
    const res = await a.get(
      '/utilities/lookup-order-reference-by-custom-identifier?customIdentifier=webshop-42',
    );
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ orderReference: ref });
    expect(
      (await b.get('/utilities/lookup-order-reference-by-custom-identifier?customIdentifier=webshop-42'))
        .status,
    ).toBe(404);
    const missing = await a.get(
      '/utilities/lookup-order-reference-by-custom-identifier?customIdentifier=nope',
    );
    expect(missing.status).toBe(404);
    expect((await json<Err>(missing)).code).toBe('not_found');
    const noParam = await a.get('/utilities/lookup-order-reference-by-custom-identifier');
    expect(noParam.status).toBe(400);
    expect((await json<Err>(noParam)).code).toBe('missing_parameter');
  });

  it('returns the newest order when an identifier was used twice', async () => {
    const { a, order } = setup();
    await order({ customIdentifier: 'dup' });
    const second = await order({ customIdentifier: 'dup' });
    const res = await a.get('/utilities/lookup-order-reference-by-custom-identifier?customIdentifier=dup');
    expect(await json(res)).toEqual({ orderReference: second });
  });
});

describe('GET /orders pagination', () => {
  async function pages(a: ReturnType<typeof setup>['a']) {
    const result: Array<{ refs: string[]; nextCursor: string | null }> = [];
    let cursor: string | null | undefined;
    do {
      const res = await a.get(`/orders${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      const body = await json<{ orders: Array<{ reference: string }>; nextCursor: string | null }>(res);
      result.push({ refs: body.orders.map((o) => o.reference), nextCursor: body.nextCursor });
      cursor = body.nextCursor;
    } while (cursor);
    return result;
  }

  it('lists newest first; a full page carries nextCursor and the last page may be empty', async () => {
    const s = setup({ pageSize: 2 });
    const refs: string[] = [];
    for (let i = 0; i < 4; i++) {
      refs.push(await s.order());
      await s.sandbox.clock.sleep(1000);
    }
    const p = await pages(s.a);
    expect(p.map((x) => x.refs)).toEqual([[refs[3], refs[2]], [refs[1], refs[0]], []]);
    expect(p[0]!.nextCursor).toEqual(expect.any(String));
    expect(p[2]!.nextCursor).toBeNull();
  });

  it('ends with nextCursor null when the last page is not full', async () => {
    const s = setup({ pageSize: 2 });
    const refs = [await s.order(), await s.order(), await s.order()];
    const p = await pages(s.a);
    expect(p.map((x) => x.refs)).toEqual([[refs[2], refs[1]], [refs[0]]]);
    expect(p[1]!.nextCursor).toBeNull();
  });

  it('keeps pages stable when orders are created between pages', async () => {
    const s = setup({ pageSize: 2 });
    const refs = [await s.order(), await s.order(), await s.order()];
    const first = await json<{ nextCursor: string }>(await s.a.get('/orders'));
    await s.order();
    const second = await json<{ orders: Array<{ reference: string }> }>(
      await s.a.get(`/orders?cursor=${first.nextCursor}`),
    );
    expect(second.orders.map((o) => o.reference)).toEqual([refs[0]]);
  });

  it('refuses a cursor it did not issue, or one of another organization', async () => {
    const s = setup({ pageSize: 1 });
    await s.order();
    await s.order();
    const res = await s.a.get('/orders?cursor=garbage');
    expect(res.status).toBe(400);
    expect((await json<Err>(res)).code).toBe('invalid_cursor');
    const { nextCursor } = await json<{ nextCursor: string }>(await s.a.get('/orders'));
    expect((await s.b.get(`/orders?cursor=${nextCursor}`)).status).toBe(400);
  });

  it('lists only the organization’s own orders', async () => {
    const s = setup();
    await s.order();
    const res = await s.b.get('/orders');
    expect(await json(res)).toEqual({ orders: [], nextCursor: null });
  });
});

describe('shipments', () => {
  it('ships all of an order through the control API with tracking information', async () => {
    const { a, sandbox, order } = setup();
    const ref = await order();
    const { shipmentReference } = sandbox.control.ship(ref, { carrier: 'DHL', trackingCode: 'JVGL0001' });
    const res = await a.get(`/shipments/${shipmentReference}`);
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      shipment: {
        reference: shipmentReference,
        orderReference: ref,
        tracking: { carrier: 'DHL', code: 'JVGL0001', url: 'https://tracking.example.com/JVGL0001' },
        shipmentlines: [
          { orderlineIndex: 0, quantity: 3 },
          { orderlineIndex: 1, quantity: 2 },
        ],
      },
    });
    const o = await json<{ order: { status: { code: string }; shipments: unknown[] } }>(
      await a.get(`/orders/${ref}`),
    );
    expect(o.order.status.code).toBe('shipped');
    expect(o.order.shipments).toEqual([{ reference: shipmentReference }]);
  });

  it('ships part of an order, then the rest', async () => {
    const { a, sandbox, order } = setup();
    const ref = await order();
    const first = sandbox.control.ship(ref, { lines: [{ orderlineIndex: 0, quantity: 1 }] });
    let o = await json<{
      order: { status: { code: string }; orderlines: Array<{ shippedQuantity: number }> };
    }>(await a.get(`/orders/${ref}`));
    expect(o.order.status.code).toBe('partially_shipped');
    expect(o.order.orderlines.map((l) => l.shippedQuantity)).toEqual([1, 0]);
    const second = sandbox.control.ship(ref);
    const s2 = await json<{ shipment: { shipmentlines: unknown[] } }>(
      await a.get(`/shipments/${second.shipmentReference}`),
    );
    expect(s2.shipment.shipmentlines).toMatchObject([
      { orderlineIndex: 0, quantity: 2 },
      { orderlineIndex: 1, quantity: 2 },
    ]);
    o = await json(await a.get(`/orders/${ref}`));
    expect(o.order.status.code).toBe('shipped');
    expect(first.shipmentReference).not.toBe(second.shipmentReference);
    expect(() => sandbox.control.ship(ref)).toThrow(/already shipped/);
    expect(() => sandbox.control.ship('Order_00000000000000000000000000')).toThrow(/No order/);
  });

  it('refuses to ship more than was ordered', async () => {
    const { sandbox, order } = setup();
    const ref = await order();
    expect(() => sandbox.control.ship(ref, { lines: [{ orderlineIndex: 0, quantity: 4 }] })).toThrow(
      /cannot ship 4/,
    );
    expect(() => sandbox.control.ship(ref, { lines: [{ orderlineIndex: 7, quantity: 1 }] })).toThrow(
      /No orderline 7/,
    );
    // One orderline given twice adds up (3 ordered): nothing is shipped.
    expect(() =>
      sandbox.control.ship(ref, {
        lines: [
          { orderlineIndex: 0, quantity: 2 },
          { orderlineIndex: 0, quantity: 2 },
        ],
      }),
    ).toThrow(/cannot ship 2/);
    const { shipmentReference } = sandbox.control.ship(ref, {
      lines: [
        { orderlineIndex: 0, quantity: 2 },
        { orderlineIndex: 0, quantity: 1 },
      ],
    });
    expect(shipmentReference).toMatch(/^Shipment_/);
    expect(() => sandbox.control.ship(ref, { lines: [{ orderlineIndex: 0, quantity: 1 }] })).toThrow(
      /cannot ship 1/,
    );
  });

  it("hides another organization's shipment", async () => {
    const { b, shipped } = setup();
    const { shipmentReference } = await shipped();
    expect((await b.get(`/shipments/${shipmentReference}`)).status).toBe(404);
  });
});

describe('timestamps', () => {
  it('are whole seconds with Z, as the assumptions say, even when the clock is between seconds', async () => {
    const s = setup();
    await s.sandbox.control.advance(1500);
    const ref = await s.order();
    const { shipmentReference } = s.sandbox.control.ship(ref);
    const { order } = await json<{ order: { created: string; status: { updated: string } } }>(
      await s.a.get(`/orders/${ref}`),
    );
    const { shipment } = await json<{ shipment: { shipped: string } }>(
      await s.a.get(`/shipments/${shipmentReference}`),
    );
    expect([order.created, order.status.updated, shipment.shipped]).toEqual([
      '2026-11-16T09:00:01Z',
      '2026-11-16T09:00:01Z',
      '2026-11-16T09:00:01Z',
    ]);
  });
});
