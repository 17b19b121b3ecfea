import { describe, expect, it } from 'vitest';
import { json } from './contract.ts';
import { DAY, HOUR, pngBytes, SECOND, type Setup, setup } from './fixtures.ts';
import { compileAt } from './spec-values.ts';

type Err = { code: string; message: string };
type Created = { claim: { reference: string } };

async function code(res: Response) {
  return { status: res.status, code: res.status >= 400 ? (await json<Err>(res)).code : undefined };
}

type Shipped = Awaited<ReturnType<Setup['shipped']>>;

/** A pending item-issues claim for one item of `orderlineIndex` (wrong item, no evidence needed). */
async function wrongItemClaim(s: Setup, sh: Shipped, orderlineIndex = 0) {
  const claimline = {
    orderlineIndex,
    quantity: 1,
    claimcategoryReference: s.seed.claimcategories.wrongItem,
    evidenceReferences: [],
  };
  return json<Created>(await s.a.post('/claim-item-issues', { claim: { ...sh, claimlines: [claimline] } }));
}

async function evidenceList(s: Setup, n: number) {
  const refs: string[] = [];
  for (let i = 0; i < n; i++) refs.push(await s.evidence());
  return refs;
}

describe('GET /claimcategories', () => {
  it('lists categories including "Package missing" and ones with and without required evidence', async () => {
    const { a, seed } = setup();
    const { claimcategories } = await json<{
      claimcategories: Array<{ reference: string; name: string; evidenceRequired: boolean }>;
    }>(await a.get('/claimcategories'));
    expect(claimcategories.find((c) => c.name === 'Package missing')?.reference).toBe(
      seed.claimcategories.packageMissing,
    );
    expect(claimcategories.some((c) => c.evidenceRequired)).toBe(true);
    expect(claimcategories.some((c) => !c.evidenceRequired && c.name !== 'Package missing')).toBe(true);
  });
});

