import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextRendertokenReset, wallTime } from './reset.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (d: Date) => d.toISOString();

describe('nextRendertokenReset', () => {
  it('is Monday 00:00 CET (23:00 UTC Sunday) in winter', () => {
    expect(iso(nextRendertokenReset(new Date('2026-11-21T12:00:00Z')))).toBe('2026-11-22T23:00:00.000Z');
  });

  it('is Monday 00:00 CEST (22:00 UTC Sunday) in summer', () => {
    expect(iso(nextRendertokenReset(new Date('2026-07-01T12:00:00Z')))).toBe('2026-07-05T22:00:00.000Z');
  });

  describe('around the spring switch (last Sunday of March, 2026-03-29 02:00 CET → 03:00 CEST)', () => {
    const cases: [string, string][] = [
      ['2026-03-22T22:59:59.999Z', '2026-03-22T23:00:00.000Z'], // Sunday 23:59:59.999 CET
      ['2026-03-22T23:00:00.000Z', '2026-03-29T22:00:00.000Z'], // exactly Monday 00:00 CET → the next one, in CEST
      ['2026-03-28T12:00:00.000Z', '2026-03-29T22:00:00.000Z'], // Saturday before the switch
      ['2026-03-29T00:59:59.000Z', '2026-03-29T22:00:00.000Z'], // Sunday 01:59:59 CET, just before
      ['2026-03-29T01:00:00.000Z', '2026-03-29T22:00:00.000Z'], // Sunday 03:00 CEST, just after
      ['2026-03-29T21:59:59.999Z', '2026-03-29T22:00:00.000Z'], // Sunday 23:59:59.999 CEST
      ['2026-03-29T22:00:00.000Z', '2026-04-05T22:00:00.000Z'], // exactly the reset → a week later
    ];
    it.each(cases)('%s → %s', (input, expected) => {
      expect(iso(nextRendertokenReset(new Date(input)))).toBe(expected);
    });

    it('the week of the switch is 7 days minus an hour long', () => {
      const start = nextRendertokenReset(new Date('2026-03-22T12:00:00Z'));
      const end = nextRendertokenReset(start);
      expect(end.getTime() - start.getTime()).toBe(7 * DAY - HOUR);
    });
  });

  describe('around the autumn switch (last Sunday of October, 2026-10-25 03:00 CEST → 02:00 CET)', () => {
    const cases: [string, string][] = [
      ['2026-10-18T21:59:59.999Z', '2026-10-18T22:00:00.000Z'], // Sunday 23:59:59.999 CEST
      ['2026-10-18T22:00:00.000Z', '2026-10-25T23:00:00.000Z'], // exactly Monday 00:00 CEST → the next one, in CET
      ['2026-10-25T00:30:00.000Z', '2026-10-25T23:00:00.000Z'], // Sunday 02:30 CEST (first pass)
      ['2026-10-25T01:30:00.000Z', '2026-10-25T23:00:00.000Z'], // Sunday 02:30 CET (second pass)
      ['2026-10-25T22:59:59.999Z', '2026-10-25T23:00:00.000Z'], // Sunday 23:59:59.999 CET
      ['2026-10-25T23:00:00.000Z', '2026-11-01T23:00:00.000Z'], // exactly the reset → a week later
    ];
    it.each(cases)('%s → %s', (input, expected) => {
      expect(iso(nextRendertokenReset(new Date(input)))).toBe(expected);
    });

    it('the week of the switch is 7 days plus an hour long', () => {
      const start = nextRendertokenReset(new Date('2026-10-15T12:00:00Z'));
      const end = nextRendertokenReset(start);
      expect(end.getTime() - start.getTime()).toBe(7 * DAY + HOUR);
    });
  });

  describe('around New Year', () => {
    const cases: [string, string][] = [
      ['2026-12-31T12:00:00.000Z', '2027-01-03T23:00:00.000Z'], // Thursday → Monday 2027-01-04 00:00 CET
      ['2026-12-31T23:00:00.000Z', '2027-01-03T23:00:00.000Z'], // Friday 2027-01-01 00:00 local
      ['2027-01-03T22:59:59.999Z', '2027-01-03T23:00:00.000Z'],
      ['2027-01-03T23:00:00.000Z', '2027-01-10T23:00:00.000Z'],
      ['2025-12-28T23:00:00.000Z', '2026-01-04T23:00:00.000Z'], // Monday 2025-12-29 00:00 → 2026-01-05
      ['2025-12-31T23:30:00.000Z', '2026-01-04T23:00:00.000Z'], // already 2026 in Amsterdam, still 2025 in UTC
    ];
    it.each(cases)('%s → %s', (input, expected) => {
      expect(iso(nextRendertokenReset(new Date(input)))).toBe(expected);
    });
  });

  it('accepts epoch milliseconds and rejects invalid dates', () => {
    expect(iso(nextRendertokenReset(Date.parse('2026-11-21T12:00:00Z')))).toBe('2026-11-22T23:00:00.000Z');
    expect(() => nextRendertokenReset(new Date('nope'))).toThrow(RangeError);
  });

  it('is always a later Monday 00:00 in Amsterdam, at most seven local days ahead (property)', () => {
    const min = Date.parse('1990-01-01T00:00:00Z');
    const max = Date.parse('2090-01-01T00:00:00Z');
    fc.assert(
      fc.property(fc.integer({ min, max }), (instant) => {
        const reset = nextRendertokenReset(instant).getTime();
        const wall = wallTime(reset);
        expect(wall).toMatchObject({ weekday: 0, hour: 0, minute: 0, second: 0 });
        expect(reset % 1000).toBe(0);
        expect(reset).toBeGreaterThan(instant);
        // 7 local days: 7 × 24 h, give or take the hour of a daylight-saving switch.
        expect(reset - instant).toBeLessThanOrEqual(7 * DAY + HOUR);
        // None is skipped: the Monday 00:00 before the result is not after the instant.
        const previous = nextRendertokenReset(reset - 8 * DAY).getTime();
        expect(previous).toBeLessThanOrEqual(instant);
      }),
      { numRuns: 2000 },
    );
  });

  it('lands exactly on each reset when started at the previous one (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), (weeks) => {
        const start = nextRendertokenReset(Date.parse('2000-01-01T00:00:00Z') + weeks * 7 * DAY);
        const next = nextRendertokenReset(start);
        const wall = wallTime(next.getTime());
        expect(wall.weekday).toBe(0);
        expect([7 * DAY - HOUR, 7 * DAY, 7 * DAY + HOUR]).toContain(next.getTime() - start.getTime());
      }),
    );
  });
});
