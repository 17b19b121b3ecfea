import { renderWeek } from '@partner-print/sandbox';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextRendertokenReset } from '../src/index.ts';

// Two independent implementations (the SDK's and the sandbox's) must agree on every instant.
describe('nextRendertokenReset and the sandbox', () => {
  it('agrees with the sandbox’s `resets` for any instant (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('2000-01-01T00:00:00Z'), max: Date.parse('2060-01-01T00:00:00Z') }),
        (instant) => {
          const week = renderWeek(instant);
          expect(nextRendertokenReset(instant).getTime()).toBe(week.reset);
          expect(Date.parse(week.resets)).toBe(week.reset);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('agrees at the switches and the year end', () => {
    for (const iso of [
      '2026-03-29T00:59:59Z',
      '2026-03-29T01:00:00Z',
      '2026-03-29T22:00:00Z',
      '2026-10-25T00:30:00Z',
      '2026-10-25T01:30:00Z',
      '2026-10-25T23:00:00Z',
      '2026-12-31T23:30:00Z',
      '2027-01-03T23:00:00Z',
    ]) {
      expect(nextRendertokenReset(new Date(iso)).getTime(), iso).toBe(renderWeek(Date.parse(iso)).reset);
    }
  });
});