describe('POST /claim-package-missing', () => {
  it('needs a shipment at least 48 hours old: 48 h minus a second is refused, 48 h is accepted', async () => {
    const s = setup();
    const { shipmentReference } = await s.shipped();
    await s.sandbox.control.advance(48 * HOUR - SECOND);
    const early = await s.a.post('/claim-package-missing', {
      claim: { shipmentReference, evidenceReferences: [] },
    });
    expect(await code(early)).toEqual({ status: 422, code: 'shipment_too_recent' });
    await s.sandbox.control.advance(SECOND);
    const ok = await s.a.post('/claim-package-missing', {
      claim: { shipmentReference, evidenceReferences: [] },
    });
    expect(ok.status).toBe(200);
    expect((await json<Created>(ok)).claim.reference).toMatch(/^Claim_[0-9A-Za-z]{26}$/);
  });

  it('accepts a claim on day 100 of the warranty and refuses it on day 101', async () => {
    const s = setup();
    const first = await s.shipped();
    const second = await s.shipped();
    await s.sandbox.control.advance(100 * DAY);
    const day100 = await s.a.post('/claim-package-missing', {
      claim: { shipmentReference: first.shipmentReference, evidenceReferences: [] },
    });
    expect(day100.status).toBe(200);
    await s.sandbox.control.advance(DAY);
    const day101 = await s.a.post('/claim-package-missing', {
      claim: { shipmentReference: second.shipmentReference, evidenceReferences: [] },
    });
    expect(await code(day101)).toEqual({ status: 422, code: 'warranty_expired' });
  });

  it('refuses a shipment that already has a claim, but not after that claim was retracted', async () => {
    const s = setup();
    const { shipmentReference } = await s.shipped();
    await s.sandbox.control.advance(3 * DAY);
    const first = await json<Created>(
      await s.a.post('/claim-package-missing', { claim: { shipmentReference, evidenceReferences: [] } }),
    );
    const dup = await s.a.post('/claim-package-missing', {
      claim: { shipmentReference, evidenceReferences: [] },
    });
    expect(await code(dup)).toEqual({ status: 422, code: 'claim_exists' });
    expect((await s.a.post(`/claims/${first.claim.reference}/retract`)).status).toBe(204);
    expect(
      (await s.a.post('/claim-package-missing', { claim: { shipmentReference, evidenceReferences: [] } }))
        .status,
    ).toBe(200);
  });

  it('refuses a shipment with an item-issues claim on it', async () => {
    const s = setup();
    const { orderReference, shipmentReference } = await s.shipped();
    await s.sandbox.control.advance(3 * DAY);
    await s.a.post('/claim-item-issues', {
      claim: {
        shipmentReference,
        orderReference,
        claimlines: [
          {
            orderlineIndex: 1,
            quantity: 1,
            claimcategoryReference: s.seed.claimcategories.wrongItem,
            evidenceReferences: [],
          },
        ],
      },
    });
    const res = await s.a.post('/claim-package-missing', {
      claim: { shipmentReference, evidenceReferences: [] },
    });
    expect(await code(res)).toEqual({ status: 422, code: 'claim_exists' });
  });

  it('refuses an order that already has a replacement', async () => {
    const s = setup();
    const orderReference = await s.order();
    const first = s.sandbox.control.ship(orderReference, { lines: [{ orderlineIndex: 0, quantity: 3 }] });
    const second = s.sandbox.control.ship(orderReference);
    await s.sandbox.control.advance(3 * DAY);
    const claim = await json<Created>(
      await s.a.post('/claim-item-issues', {
        claim: {
          shipmentReference: first.shipmentReference,
          orderReference,
          claimlines: [
            {
              orderlineIndex: 0,
              quantity: 1,
              claimcategoryReference: s.seed.claimcategories.wrongItem,
              evidenceReferences: [],
            },
          ],
        },
      }),
    );
    s.sandbox.control.decideClaim(claim.claim.reference, { outcome: 'replacement' });
    const res = await s.a.post('/claim-package-missing', {
      claim: { shipmentReference: second.shipmentReference, evidenceReferences: [] },
    });
    expect(await code(res)).toEqual({ status: 422, code: 'order_replaced' });
  });

  it('takes 0 to 3 evidence references: 3 are accepted, 4 refused', async () => {
    const s = setup();
    const one = await s.shipped();
    const two = await s.shipped();
    await s.sandbox.control.advance(3 * DAY);
    const four = await evidenceList(s, 4);
    const tooMany = await s.a.post('/claim-package-missing', {
      claim: { shipmentReference: one.shipmentReference, evidenceReferences: four },
    });
    expect(await code(tooMany)).toEqual({ status: 422, code: 'too_many_evidence' });
    const ok = await s.a.post('/claim-package-missing', {
      claim: { shipmentReference: one.shipmentReference, evidenceReferences: four.slice(0, 3) },
    });
    expect(ok.status).toBe(200);
    const reused = await s.a.post('/claim-package-missing', {
      claim: { shipmentReference: two.shipmentReference, evidenceReferences: [four[0]] },
    });
    expect(await code(reused)).toEqual({ status: 422, code: 'evidence_in_use' });
    const twice = await s.a.post('/claim-package-missing', {
      claim: { shipmentReference: two.shipmentReference, evidenceReferences: [four[3], four[3]] },
    });
    expect(await code(twice)).toEqual({ status: 422, code: 'evidence_in_use' });
  });

  it('frees the evidence of a retracted claim: the same photo can be filed again', async () => {
    const s = setup();
    const { shipmentReference } = await s.shipped();
    await s.sandbox.control.advance(3 * DAY);
    const [photo] = await evidenceList(s, 1);
    const first = await json<Created>(
      await s.a.post('/claim-package-missing', { claim: { shipmentReference, evidenceReferences: [photo] } }),
    );
    expect((await s.a.post(`/claims/${first.claim.reference}/retract`)).status).toBe(204);
    const again = await s.a.post('/claim-package-missing', {
      claim: { shipmentReference, evidenceReferences: [photo] },
    });
    expect(again.status).toBe(200);
  });

  it('refuses unknown, malformed and foreign references', async () => {
    const s = setup();
    const { shipmentReference } = await s.shipped();
    await s.sandbox.control.advance(3 * DAY);
    const foreign = await s.evidence(s.b);
    expect(
      await code(
        await s.a.post('/claim-package-missing', {
          claim: { shipmentReference, evidenceReferences: [foreign] },
        }),
      ),
    ).toEqual({ status: 422, code: 'unknown_evidence' });
    expect(
      await code(
        await s.a.post('/claim-package-missing', {
          claim: { shipmentReference, evidenceReferences: ['Image_00000000000000000000000000'] },
        }),
      ),
    ).toEqual({ status: 422, code: 'invalid_reference' });
    expect(
      await code(
        await s.a.post('/claim-package-missing', {
          claim: { shipmentReference: 'Shipment_00000000000000000000000000', evidenceReferences: [] },
        }),
      ),
    ).toEqual({ status: 422, code: 'unknown_shipment' });
    expect(
      await code(
        await s.a.post('/claim-package-missing', {
          claim: { shipmentReference: 'nope', evidenceReferences: [] },
        }),
      ),
    ).toEqual({ status: 422, code: 'invalid_reference' });
    expect(await code(await s.a.post('/claim-package-missing', { claim: { shipmentReference } }))).toEqual({
      status: 422,
      code: 'invalid_request',
    });
    expect(
      await code(
        await s.b.post('/claim-package-missing', { claim: { shipmentReference, evidenceReferences: [] } }),
      ),
    ).toEqual({ status: 422, code: 'unknown_shipment' });
  });
});

