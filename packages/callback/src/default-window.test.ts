import { describe, expect, it } from 'vitest';
import { stormWithDefaults } from '../bench/storm.ts';

describe('default options under a storm', () => {
  // Everything it asserts is counted on a manual clock. Its real time (~0.5 s, 1,000 notifications with a
  // few macrotask turns each) only grows with a starved CPU: at nice 19 under a load of 15 it ran past
  // vitest's 5 s default once in six runs of the suite, so the timeout here bounds only a hang.
  it('1,000 notifications for 10 orders over 2 s cost at most 3 fetches per order', {
    timeout: 30_000,
  }, async () => {
    const { fetchStarts, answers } = await stormWithDefaults();
    expect(answers.every((a) => a.status === 204)).toBe(true);
    expect(fetchStarts.size).toBe(10);
    for (const starts of fetchStarts.values()) expect(starts.length).toBeLessThanOrEqual(3);
    // Nothing a notification asks for is skipped: a fetch of its order started after it arrived, before it
    // was answered.
    for (const a of answers)
      expect(fetchStarts.get(a.ref)?.some((s) => s >= a.arrived && s <= a.answered)).toBe(true);
    // The latency this costs: at most the window (1 s) and a fetch after the previous round.
    expect(Math.max(...answers.map((a) => a.answered - a.arrived))).toBeLessThanOrEqual(2_100);
  });
});
