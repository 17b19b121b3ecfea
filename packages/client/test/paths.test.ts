// The client's URLs are openapi-fetch's: its path serializer (paths.ts) gives defaultPathSerializer's result for
// every URL and parameters (thrown errors included), and a call sends the URL bare openapi-fetch sends for the
// same call.
import type { paths } from '@partner-print/openapi';
import fc from 'fast-check';
import createFetchClient, { defaultPathSerializer } from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { createClient } from '../src/index.ts';
import { createClient as createLiteClient } from '../src/lite.ts';
import { KEPT, type Parts, pathSerializer } from '../src/paths.ts';
import { BASE, fakeFetch, json, KEY } from './fake.ts';

const name = fc.constantFrom('a', 'b', 'orderReference', 'x y', '__proto__', 'toString', 'é');
/** A parameter as a template writes it: simple, label, matrix or exploded. */
const placeholder = fc
  .tuple(fc.constantFrom('', '', '', '.', ';'), name, fc.constantFrom('', '', '', '*'))
  .map(([style, n, explode]) => `{${style}${n}${explode}}`);
const literal = fc.constantFrom('', '/', '/orders/', '-', '{', '}', '$&', '/x{', '%7B', '{}');
const template = fc
  .array(fc.oneof(placeholder, literal, fc.string({ maxLength: 4 })), { maxLength: 8 })
  .map((parts) => `https://api.example${parts.join('')}`);
const primitive = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('$&', "$'", '$`', '$$', '$1', '{a}', '{b}', '%', '/', '?#', 'é€𝄞', '\uD800'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.bigInt(),
);
const value = fc.oneof(
  primitive,
  fc.constantFrom(undefined, null),
  fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('k', 'l', '$&'), fc.oneof(fc.string(), fc.integer()), { maxKeys: 2 }),
);
const params = fc.dictionary(name, value, { maxKeys: 5 });
/** A serializer's URL, or the class of what it threw (a lone surrogate is a URIError in both). */
const outcome = (serialize: () => string) => {
  try {
    return serialize();
  } catch (error) {
    return (error as Error).constructor.name;
  }
};

/**
 * A fresh serializer gives openapi-fetch's URL (or throws the same class of error) on its first call, which
 * splits the template, and on its second, which reads what was kept.
 */
const agrees = (url: string, p: Record<string, unknown>) => {
  const serialize = pathSerializer();
  const expected = outcome(() => defaultPathSerializer(url, p));
  expect(outcome(() => serialize(url, p))).toBe(expected);
  expect(outcome(() => serialize(url, p))).toBe(expected);
};