describe('POST /claim-item-issues', () => {
  async function claimSetup() {
    const s = setup();
    const { orderReference, shipmentReference } = await s.shipped();
    const post = (claimlines: unknown[], extra: Record<string, unknown> = {}) =>
      s.a.post('/claim-item-issues', { claim: { shipmentReference, orderReference, claimlines, ...extra } });
    const line = (over: Record<string, unknown> = {}) => ({
      orderlineIndex: 0,
      quantity: 1,
      claimcategoryReference: s.seed.claimcategories.wrongItem,
      evidenceReferences: [],
      ...over,
    });
    return { ...s, orderReference, shipmentReference, post, line };
  }

  it('accepts a claim right after shipping and on day 100; refuses it on day 101', async () => {
    const s = await claimSetup();
    expect((await s.post([s.line()])).status).toBe(200);
    await s.sandbox.control.advance(100 * DAY);
    expect((await s.post([s.line()])).status).toBe(200);
    await s.sandbox.control.advance(DAY);
    expect(await code(await s.post([s.line()]))).toEqual({ status: 422, code: 'warranty_expired' });
  });

  it('counts open claims toward the shipped quantity', async () => {
    const s = await claimSetup();
    const first = await json<Created>(await s.post([s.line({ quantity: 2 })]));
    expect(await code(await s.post([s.line({ quantity: 2 })]))).toEqual({
      status: 422,
      code: 'quantity_exceeds_shipped',
    });
    expect((await s.post([s.line({ quantity: 1 })])).status).toBe(200);
    expect(await code(await s.post([s.line({ quantity: 1 })]))).toEqual({
      status: 422,
      code: 'quantity_exceeds_shipped',
    });
    // Lines in one request add up too.
    expect(
      await code(
        await s.post([
          s.line({ orderlineIndex: 1, quantity: 2 }),
          s.line({ orderlineIndex: 1, quantity: 1 }),
        ]),
      ),
    ).toEqual({ status: 422, code: 'quantity_exceeds_shipped' });
    // A retracted, rejected or resolved claim is closed, not open: it frees its quantity.
    await s.a.post(`/claims/${first.claim.reference}/retract`);
    const again = await json<Created>(await s.post([s.line({ quantity: 2 })]));
    s.sandbox.control.decideClaim(again.claim.reference, { outcome: 'rejection' });
    const third = await json<Created>(await s.post([s.line({ quantity: 2 })]));
    s.sandbox.control.decideClaim(third.claim.reference, { outcome: 'refund' });
    expect((await s.post([s.line({ quantity: 2 })])).status).toBe(200); // with the open claim of 1: 3 of 3
  });

  it('counts only this shipment’s quantity', async () => {
    const s = setup();
    const orderReference = await s.order();
    const part = s.sandbox.control.ship(orderReference, { lines: [{ orderlineIndex: 0, quantity: 1 }] });
    const res = await s.a.post('/claim-item-issues', {
      claim: {
        shipmentReference: part.shipmentReference,
        orderReference,
        claimlines: [
          {
            orderlineIndex: 0,
            quantity: 2,
            claimcategoryReference: s.seed.claimcategories.wrongItem,
            evidenceReferences: [],
          },
        ],
      },
    });
    expect(await code(res)).toEqual({ status: 422, code: 'quantity_exceeds_shipped' });
    const notShipped = await s.a.post('/claim-item-issues', {
      claim: {
        shipmentReference: part.shipmentReference,
        orderReference,
        claimlines: [
          {
            orderlineIndex: 1,
            quantity: 1,
            claimcategoryReference: s.seed.claimcategories.wrongItem,
            evidenceReferences: [],
          },
        ],
      },
    });
    expect(await code(notShipped)).toEqual({ status: 422, code: 'invalid_orderline' });
  });

  it('takes 3 evidence references per claimline and refuses 4', async () => {
    const s = await claimSetup();
    const four = await evidenceList(s, 4);
    expect(await code(await s.post([s.line({ evidenceReferences: four })]))).toEqual({
      status: 422,
      code: 'too_many_evidence',
    });
    expect((await s.post([s.line({ evidenceReferences: four.slice(0, 3) })])).status).toBe(200);
  });

  it('answers evidence_required when the category requires evidence and none is given', async () => {
    const s = await claimSetup();
    const res = await s.post([s.line({ claimcategoryReference: s.seed.claimcategories.damaged })]);
    expect(await code(res)).toEqual({ status: 422, code: 'evidence_required' });
    const none = await s.post([s.line({ claimcategoryReference: s.seed.claimcategories.printQuality })]);
    expect(await code(none)).toEqual({ status: 422, code: 'evidence_required' });
    const [ev] = await evidenceList(s, 1);
    expect(
      (
        await s.post([
          s.line({ claimcategoryReference: s.seed.claimcategories.damaged, evidenceReferences: [ev] }),
        ])
      ).status,
    ).toBe(200);
    expect((await s.post([s.line({ orderlineIndex: 1 })])).status).toBe(200);
  });

  it('refuses a claimline without evidenceReferences (required, as in the spec), whatever its category', async () => {
    const s = await claimSetup();
    for (const category of [s.seed.claimcategories.printQuality, s.seed.claimcategories.wrongItem]) {
      const omitted = await s.post([{ orderlineIndex: 0, quantity: 1, claimcategoryReference: category }]);
      expect(await code(omitted)).toEqual({ status: 422, code: 'invalid_request' });
    }
    expect((await s.post([s.line({ evidenceReferences: [] })])).status).toBe(200);
  });

  it('takes a comment of 1000 characters and refuses 1001', async () => {
    const s = await claimSetup();
    expect(await code(await s.post([s.line()], { comment: 'x'.repeat(1001) }))).toEqual({
      status: 422,
      code: 'comment_too_long',
    });
    expect((await s.post([s.line()], { comment: 'x'.repeat(1000) })).status).toBe(200);
  });

  it('counts the comment in characters, not UTF-16 units: 1000 emoji are accepted, 1001 refused', async () => {
    // The spec's maxLength (JSON Schema) counts code points; '😀' is one character but two UTF-16 units.
    const s = await claimSetup();
    const refused = await s.post([s.line()], { comment: '😀'.repeat(1001) });
    expect(await json<Err>(refused)).toMatchObject({ code: 'comment_too_long' });
    expect((await s.post([s.line()], { comment: '😀'.repeat(1000) })).status).toBe(200);
    expect((await s.post([s.line()], { comment: `${'x'.repeat(999)}😀` })).status).toBe(200);
  });

  it('refuses "Package missing" as an item-issues category', async () => {
    const s = await claimSetup();
    const res = await s.post([s.line({ claimcategoryReference: s.seed.claimcategories.packageMissing })]);
    expect(res.status).toBe(422);
    const body = await json<Err>(res);
    expect(body.code).toBe('invalid_claimcategory');
    expect(body.message).toMatch(/Package missing/);
  });

  it('refuses malformed claims with their codes', async () => {
    const s = await claimSetup();
    const other = await s.shipped();
    const cases: Array<[Promise<Response>, string]> = [
      [s.post([]), 'missing_claimlines'],
      [s.post(undefined as never), 'missing_claimlines'],
      [s.post({} as never), 'invalid_request'],
      [s.post('x' as never), 'invalid_request'],
      [s.post([s.line({ orderlineIndex: 5 })]), 'invalid_orderline'],
      [s.post([s.line({ orderlineIndex: -1 })]), 'invalid_orderline'],
      [s.post([s.line({ quantity: 0 })]), 'invalid_quantity'],
      [
        s.post([s.line({ claimcategoryReference: 'Claimcategory_00000000000000000000000000' })]),
        'unknown_claimcategory',
      ],
      [s.post([s.line({ claimcategoryReference: 'wrong' })]), 'invalid_reference'],
      [s.post([s.line({ evidenceReferences: ['Evidence_00000000000000000000000000'] })]), 'unknown_evidence'],
      [s.post([s.line({ evidenceReferences: 'Evidence_x' })]), 'invalid_request'],
      [s.post([7]), 'invalid_request'],
      [s.post([s.line()], { comment: 5 }), 'invalid_request'],
      // The spec types comment as a string, not nullable: null is not "no comment" (leave it out).
      [s.post([s.line()], { comment: null }), 'invalid_request'],
      [s.post([s.line()], { orderReference: other.orderReference }), 'shipment_order_mismatch'],
      [s.post([s.line()], { orderReference: 'Order_00000000000000000000000000' }), 'unknown_order'],
      [s.post([s.line()], { orderReference: 'x' }), 'invalid_reference'],
    ];
    for (const [res, expected] of cases)
      expect(await code(await res)).toEqual({ status: 422, code: expected });
    const [ev] = await evidenceList(s, 1);
    expect(
      await code(
        await s.post([
          s.line({ evidenceReferences: [ev] }),
          s.line({ orderlineIndex: 1, evidenceReferences: [ev] }),
        ]),
      ),
    ).toEqual({ status: 422, code: 'evidence_in_use' });
    expect(await code(await s.a.post('/claim-item-issues', { claim: null }))).toEqual({
      status: 422,
      code: 'invalid_request',
    });
  });
});

