import { describe, expect, it } from 'vitest';
import { createWarningGroups, formatRanges } from './warnings.ts';

describe('createWarningGroups', () => {
  it('prints a message repeated on many lines once, with a count and line ranges', () => {
    const w = createWarningGroups();
    for (const line of [3, 4, 5, 9, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21])
      w.add(line, 'Unknown SKU ABC123P001');
    w.add(7, 'Malformed JSON on line 7');
    expect(w.format()).toEqual([
      'lines 3–5, 9, 12–21 (14 lines): Unknown SKU ABC123P001',
      'line 7: Malformed JSON on line 7',
    ]);
    expect(w.lines).toBe(15);
  });

  it('bounds what it keeps and says how much more there is', () => {
    const w = createWarningGroups({ maxGroups: 3, maxRanges: 2 });
    for (let i = 1; i <= 10; i += 2) w.add(i, 'same');
    for (let i = 0; i < 5; i++) w.add(100 + i, `other ${i}`);
    const [first, ...rest] = w.format(2, 'out.jsonl');
    expect(first).toBe('lines 1, 3, … 3 more (5 lines): same');
    expect(rest.at(-1)).toBe('… and 4 more lines with other problems; see out.jsonl');
    expect(
      formatRanges([
        [1, 1],
        [4, 6],
      ]),
    ).toBe('1, 4–6');
  });
});
