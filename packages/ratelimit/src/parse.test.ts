import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { namesOf, parseRateLimitHeaders, readRateLimitFields } from './parse.ts';

const NOW = Date.parse('2026-11-16T09:00:00Z');

describe('parseRateLimitHeaders', () => {
  it('gives the same reading of a repeated field value, in objects of its own', () => {
    const headers = { 'x-ratelimit-policy': '"default";q=3000;w=60', 'x-ratelimit': '"default";r=5;t=0' };
    const first = parseRateLimitHeaders(headers);
    first.policies[0]!.quota = 1;
    first.limits.pop();
    const second = parseRateLimitHeaders(headers);
    expect(second.policies).toEqual([{ name: 'default', quota: 3000, windowSeconds: 60 }]);
    expect(second.limits).toEqual([{ name: 'default', remaining: 5, resetSeconds: 0 }]);
    // A malformed value stays ignored the second time too, and many distinct values do not break it.
    for (let i = 0; i < 200; i++) parseRateLimitHeaders({ 'x-ratelimit': `"default";r=${i};t=0` });
    expect(parseRateLimitHeaders({ 'x-ratelimit': '"default";r=' }).limits).toEqual([]);
    expect(parseRateLimitHeaders({ 'x-ratelimit': '"default";r=' }).limits).toEqual([]);
    expect(parseRateLimitHeaders({ 'x-ratelimit': '"default";r=199;t=0' }).limits[0]?.remaining).toBe(199);
  });

  it('reads the reference example (X- names, String names, q/w and r/t)', () => {
    const parsed = parseRateLimitHeaders(
      new Headers({
        'X-RateLimit-Policy': '"default";q=3000;w=60, "uploads";q=5000;w=86400',
        'X-RateLimit': '"default";r=2999;t=0, "uploads";r=4999;t=0',
      }),
    );
    expect(parsed).toEqual({
      source: 'x-ratelimit',
      policies: [
        { name: 'default', quota: 3000, windowSeconds: 60 },
        { name: 'uploads', quota: 5000, windowSeconds: 86400 },
      ],
      limits: [
        { name: 'default', remaining: 2999, resetSeconds: 0 },
        { name: 'uploads', remaining: 4999, resetSeconds: 0 },
      ],
    });
  });

  it.each([
    [
      '"burst";q=100;w=60,"daily";q=1000;w=86400',
      [
        { name: 'burst', quota: 100, windowSeconds: 60 },
        { name: 'daily', quota: 1000, windowSeconds: 86400 },
      ],
    ],
    ['"default";q=100;w=10', [{ name: 'default', quota: 100, windowSeconds: 10 }]],
    [
      '"permin";q=50;w=60,"perhr";q=1000;w=3600',
      [
        { name: 'permin', quota: 50, windowSeconds: 60 },
        { name: 'perhr', quota: 1000, windowSeconds: 3600 },
      ],
    ],
    ['"peruser";q=100;w=60;pk=:cHsdsRa894==:', [{ name: 'peruser', quota: 100, windowSeconds: 60 }]],
    [
      '"peruser";q=65535;qu="content-bytes";w=10;pk=:sdfjLJUOUH==:',
      [{ name: 'peruser', quota: 65535, windowSeconds: 10 }],
    ],
  ])('reads the draft RateLimit-Policy example %s', (value, policies) => {
    expect(parseRateLimitHeaders({ 'RateLimit-Policy': value }).policies).toEqual(policies);
  });

  it.each([
    ['"default";r=50;t=30', [{ name: 'default', remaining: 50, resetSeconds: 30 }]],
    ['"default";r=999;pk=:dHJpYWwxMjEzMjM=:', [{ name: 'default', remaining: 999 }]],
    [
      '"default";r=300000000;t=60;pk=:QXBwLTk5OQ==:',
      [{ name: 'default', remaining: 300000000, resetSeconds: 60 }],
    ],
    ['"problemPolicy";r=0;t=10', [{ name: 'problemPolicy', remaining: 0, resetSeconds: 10 }]],
  ])('reads the draft RateLimit example %s', (value, limits) => {
    expect(parseRateLimitHeaders({ RateLimit: value }).limits).toEqual(limits);
  });

  it('accepts Token names as well as Strings', () => {
    const parsed = parseRateLimitHeaders({
      'X-RateLimit-Policy': 'default;q=10;w=1, "uploads";q=2;w=60',
      'X-RateLimit': 'default;r=9;t=0, uploads;r=1;t=0',
    });
    expect(parsed.policies.map((p) => p.name)).toEqual(['default', 'uploads']);
    expect(parsed.limits.map((l) => l.name)).toEqual(['default', 'uploads']);
  });

  it('joins several field lines (arrays, entries and Headers.append)', () => {
    const expected = [
      { name: 'default', remaining: 1, resetSeconds: 0 },
      { name: 'downloads', remaining: 7, resetSeconds: 0 },
    ];
    expect(
      parseRateLimitHeaders({ 'x-ratelimit': ['"default";r=1;t=0', '"downloads";r=7;t=0'] }).limits,
    ).toEqual(expected);
    expect(
      parseRateLimitHeaders([
        ['X-RateLimit', '"default";r=1;t=0'],
        ['X-RateLimit', '"downloads";r=7;t=0'],
      ]).limits,
    ).toEqual(expected);
    const headers = new Headers();
    headers.append('X-RateLimit', '"default";r=1;t=0');
    headers.append('X-RateLimit', '"downloads";r=7;t=0');
    expect(parseRateLimitHeaders(headers).limits).toEqual(expected);
  });

  it('ignores unknown and vendor parameters', () => {
    const parsed = parseRateLimitHeaders({
      'X-RateLimit-Policy': '"default";q=10;w=1;qu="requests";acme-burst=5;pk=:AAAA:',
      'X-RateLimit': '"default";r=3;t=0;acme-policy="x"',
    });
    expect(parsed.policies).toEqual([{ name: 'default', quota: 10, windowSeconds: 1 }]);
    expect(parsed.limits).toEqual([{ name: 'default', remaining: 3, resetSeconds: 0 }]);
  });

  it('lets the unprefixed V3 names win, and falls back when they are malformed', () => {
    const both = parseRateLimitHeaders({
      'RateLimit-Policy': '"default";q=20;w=2',
      RateLimit: '"default";r=5;t=0',
      'X-RateLimit-Policy': '"default";q=10;w=1',
      'X-RateLimit': '"default";r=9;t=0',
    });
    expect(both.source).toBe('ratelimit');
    expect(both.policies).toEqual([{ name: 'default', quota: 20, windowSeconds: 2 }]);
    expect(both.limits).toEqual([{ name: 'default', remaining: 5, resetSeconds: 0 }]);

    const broken = parseRateLimitHeaders({
      'RateLimit-Policy': '"default;q=20',
      RateLimit: '"default";r=5;;',
      'X-RateLimit-Policy': '"default";q=10;w=1',
      'X-RateLimit': '"default";r=9;t=0',
    });
    expect(broken.source).toBe('x-ratelimit');
    expect(broken.limits).toEqual([{ name: 'default', remaining: 9, resetSeconds: 0 }]);
  });

  it('ignores malformed fields and items without throwing', () => {
    expect(parseRateLimitHeaders({ 'X-RateLimit': 'r=1;;;,,' })).toEqual({ policies: [], limits: [] });
    expect(
      parseRateLimitHeaders({
        'X-RateLimit-Policy': '"a";q=-1, "b";w=10, 5;q=1, ("c" "d");q=1, "e";q="1", "f";q=1;w=0, "g";q=2.5',
        'X-RateLimit': '"a";r=?1, "b";t=1, "c";r=2;t=-1',
      }),
    ).toEqual({
      source: 'x-ratelimit',
      policies: [{ name: 'f', quota: 1 }],
      limits: [{ name: 'c', remaining: 2 }],
    });
  });

  it('reads parameter names from a table (the draft may rename r and t)', () => {
    const parsed = parseRateLimitHeaders(
      { 'X-RateLimit': '"default";rem=4;reset=2', 'X-RateLimit-Policy': '"default";q=10;w=5' },
      { parameterNames: { remaining: ['rem', 'r'], reset: ['reset', 't'] } },
    );
    expect(parsed.limits).toEqual([{ name: 'default', remaining: 4, resetSeconds: 2 }]);
  });

  it('reads Retry-After with the wire rule: seconds (decimals too) or an HTTP-date', () => {
    const retryAfter = (value: string) =>
      parseRateLimitHeaders({ 'Retry-After': value }, { now: NOW }).retryAfterSeconds;
    expect(parseRateLimitHeaders({ 'Retry-After': '17' }, { now: NOW }).retryAfterSeconds).toBe(17);
    expect(
      parseRateLimitHeaders({ 'Retry-After': 'Mon, 16 Nov 2026 09:00:30 GMT' }, { now: NOW })
        .retryAfterSeconds,
    ).toBe(30);
    expect(retryAfter('Mon, 16 Nov 2026 08:00:00 GMT')).toBe(0);
    expect(retryAfter('soon')).toBeUndefined();
    expect(retryAfter('1.5')).toBe(1.5);
    expect(retryAfter('-3')).toBeUndefined();
    expect(parseRateLimitHeaders({}, { now: NOW }).retryAfterSeconds).toBeUndefined();
  });

  it("reads a Retry-After date against the answer's Date, not the host's clock (RFC 9110)", () => {
    const headers = { 'Retry-After': 'Mon, 16 Nov 2026 09:00:30 GMT', Date: 'Mon, 16 Nov 2026 09:00:00 GMT' };
    for (const now of [NOW - 3_600_000, NOW + 600_000]) {
      expect(parseRateLimitHeaders(headers, { now }).retryAfterSeconds).toBe(30);
      expect(readRateLimitFields(new Headers(headers), namesOf(undefined), now, true).retryAfterSeconds).toBe(
        30,
      );
    }
  });

  it("reads an answer's Headers as it reads any header shape: cases, repeated lines, the family that wins", () => {
    const line = fc.constantFrom(
      '"default";q=3000;w=60',
      '"uploads";q=5000;w=86400',
      '"default";r=2999;t=0',
      '"default";r=0;t=1.5',
      'uploads;r=7',
      '"default;q=20',
      '',
    );
    const name = fc.constantFrom(
      'RateLimit-Policy',
      'ratelimit-policy',
      'RateLimit',
      'X-RateLimit-Policy',
      'x-ratelimit-policy',
      'X-RATELIMIT',
      'x-ratelimit',
      'Content-Type',
      'X-RateLimit-Reset',
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(name, line), { maxLength: 8 }), (lines) => {
        const headers = new Headers();
        for (const [n, v] of lines) headers.append(n, v);
        const { retryAfterSeconds: _none, ...expected } = parseRateLimitHeaders(lines);
        expect(readRateLimitFields(headers, namesOf(undefined), NOW, false)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws, whatever the fields hold (fast-check)', () => {
    const fieldValue = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc
        .array(
          fc.tuple(
            fc.oneof(
              fc.constantFrom('"default"', 'uploads', '"x', '5', '?1', '(a b)', ':AA==:'),
              fc.string(),
            ),
            fc.array(
              fc.tuple(
                fc.constantFrom('q', 'w', 'r', 't', 'pk', 'Q', ''),
                fc.oneof(fc.integer(), fc.string()),
              ),
              { maxLength: 4 },
            ),
          ),
          { maxLength: 4 },
        )
        .map((items) => items.map(([n, ps]) => n + ps.map(([k, v]) => `;${k}=${v}`).join('')).join(', ')),
    );
    fc.assert(
      fc.property(
        fc.record(
          {
            'x-ratelimit-policy': fieldValue,
            'x-ratelimit': fc.oneof(fieldValue, fc.array(fieldValue)),
            'ratelimit-policy': fieldValue,
            ratelimit: fieldValue,
            'retry-after': fc.string(),
          },
          { requiredKeys: [] },
        ),
        (headers) => {
          const parsed = parseRateLimitHeaders(headers, { now: NOW });
          return (
            parsed.policies.every((p) => Number.isInteger(p.quota) && p.quota >= 0) &&
            parsed.limits.every((l) => Number.isInteger(l.remaining) && l.remaining >= 0) &&
            (parsed.retryAfterSeconds === undefined || parsed.retryAfterSeconds >= 0)
          );
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);
});
