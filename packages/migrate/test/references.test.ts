import { createClient } from '@partner-print/client';
import { type Reference, type ReferencePrefix, referencePrefixOf } from '@partner-print/openapi/wire';
import { describe, expect, it } from 'vitest';
import { createOrderReferenceResolver, parseOrderReference } from '../src/index.ts';
import { newSandbox } from './helpers.ts';

/** A seeded reference, checked to carry its prefix (the seed's values are plain strings). */
function ref<P extends ReferencePrefix>(prefix: P, value: string): Reference<P> {
  const isRef = (v: string): v is Reference<P> => referencePrefixOf(v) === prefix;
  if (!isRef(value)) throw new TypeError(`not a ${prefix}_ reference`);
  return value;
}

describe('order references against the sandbox', () => {
  it('turns partner references and V1 codes into Order_ references', async () => {
    const sb = newSandbox();
    const client = createClient({
      secretKey: sb.keys.primary,
      baseUrl: sb.baseUrl,
      fetch: (r) => sb.fetch(r),
      clock: sb.clock,
    });
    const created = await client.createOrder({
      storeReference: ref('Store', sb.seed.stores.combined),
      shippingKind: 'combined',
      customIdentifier: 'WEB-77',
      orderlines: [{ productReference: ref('Product', sb.seed.products.nonPrint), quantity: 1 }],
    });
    const orderRef = created.order.reference;
    const order = await client.get('/orders/{orderReference}', {
      params: { path: { orderReference: orderRef } },
    });
    const v1Code = order.order.legacyOrderCode!;
    expect(parseOrderReference(v1Code)).toMatchObject({
      kind: 'v1-code',
      storeCode: sb.seed.storeCodes.combined,
    });
    // Split on the last "-"; the number keeps its leading zeros and its digits past 2^53.
    expect(parseOrderReference('AC-ME-0042')).toEqual({
      input: 'AC-ME-0042',
      kind: 'v1-code',
      storeCode: 'AC-ME',
      number: '0042',
    });
    expect(parseOrderReference('ACME-90071992547409931').number).toBe('90071992547409931');
    expect(parseOrderReference('-42').kind).toBe('partner-reference');
    // The 26 characters of a reference are opaque: not only letters and digits.
    expect(parseOrderReference('Order_abc-def_ghi.jkl~mnoPQRSTUV').kind).toBe('v2');

    const plain = createOrderReferenceResolver(client);
    // Shaped like a V1 code, it is only looked up as a custom identifier when the caller says it is a partner
    // reference: the look-up would answer another order for a V1 code (below).
    expect((await plain.resolve('WEB-77')).status).toBe('not-found');
    expect(await plain.resolvePartnerReference('WEB-77')).toMatchObject({
      status: 'resolved',
      orderReference: orderRef,
      via: 'custom-identifier',
    });
    expect(await plain.resolve(orderRef)).toMatchObject({ status: 'resolved', via: 'v2' });
    const miss = await plain.resolve(v1Code);
    expect(miss.status).toBe('not-found');
    expect(miss.note).toMatch(/try scanOrders/);
    expect((await plain.resolve('NO-SUCH-REF')).status).toBe('not-found');

    const scanning = createOrderReferenceResolver(client, { scanOrders: true });
    expect(await scanning.resolve(v1Code)).toMatchObject({
      status: 'resolved',
      orderReference: orderRef,
      via: 'legacy-order-code',
    });
  });

  it('never resolves a V1 order code to the order whose custom identifier is that code', async () => {
    const sb = newSandbox();
    const client = createClient({
      secretKey: sb.keys.primary,
      baseUrl: sb.baseUrl,
      fetch: (r) => sb.fetch(r),
    });
    const base = { storeReference: ref('Store', sb.seed.stores.combined), shippingKind: 'combined' as const };
    const line = { productReference: ref('Product', sb.seed.products.nonPrint), quantity: 1 };
    const x = (await client.createOrder({ ...base, orderlines: [line] })).order.reference;
    const read = await client.get('/orders/{orderReference}', { params: { path: { orderReference: x } } });
    const code = read.order.legacyOrderCode!;
    const y = (await client.createOrder({ ...base, customIdentifier: code, orderlines: [line] })).order
      .reference;
    const plain = await createOrderReferenceResolver(client).resolve(code);
    expect(plain.orderReference).not.toBe(y);
    expect(plain.status).toBe('not-found');
    expect(plain.note).toMatch(/no look-up by V1 order code/);
    expect(plain.note).toMatch(/resolvePartnerReference/);
    const scanning = await createOrderReferenceResolver(client, { scanOrders: true }).resolve(code);
    expect(scanning).toMatchObject({ status: 'resolved', orderReference: x, via: 'legacy-order-code' });
    // Said to be a partner reference, the text is Y's custom identifier.
    expect((await createOrderReferenceResolver(client).resolvePartnerReference(code)).orderReference).toBe(y);
  });
});
