import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICIES, RateLimiter, resolvePolicies } from './ratelimit.ts';
import { serializeList } from './structured-fields.ts';

describe('serializeList (RFC 9651)', () => {
  it('serializes string items with integer parameters', () => {
    expect(
      serializeList([
        {
          value: 'default',
          params: [
            ['q', 3000],
            ['w', 60],
          ],
        },
        { value: 'uploads', params: [['r', 0]] },
      ]),
    ).toBe('"default";q=3000;w=60, "uploads";r=0');
  });
  it('escapes quotes and backslashes, writes booleans and bare true parameters', () => {
    expect(
      serializeList([
        {
          value: 'a"b\\c',
          params: [
            ['x', true],
            ['y', false],
          ],
        },
      ]),
    ).toBe('"a\\"b\\\\c";x;y=?0');
  });
  it('refuses what RFC 9651 cannot carry', () => {
    expect(() => serializeList([{ value: 'é' }])).toThrow();
    expect(() => serializeList([{ value: 'a', params: [['Q', 1]] }])).toThrow();
    expect(() => serializeList([{ value: 1.5 }])).toThrow();
  });
});

describe('RateLimiter', () => {
  it('gives about 17 s for an empty uploads bucket and about 1 s for downloads', () => {
    let now = 0;
    const limiter = new RateLimiter(resolvePolicies({ default: { q: 1_000_000 } }), () => now);
    for (let i = 0; i < 5000; i++) expect(limiter.take('A', ['default', 'uploads']).ok).toBe(true);
    const up = limiter.take('A', ['default', 'uploads']);
    expect(up.ok).toBe(false);
    expect(up.retryAfter).toBe(18); // 86400 / 5000 = 17.28 s, rounded up
    for (let i = 0; i < 100_000; i++) limiter.take('B', ['downloads']);
    expect(limiter.take('B', ['downloads']).retryAfter).toBe(1);
    now += 17_280;
    expect(limiter.take('A', ['default', 'uploads']).ok).toBe(true);
  });

  it('uses the reference defaults', () => {
    expect(resolvePolicies(undefined)).toEqual(DEFAULT_POLICIES);
    expect(resolvePolicies(false)).toBe(false);
  });
});