describe("pathSerializer: openapi-fetch's defaultPathSerializer, with less work per call", () => {
  it('gives the same URL for any template and parameters, cached or not', () => {
    fc.assert(fc.property(template, params, agrees), { numRuns: 3000 });
  });

  it('gives the same URL for templates of simple placeholders and their own names as parameters', () => {
    // The templates the client's own way takes (no brace outside a placeholder, no label, matrix or exploded
    // parameter, no literal starting with . or ; or ending with *), each parameter named in the template.
    const simple = fc
      .array(
        fc.oneof(
          name.map((n) => `{${n}}`),
          fc.constantFrom('', '/', '/orders/', '-', '$&', '%7B', 'é'),
        ),
        {
          minLength: 1,
          maxLength: 8,
        },
      )
      .map((parts) => `https://api.example${parts.join('')}`);
    fc.assert(
      fc.property(
        simple,
        fc.array(fc.oneof(primitive, fc.constantFrom(undefined, null)), { minLength: 7, maxLength: 7 }),
        (url, values) =>
          agrees(
            url,
            Object.fromEntries(
              ['a', 'b', 'orderReference', 'x y', 'toString', 'é'].map((n, i) => [n, values[i]]),
            ),
          ),
      ),
      { numRuns: 3000 },
    );
  });

  it('gives the same URL where a value could make a placeholder of braces in the template ({{a}}/{a})', () => {
    // openapi-fetch replaces each placeholder's first occurrence in the URL as it stands, so a value beside a
    // brace of the template can make a new placeholder that it fills instead of the next one in place.
    const names = fc.constantFrom('a', 'b');
    const braced = fc
      .array(
        fc.oneof(
          names.map((n) => `{${n}}`),
          fc.constantFrom('{', '}', '/', 'a', 'b'),
        ),
        { maxLength: 8 },
      )
      .map((parts) => `https://api.example/v2/${parts.join('')}`);
    const values = fc.dictionary(names, fc.constantFrom('a', 'b', '', 'z', undefined), { maxKeys: 2 });
    fc.assert(fc.property(braced, values, agrees), { numRuns: 3000 });
    const url = 'https://api.example/v2/orders/{{orderReference}}/{orderReference}';
    expect(pathSerializer()(url, { orderReference: 'orderReference' })).toBe(
      'https://api.example/v2/orders/orderReference/{orderReference}',
    );
  });

  it('throws what openapi-fetch throws for a value encodeURIComponent refuses (a lone surrogate)', () => {
    const url = 'https://api.example/v2/orders/{orderReference}';
    expect(() => defaultPathSerializer(url, { orderReference: '\uD800' })).toThrow(URIError);
    expect(() => pathSerializer()(url, { orderReference: '\uD800' })).toThrow(URIError);
  });

  it(`keeps at most ${KEPT} templates, and gives the same URLs past them`, () => {
    const parts: Parts = new Map();
    const serialize = pathSerializer(parts);
    for (let i = 0; i < KEPT + 200; i++) {
      const url = `https://api.example/v2/things/${i}/{id}/{a}`;
      const p = { id: `a/${i}`, a: i % 3 ? i : undefined };
      expect(serialize(url, p)).toBe(defaultPathSerializer(url, p));
      expect(serialize(url, p)).toBe(defaultPathSerializer(url, p));
    }
    expect(parts.size).toBe(KEPT);
    // The ones kept are the first ones, split once.
    expect(parts.get('https://api.example/v2/things/0/{id}/{a}')).toEqual([
      'https://api.example/v2/things/0/',
      'id',
      '/',
      'a',
      '',
    ]);
    expect(parts.has(`https://api.example/v2/things/${KEPT}/{id}/{a}`)).toBe(false);
  });

  it.each([
    [
      'main',
      (fetch: (r: Request) => Promise<Response>) =>
        createClient({ secretKey: KEY, baseUrl: BASE, fetch, rateLimit: false }),
    ],
    [
      'lite',
      (fetch: (r: Request) => Promise<Response>) =>
        createLiteClient({ secretKey: KEY, baseUrl: BASE, fetch }),
    ],
  ])('%s entry: a call sends the URL bare openapi-fetch sends', async (_, create) => {
    const { fetch, seen } = fakeFetch(() => json({}));
    const client = create(fetch);
    const bare = createFetchClient<paths>({ baseUrl: BASE, fetch });
    const calls = [
      { orderReference: 'Order_1' },
      { orderReference: 'a/b?c#d $& {x} é' },
      { orderReference: 42 },
    ];
    for (const path of calls) {
      const init = { params: { path, query: { page: 2, tags: ['a b', 'c'] } } } as never;
      await client.GET('/orders/{orderReference}', init);
      await bare.GET('/orders/{orderReference}', init);
      const [ours, theirs] = seen.splice(0).map((s) => s.url);
      expect(ours).toBe(theirs);
    }
    // A call's own serializers still come first.
    await client.GET('/orders/{orderReference}', {
      params: { path: { orderReference: 'x' }, query: { q: 1 } as never },
      pathSerializer: (url: string) => url.replace('{orderReference}', 'own'),
      querySerializer: () => 'own=1',
    } as never);
    expect(seen.at(-1)!.url).toBe(`${BASE}/orders/own?own=1`);
  });
});
