// What a partner's framework hands them for the callback's URL is not always this realm's URL: Next.js's
// `request.nextUrl` (a NextURL, not a subclass of URL), the URL and URLSearchParams of a Jest suite with
// testEnvironment 'jsdom' (whatwg-url's classes, not Node's) or of another realm. Each is read by what it
// is (its `href`, its tag), as a URL or a query of this realm; what is not a URL or a query is still refused.
import { describe, expect, it } from 'vitest';
import { parseOrderUpdatedCallback } from './parse.ts';

const V2 = 'Order_01JABCDEFGHJKMNPQRSTVWXYZ0';
const query = `environment=test&order_reference=ACME-1001&order_reference_v2=${V2}&store_code=ACME&tenant=eu`;
const href = `https://partner.example/hooks/print?${query}`;

/** The shape of whatwg-url's URLSearchParams (jsdom's): private pairs, the tag, iterable as pairs. */
class OtherSearchParams {
  readonly #pairs: Array<[string, string]>;
  constructor(text: string) {
    this.#pairs = [...new URLSearchParams(text)];
  }
  get [Symbol.toStringTag]() {
    return 'URLSearchParams';
  }
  get(name: string) {
    return this.#pairs.find(([n]) => n === name)?.[1] ?? null;
  }
  forEach(callback: (value: string, name: string) => void) {
    for (const [name, value] of this.#pairs) callback(value, name);
  }
  *[Symbol.iterator]() {
    yield* this.#pairs.map(([name, value]) => [name, value] as [string, string]);
  }
  toString() {
    return new URLSearchParams(this.#pairs).toString();
  }
}

/** The shape of whatwg-url's URL (jsdom's): private state, the tag, `href` and `searchParams` getters. */
class OtherURL {
  readonly #href: string;
  constructor(href: string) {
    this.#href = new URL(href).href;
  }
  get [Symbol.toStringTag]() {
    return 'URL';
  }
  get href() {
    return this.#href;
  }
  get searchParams() {
    return new OtherSearchParams(new URL(this.#href).search);
  }
  toString() {
    return this.#href;
  }
}

/** The shape of Next.js's NextURL: no tag, not a URL subclass, its URL held inside. */
class NextURL {
  readonly #url: URL;
  constructor(href: string) {
    this.#url = new URL(href);
  }
  get href() {
    return this.#url.href;
  }
  get searchParams() {
    return this.#url.searchParams;
  }
  get pathname() {
    return this.#url.pathname;
  }
  toString() {
    return this.href;
  }
}

const expected = {
  environment: 'test',
  orderReferenceV2: V2,
  orderReference: 'ACME-1001',
  storeCode: 'ACME',
  extra: [['tenant', 'eu']],
};

describe('parseOrderUpdatedCallback of a URL or query of another class', () => {
  it.each([
    ["Next.js's request.nextUrl (a NextURL)", () => new NextURL(href)],
    ["a jsdom suite's URL (whatwg-url's)", () => new OtherURL(href)],
    ["a jsdom suite's URLSearchParams (whatwg-url's)", () => new OtherSearchParams(query)],
    ['an object with the href of a URL (a Location)', () => ({ href })],
  ])('reads %s as a URL of this realm', (_name, make) => {
    const input = make();
    expect(input instanceof URL || input instanceof URLSearchParams).toBe(false);
    const result = parseOrderUpdatedCallback(input);
    expect(result).toEqual(parseOrderUpdatedCallback(new URL(href)));
    expect(result).toMatchObject({ ok: true, value: expected, warnings: [] });
  });

  it('applies the same checks: a bad value, a URL or query over 64 KiB', () => {
    const bad = href.replace('environment=test', 'environment=staging');
    for (const input of [new NextURL(bad), new OtherURL(bad), { href: bad }])
      expect(parseOrderUpdatedCallback(input)).toMatchObject({
        ok: false,
        errors: [{ code: 'invalid_parameter', parameter: 'environment' }],
      });
    const pad = `&pad=${'x'.repeat(70_000)}`;
    for (const input of [new NextURL(href + pad), new OtherSearchParams(query + pad), { href: href + pad }])
      expect(parseOrderUpdatedCallback(input)).toMatchObject({
        ok: false,
        errors: [{ code: 'input_too_long' }],
      });
  });

  it('bounds a query of another class while reading it, before copying it', () => {
    // A query of 10 MB: its pairs are counted as they come, and reading stops at the bound (a copy first
    // read every pair).
    let read = 0;
    const endless = {
      get [Symbol.toStringTag]() {
        return 'URLSearchParams';
      },
      *[Symbol.iterator]() {
        for (let i = 0; i < 10_000; i++) {
          read++;
          yield ['pad', 'x'.repeat(1000)] as [string, string];
        }
      },
    };
    expect(parseOrderUpdatedCallback(endless)).toMatchObject({
      ok: false,
      errors: [{ code: 'input_too_long' }],
    });
    expect(read).toBeLessThan(80);
  });

  it('still refuses what is not a URL or a query', () => {
    for (const input of [
      { href: 42 },
      { href: 'not a url' },
      { searchParams: new URLSearchParams(query) },
      { [Symbol.toStringTag]: 'URL', toString: () => href },
      new Map([['environment', 'test']]),
      [['environment', 'test']],
    ])
      expect(parseOrderUpdatedCallback(input)).toMatchObject({
        ok: false,
        errors: [{ code: 'invalid_input' }],
      });
  });
});
