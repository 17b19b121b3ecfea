import { spec } from '@partner-print/openapi';
import { describe, expect, it } from 'vitest';
import { json, operations } from './contract.ts';
import { setup } from './fixtures.ts';
import { type Json, resolve } from './spec-walk.ts';

type Err = { code: string; message: string };
const address = { firstname: 'Ada', city: 'Amsterdam', countryCode: 'NL' };

describe('a method the path does not have', () => {
  it('answers 405 method_not_allowed with Allow, after authentication', async () => {
    const { sandbox } = setup();
    const send = (method: string, path: string, key: string | null = sandbox.keys.primary) =>
      sandbox.fetch(`${sandbox.baseUrl}${path}`, {
        method,
        headers: key ? { 'X-Service-Secret-Key': key } : {},
      });
    const del = await send('DELETE', '/orders');
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(await json<Err>(del)).toMatchObject({ code: 'method_not_allowed' });
    expect(del.headers.get('x-ratelimit')).not.toBeNull();
    const put = await send('PUT', '/orders/Order_00000000000000000000000000');
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD');
    const get = await send('GET', '/claims/Claim_00000000000000000000000000/retract');
    expect(get.headers.get('allow')).toBe('POST');
    expect((await send('PATCH', '/images')).headers.get('allow')).toBe('POST');
    expect((await send('GET', '/nowhere')).status).toBe(404);
    expect((await send('DELETE', '/orders', null)).status).toBe(401);
  });
});

describe('list endpoints page with cursor and nextCursor', () => {
  for (const [path, field] of [
    ['/items', 'items'],
    ['/scenes', 'scenes'],
    ['/perspectives', 'perspectives'],
    ['/claimcategories', 'claimcategories'],
  ] as const) {
    it(`${path}: pages of 2 add up to the whole list; a full last page is followed by an empty one`, async () => {
      const whole = setup();
      const all = (await json<Record<string, Array<{ reference: string }>>>(await whole.a.get(path)))[field]!;
      const s = setup({ pageSize: 2 });
      const seen: string[] = [];
      const pages: number[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor === null ? '' : `?cursor=${encodeURIComponent(cursor)}`;
        const res = await s.a.get(`${path}${query}`);
        expect(res.status).toBe(200);
        const page = await json<Record<string, unknown>>(res);
        const items = page[field] as Array<{ reference: string }>;
        seen.push(...items.map((i) => i.reference));
        pages.push(items.length);
        cursor = page.nextCursor as string | null;
        if (items.length < 2) expect(cursor).toBeNull();
        else expect(typeof cursor).toBe('string');
      } while (cursor !== null);
      expect(seen).toEqual(all.map((i) => i.reference));
      expect(pages.at(-1)).toBeLessThan(2);
      const bad = await s.a.get(`${path}?cursor=garbage`);
      expect(bad.status).toBe(400);
      expect(await json<Err>(bad)).toMatchObject({ code: 'invalid_cursor' });
    });
  }
});

describe('binary downloads', () => {
  it('answer image/png, a type the spec declares', async () => {
    const { a, seed } = setup();
    const res = await a.get(`/products/${seed.products.print}/media/front.png`);
    expect(res.headers.get('content-type')).toBe('image/png');
  });
});

describe('order rules where spec and sandbox agree', () => {
  it('refuses dropshipAddress (even null) on a combined order with unexpected_address', async () => {
    const { a, order } = setup();
    for (const dropshipAddress of [address, null]) {
      await expect(order({ dropshipAddress })).rejects.toThrow(/422 .*unexpected_address/);
    }
    expect((await a.get('/orders')).status).toBe(200);
  });

  it('refuses dropshipMinimalShippingLevel on a combined order with unexpected_shipping_level', async () => {
    const { order } = setup();
    await expect(order({ dropshipMinimalShippingLevel: 'tracked' })).rejects.toThrow(
      /422 .*unexpected_shipping_level/,
    );
  });

  it('keeps refusing shipping levels other than tracked (a sandbox choice: invalid_shipping_level)', async () => {
    const { order, seed } = setup();
    await expect(
      order({
        storeReference: seed.stores.dropship,
        shippingKind: 'dropship',
        dropshipAddress: address,
        dropshipMinimalShippingLevel: 'express',
      }),
    ).rejects.toThrow(/422 .*invalid_shipping_level/);
  });
});

/** The `code`s of the error examples the spec shows for one response of an operation. */
function exampleCodes(path: string, status: string): string[] {
  const op = (spec.paths as Record<string, Json>)[path]!.get as Json;
  const [response] = resolve((op.responses as Json)[status] as Json, '');
  const examples = ((response.content as Json)['application/json'] as Json).examples as Json;
  return Object.values(examples).map((e) => (resolve(e as Json, '')[0].value as Json).code as string);
}

describe('error examples of the spec', () => {
  it('show the codes the sandbox answers on lookupComposition 404 and 410 and on 401', async () => {
    const { a, seed } = setup();
    const q = (s: string, p: string, v: string) =>
      `/lookup-composition?sceneReference=${s}&productReference=${p}&perspectiveReference=${v}`;
    const m = seed.missingCombination;
    const missing = await a.get(q(m.sceneReference, m.productReference, m.perspectiveReference));
    const gone = await a.get(q(seed.scenes.lifestyle, seed.products.print, seed.perspectives.lifestyleWide));
    const unauthorized = await a.get('/rendertokens', null);
    expect([missing.status, gone.status, unauthorized.status]).toEqual([404, 410, 401]);
    expect(exampleCodes('/lookup-composition', '404')).toEqual([(await json<Err>(missing)).code]);
    expect(exampleCodes('/lookup-composition', '410')).toEqual([(await json<Err>(gone)).code]);
    expect(exampleCodes('/rendertokens', '401')).toEqual([(await json<Err>(unauthorized)).code]);
  });
});

describe('rate-limit buckets', () => {
  it('every operation spends the buckets its x-rate-limit-buckets names, as X-RateLimit-Policy shows', async () => {
    const { sandbox } = setup();
    const disagreements: string[] = [];
    for (const op of operations) {
      const path = op.template.replace(/\{(\w+)\}/g, (_, name: string) =>
        name === 'filename'
          ? 'front.png'
          : `${name.charAt(0).toUpperCase()}${name.slice(1).replace(/Reference$/, '')}_${'0'.repeat(26)}`,
      );
      const upload = op.id === 'uploadImage' || op.id === 'uploadEvidence';
      const res = await sandbox.fetch(`${sandbox.baseUrl}${path}`, {
        method: op.method,
        headers: {
          'X-Service-Secret-Key': sandbox.keys.primary,
          'Content-Type': upload ? 'application/octet-stream' : 'application/json',
        },
        body: op.method === 'POST' ? '{}' : undefined,
      });
      const policy = res.headers.get('x-ratelimit-policy') ?? '';
      const spent = [...policy.matchAll(/"([a-z]+)"/g)].map((m) => m[1]).sort();
      const documented = [...((op.op['x-rate-limit-buckets'] as string[] | undefined) ?? [])].sort();
      if (spent.join() !== documented.join()) {
        disagreements.push(
          `${op.id} (${res.status}): spec ${documented.join('+')}, sandbox ${spent.join('+')}`,
        );
      }
    }
    expect(disagreements).toEqual([]);
  });
});
