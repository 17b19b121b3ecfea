import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { json } from './contract.ts';
import { setup } from './fixtures.ts';

/**
 * Hostile bodies for the V2 routes that take JSON: every answer is a 2xx or a 4xx `{ code, message }` that the
 * spec documents (the contract-checked fetch throws otherwise), never a 5xx.
 */
describe('V2 routes fuzz', () => {
  it('POST /orders, /claim-item-issues and /renders answer hostile bodies with 2xx or a documented 4xx', async () => {
    const s = setup({ rateLimits: false });
    const image = await s.image();
    const { orderReference, shipmentReference } = await s.shipped();
    const known = fc.constantFrom(
      s.seed.stores.combined,
      s.seed.stores.dropship,
      s.seed.products.print,
      s.seed.products.nonPrint,
      image,
      orderReference,
      shipmentReference,
      s.seed.claimcategories.wrongItem,
      s.seed.compositions.available,
      'combined',
      'dropship',
      'tracked',
      'NL',
    );
    const value: fc.Arbitrary<unknown> = fc.oneof(
      known,
      fc.double(),
      fc.integer(),
      fc.constantFrom(1e300, -1, 0, 0.5),
      fc.string({ maxLength: 300 }),
      fc.constant(null),
      fc.boolean(),
      fc.array(
        fc.dictionary(
          fc.constantFrom(
            'productReference',
            'imageReference',
            'quantity',
            'orderlineIndex',
            'claimcategoryReference',
          ),
          known,
        ),
        { maxLength: 3 },
      ),
      fc.dictionary(
        fc.constantFrom('city', 'countryCode', 'nope'),
        fc.oneof(fc.string({ maxLength: 4 }), fc.integer()),
      ),
    );
    const fields = fc.constantFrom(
      'storeReference',
      'shippingKind',
      'customIdentifier',
      'dropshipAddress',
      'dropshipMinimalShippingLevel',
      'orderlines',
      'shipmentReference',
      'orderReference',
      'comment',
      'claimlines',
      'compositionReference',
      'imageReference',
    );
    const routes = fc.constantFrom(
      ['/orders', 'order'],
      ['/claim-item-issues', 'claim'],
      ['/claim-package-missing', 'claim'],
      ['/renders', 'render'],
    );
    await fc.assert(
      fc.asyncProperty(
        routes,
        fc.dictionary(fields, value, { maxKeys: 6 }),
        async ([path, wrapper], inner) => {
          const res = await s.a.post(path!, { [wrapper!]: inner });
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect(typeof (await json<{ code: string }>(res)).code).toBe('string');
        },
      ),
      { numRuns: 300 },
    );
  });
});
