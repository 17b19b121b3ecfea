import { describe, expect, it } from 'vitest';
import { jain, simulate } from './sim.ts';

describe('fair sharing without a shared store (simulated processes, virtual clock)', () => {
  for (const n of [2, 3, 6]) {
    it(`${n} processes converge to equal shares`, async () => {
      const sim = simulate({ processes: n, seed: n });
      await sim.run(sim.start + 30_000);
      const counts = sim.processes.map((p) => p.ok);
      const limited = sim.processes.reduce((a, p) => a + p.limited, 0);
      const total = counts.reduce((a, b) => a + b, 0);
      console.log(n, counts, limited, jain(counts), total / (120 + 30 * 20));
      expect(jain(counts)).toBeGreaterThanOrEqual(0.9);
    });
  }
});