describe('claims: list, detail, retract, decisions', () => {
  it('shows a pending claim with evidence URLs, then support’s decision', async () => {
    const s = setup();
    const { orderReference, shipmentReference } = await s.shipped();
    await s.sandbox.control.advance(3 * DAY);
    const evidence = await evidenceList(s, 2);
    const { claim } = await json<Created>(
      await s.a.post('/claim-package-missing', {
        claim: { shipmentReference, evidenceReferences: evidence },
      }),
    );
    const detail = await json<{
      claim: Record<string, unknown> & { evidenceUrls: string[]; claimlines: Array<Record<string, unknown>> };
    }>(await s.a.get(`/claims/${claim.reference}`));
    expect(detail.claim).toMatchObject({
      reference: claim.reference,
      orderReference,
      shipmentReference,
      status: 'pending',
      decision: null,
      retracted: null,
      createdBy: expect.stringContaining('@'),
    });
    expect(detail.claim.evidenceUrls).toHaveLength(2);
    expect(detail.claim.claimlines).toMatchObject([
      {
        orderlineIndex: 0,
        quantity: 3,
        claimcategory: { reference: s.seed.claimcategories.packageMissing, name: 'Package missing' },
        decision: null,
      },
      { orderlineIndex: 1, quantity: 2, imageReference: null },
    ]);
    const file = await s.sandbox.fetch(detail.claim.evidenceUrls[0]!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');

    s.sandbox.control.decideClaim(claim.reference, {
      claimlines: [{ refundQuantity: 3 }, { rejectionQuantity: 2, comment: 'Delivered per tracking' }],
      refundShippingCosts: true,
      comment: 'Refunded the cases',
    });
    const decided = await json<{
      claim: Record<string, unknown> & { claimlines: Array<Record<string, unknown>> };
    }>(await s.a.get(`/claims/${claim.reference}`));
    expect(decided.claim).toMatchObject({
      status: 'resolved',
      decision: { decided: '2026-11-19T09:00:00Z', refundShippingCosts: true, comment: 'Refunded the cases' },
    });
    expect(decided.claim.claimlines[1]!.decision).toEqual({
      replacementQuantity: 0,
      refundQuantity: 0,
      rejectionQuantity: 2,
      comment: 'Delivered per tracking',
    });
    const order = await json<{ order: { status: { replaced: boolean } } }>(
      await s.a.get(`/orders/${orderReference}`),
    );
    expect(order.order.status.replaced).toBe(false);
  });

  it('marks the order replaced when support awards a replacement; rejects when nothing is awarded', async () => {
    const s = setup();
    const one = await s.shipped();
    const two = await s.shipped();
    const line = {
      orderlineIndex: 0,
      quantity: 1,
      claimcategoryReference: s.seed.claimcategories.wrongItem,
      evidenceReferences: [],
    };
    const c1 = await json<Created>(
      await s.a.post('/claim-item-issues', { claim: { ...one, claimlines: [line] } }),
    );
    const c2 = await json<Created>(
      await s.a.post('/claim-item-issues', { claim: { ...two, claimlines: [line] } }),
    );
    s.sandbox.control.decideClaim(c1.claim.reference, { outcome: 'replacement' });
    s.sandbox.control.decideClaim(c2.claim.reference, { outcome: 'rejection', comment: 'Not covered' });
    const o1 = await json<{ order: { status: { replaced: boolean } } }>(
      await s.a.get(`/orders/${one.orderReference}`),
    );
    expect(o1.order.status.replaced).toBe(true);
    expect(
      (await json<{ claim: { status: string } }>(await s.a.get(`/claims/${c2.claim.reference}`))).claim
        .status,
    ).toBe('rejected');
    expect(() => s.sandbox.control.decideClaim(c2.claim.reference, { outcome: 'refund' })).toThrow(
      /rejected/,
    );
    expect(() =>
      s.sandbox.control.decideClaim('Claim_00000000000000000000000000', { outcome: 'refund' }),
    ).toThrow(/No claim/);
  });

  it('checks decision quantities', async () => {
    const s = setup();
    const sh = await s.shipped();
    const c = await json<Created>(
      await s.a.post('/claim-item-issues', {
        claim: {
          ...sh,
          claimlines: [
            {
              orderlineIndex: 0,
              quantity: 2,
              claimcategoryReference: s.seed.claimcategories.wrongItem,
              evidenceReferences: [],
            },
          ],
        },
      }),
    );
    expect(() =>
      s.sandbox.control.decideClaim(c.claim.reference, { claimlines: [{ refundQuantity: 1 }] }),
    ).toThrow(/add up to 2/);
    expect(() => s.sandbox.control.decideClaim(c.claim.reference, { claimlines: [] })).toThrow(/no decision/);
  });

  it('retracts only pending claims: 204, then 409 claim_not_pending; 404 for others', async () => {
    const s = setup();
    const sh = await s.shipped();
    const c = await wrongItemClaim(s, sh);
    expect((await s.b.post(`/claims/${c.claim.reference}/retract`)).status).toBe(404);
    expect((await s.b.get(`/claims/${c.claim.reference}`)).status).toBe(404);
    await s.sandbox.control.advance(HOUR);
    const res = await s.a.post(`/claims/${c.claim.reference}/retract`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const detail = await json<{ claim: { status: string; retracted: string } }>(
      await s.a.get(`/claims/${c.claim.reference}`),
    );
    expect(detail.claim).toMatchObject({ status: 'retracted', retracted: '2026-11-16T10:00:00Z' });
    expect(await code(await s.a.post(`/claims/${c.claim.reference}/retract`))).toEqual({
      status: 409,
      code: 'claim_not_pending',
    });
    const c2 = await wrongItemClaim(s, sh, 1);
    s.sandbox.control.decideClaim(c2.claim.reference, { outcome: 'refund' });
    expect(await code(await s.a.post(`/claims/${c2.claim.reference}/retract`))).toEqual({
      status: 409,
      code: 'claim_not_pending',
    });
  });

  it('lists open claims and those closed in the last 14 days, newest first; closedAfter widens the window', async () => {
    const s = setup({ pageSize: 2 });
    const refs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const sh = await s.shipped();
      const c = await wrongItemClaim(s, sh);
      refs.push(c.claim.reference);
      await s.sandbox.control.advance(HOUR);
    }
    s.sandbox.control.decideClaim(refs[0]!, { outcome: 'refund' }); // closed at 12:00
    await s.sandbox.control.advance(HOUR);
    await s.a.post(`/claims/${refs[1]}/retract`); // closed at 13:00
    const list = async (query = '') => {
      const all: Array<{
        reference: string;
        status: string;
        claimcategories: unknown[];
        decided: string | null;
      }> = [];
      let cursor: string | null = null;
      do {
        const sep = query ? '&' : '?';
        const res = await s.a.get(`/claims${query}${cursor ? `${sep}cursor=${cursor}` : ''}`);
        expect(res.status).toBe(200);
        const body = await json<{ claims: typeof all; nextCursor: string | null }>(res);
        all.push(...body.claims);
        cursor = body.nextCursor;
      } while (cursor);
      return all;
    };
    expect((await list()).map((c) => c.reference)).toEqual([refs[2], refs[1], refs[0]]);
    const first = (await list()).find((c) => c.reference === refs[0])!;
    expect(first).toMatchObject({
      status: 'resolved',
      claimcategories: [{ reference: s.seed.claimcategories.wrongItem, name: 'Wrong item' }],
    });
    expect(first.decided).toBe('2026-11-16T12:00:00Z');
    // now 13:00; the window is the last 14 days
    await s.sandbox.control.advance(14 * DAY - HOUR);
    expect((await list()).map((c) => c.reference)).toEqual([refs[2], refs[1], refs[0]]);
    await s.sandbox.control.advance(SECOND);
    expect((await list()).map((c) => c.reference)).toEqual([refs[2], refs[1]]);
    await s.sandbox.control.advance(HOUR);
    expect((await list()).map((c) => c.reference)).toEqual([refs[2]]);
    expect((await list('?closedAfter=2026-11-01')).map((c) => c.reference)).toEqual([
      refs[2],
      refs[1],
      refs[0],
    ]);
    expect((await list('?closedAfter=2026-11-16T12:30:00Z')).map((c) => c.reference)).toEqual([
      refs[2],
      refs[1],
    ]);
    const bad = await s.a.get('/claims?closedAfter=yesterday');
    expect(await code(bad)).toEqual({ status: 400, code: 'invalid_parameter' });
  });

  it('takes every closedAfter the spec allows, leap seconds and any whitespace separator included', async () => {
    const s = setup();
    const allowed = compileAt('/components/parameters/ClosedAfter/schema');
    for (const value of [
      '2016-12-31T23:59:60Z',
      '2016-12-31T23:59:60.5Z',
      '2017-01-01T00:59:60+01:00',
      '2016-12-31\t23:59:59Z',
      '2016-12-31 23:59:59Z',
      '2016-12-31T22:59:60Z',
      '2016-12-31T23:59:60+01:00',
      '2016-12-31T23:59:61Z',
    ]) {
      const res = await s.a.get(`/claims?closedAfter=${encodeURIComponent(value)}`);
      expect({ value, status: res.status }).toEqual({ value, status: allowed(value) ? 200 : 400 });
    }
  });

  it('purges evidence about four months after the decision', async () => {
    const s = setup();
    const sh = await s.shipped();
    await s.sandbox.control.advance(3 * DAY);
    const [ev] = await evidenceList(s, 1);
    const { claim } = await json<Created>(
      await s.a.post('/claim-package-missing', {
        claim: { shipmentReference: sh.shipmentReference, evidenceReferences: [ev] },
      }),
    );
    s.sandbox.control.decideClaim(claim.reference, { outcome: 'replacement' });
    await s.sandbox.control.advance(119 * DAY);
    const before = await json<{ claim: { evidenceUrls: string[] } }>(
      await s.a.get(`/claims/${claim.reference}`),
    );
    expect(before.claim.evidenceUrls).toHaveLength(1);
    await s.sandbox.control.advance(DAY);
    const after = await json<{ claim: { evidenceUrls: string[] } }>(
      await s.a.get(`/claims/${claim.reference}`),
    );
    expect(after.claim.evidenceUrls).toEqual([]);
    expect((await s.sandbox.fetch(before.claim.evidenceUrls[0]!)).status).toBe(404);
  });

  it('treats purged evidence as gone: the same photo uploaded again is new evidence, usable on a new claim', async () => {
    const s = setup();
    const first = await s.shipped();
    await s.sandbox.control.advance(3 * DAY);
    const photo = pngBytes(77);
    const upload = async () =>
      (await json<{ evidence: { reference: string } }>(await s.a.upload('/evidence', photo))).evidence
        .reference;
    const ev = await upload();
    const { claim } = await json<Created>(
      await s.a.post('/claim-package-missing', {
        claim: { shipmentReference: first.shipmentReference, evidenceReferences: [ev] },
      }),
    );
    s.sandbox.control.decideClaim(claim.reference, { outcome: 'rejection' });
    await s.sandbox.control.advance(120 * DAY);
    const second = await s.shipped();
    await s.sandbox.control.advance(2 * DAY);
    // The purged reference is unknown now; the bytes give a fresh reference that a new claim takes.
    const stale = await s.a.post('/claim-package-missing', {
      claim: { shipmentReference: second.shipmentReference, evidenceReferences: [ev] },
    });
    expect(await code(stale)).toEqual({ status: 422, code: 'unknown_evidence' });
    const again = await upload();
    expect(again).not.toBe(ev);
    const res = await s.a.post('/claim-package-missing', {
      claim: { shipmentReference: second.shipmentReference, evidenceReferences: [again] },
    });
    expect(res.status).toBe(200);
    const { claim: detail } = await json<{ claim: { evidenceUrls: string[] } }>(
      await s.a.get(`/claims/${(await json<Created>(res)).claim.reference}`),
    );
    expect((await s.sandbox.fetch(detail.evidenceUrls[0]!)).status).toBe(200);
  });

  it('shows claimline evidence URLs for item issues', async () => {
    const s = setup();
    const sh = await s.shipped();
    const [ev] = await evidenceList(s, 1);
    const { claim } = await json<Created>(
      await s.a.post('/claim-item-issues', {
        claim: {
          ...sh,
          comment: 'Cracked corner',
          claimlines: [
            {
              orderlineIndex: 0,
              quantity: 1,
              claimcategoryReference: s.seed.claimcategories.damaged,
              evidenceReferences: [ev],
            },
          ],
        },
      }),
    );
    const detail = await json<{
      claim: {
        comment: string;
        evidenceUrls: string[];
        claimlines: Array<{ evidenceUrls: string[]; imageReference: string }>;
      };
    }>(await s.a.get(`/claims/${claim.reference}`));
    expect(detail.claim.comment).toBe('Cracked corner');
    expect(detail.claim.evidenceUrls).toEqual([]);
    expect(detail.claim.claimlines[0]!.evidenceUrls).toEqual([
      expect.stringMatching(/^http:\/\/sandbox\.localhost\/files\/evidence\/Evidence_/),
    ]);
    expect(detail.claim.claimlines[0]!.imageReference).toMatch(/^Image_/);
  });
});
