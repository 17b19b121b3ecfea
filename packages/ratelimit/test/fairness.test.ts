import { describe, expect, it } from 'vitest';
import { between, jain, type Sim, simulate } from '../bench/sim.ts';

// q=120, w=6 s: 20 tokens/s. Each simulated process has its own scheduler and memory store (no shared
// store) and 8 callers; they share the budget only through the server's headers (issue 21, 1 and 2).
const Q = 120;
const W = 6;
const RATE = Q / W;

const limitedOf = (sim: Sim) => sim.processes.reduce((a, p) => a + p.limited, 0);
const okOf = (sim: Sim) => sim.processes.reduce((a, p) => a + p.ok, 0);
/** Successes of the given processes in [from, to) seconds, per second. */
const rateOf = (sim: Sim, from: number, to: number, which = sim.processes) =>
  which.reduce((a, p) => a + between(p, from, to), 0) / (to - from);

describe('fair sharing without a shared store (simulated processes, virtual clock)', {
  timeout: 120_000,
}, () => {
  it('1 process spends the whole budget without a 429', async () => {
    const sim = simulate({ processes: 1, jitter: 1 });
    await sim.run(sim.start + 30_000);
    expect(okOf(sim) / (Q + 30 * RATE)).toBeGreaterThanOrEqual(0.99);
    expect(limitedOf(sim)).toBe(0);
  });

  for (const n of [2, 3, 6]) {
    it(`${n} processes converge to equal shares within 2 windows (J ≥ 0.9 overall, ≥ 0.9 after 2 windows)`, async () => {
      const sim = simulate({ processes: n, seed: n, jitter: 1, latencyMs: 5 });
      await sim.run(sim.start + 30_000);
      const counts = sim.processes.map((p) => p.ok);
      const late = sim.processes.map((p) => between(p, 2 * W, 30));
      expect(jain(counts)).toBeGreaterThanOrEqual(0.9);
      expect(jain(late)).toBeGreaterThanOrEqual(0.9);
      expect(okOf(sim) / (Q + 30 * RATE)).toBeGreaterThanOrEqual(0.97);
      expect(limitedOf(sim) / (okOf(sim) + limitedOf(sim))).toBeLessThanOrEqual(0.01);
    });
  }

  it('6 processes draining one full bucket at once, answers reordered (2–62 ms each way): ≤ 1.5 % 429s in every run', async () => {
    // Before: every process took the full bucket for its own until its first measured window, and the
    // requests all of them had on the way when it emptied came back 429 (16–21 of ~490, all in the first
    // half second). Now what others spent unseen between two answers holds back what they have on the way.
    for (const seed of [1, 2, 3]) {
      const sim = simulate({ processes: 6, seed, jitter: 1, latencyMs: (random) => 2 + random() * 60 });
      await sim.run(sim.start + 18_000);
      expect(limitedOf(sim) / (okOf(sim) + limitedOf(sim))).toBeLessThanOrEqual(0.015);
      expect(okOf(sim) / (Q + 18 * RATE)).toBeGreaterThanOrEqual(0.97);
    }
  });

  it('whoever starts first does not keep the budget', async () => {
    // One process runs alone for 2 windows, then two more join.
    const sim = simulate({ processes: 3, seed: 11, latencyMs: 5 });
    for (const p of sim.processes.slice(1)) p.running = false;
    await sim.run(sim.start + 2 * W * 1000);
    for (const p of sim.processes.slice(1)) p.running = true;
    await sim.run(sim.start + 2 * W * 1000 + 30_000);
    const late = sim.processes.map((p) => between(p, 4 * W, 4 * W + 18));
    expect(jain(late)).toBeGreaterThanOrEqual(0.9);
  });

  it('a cold start (some processes reach the server 120–360 ms late for their first 600 ms): they lose part of the full bucket, not their share of the refill', async () => {
    // What the real-HTTP bench's cold-start row shows on 2 cores: three or four processes' first requests queue
    // behind connection set-up while the others drain the full bucket. The stated limit (README): nothing
    // can give the late ones their part of a bucket drained before their requests arrived. What holds: from
    // the second second on the split is fair, and the drain costs no 429s and no budget.
    for (const seed of [1, 2, 3, 4]) {
      const late = new Set([0, 1, 2, 3, 4, 5].filter((i) => (i * 7 + seed * 3) % 6 < 3 + (seed % 2)));
      const sim = simulate({
        processes: 6,
        seed,
        jitter: 1,
        latencyMs: (random, i, elapsed) =>
          late.has(i) && elapsed < 600 ? 60 + random() * 120 : 1 + random() * 12,
      });
      await sim.run(sim.start + 30_000);
      expect(jain(sim.processes.map((p) => between(p, 2, 30)))).toBeGreaterThanOrEqual(0.95);
      expect(limitedOf(sim) / (okOf(sim) + limitedOf(sim))).toBeLessThanOrEqual(0.01);
      expect(okOf(sim) / (Q + 30 * RATE)).toBeGreaterThanOrEqual(0.97);
    }
  });

  it('one of 3 stops at mid-run: the others take the whole rate back within 2 windows', async () => {
    const sim = simulate({ processes: 3, seed: 5, jitter: 1, latencyMs: 5 });
    await sim.run(sim.start + 15_000);
    sim.processes[0]?.stop();
    await sim.run(sim.start + 15_000 + 2 * W * 1000 + 6000);
    const others = sim.processes.slice(1);
    const after = rateOf(sim, 15 + 2 * W, 15 + 2 * W + 6, others);
    expect(after).toBeGreaterThanOrEqual(0.95 * RATE);
  });

  it('two clients of one organization in one process: the second reclaims the budget when the first stops', async () => {
    const sim = simulate({ processes: 2, seed: 8, latencyMs: 1 });
    await sim.run(sim.start + 10_000);
    sim.processes[0]?.stop();
    await sim.run(sim.start + 10_000 + 2 * W * 1000 + 5000);
    expect(rateOf(sim, 10 + 2 * W, 10 + 2 * W + 5, sim.processes.slice(1))).toBeGreaterThanOrEqual(
      0.95 * RATE,
    );
  });

  for (const [label, q] of [
    ['halved', Q / 2],
    ['doubled', Q * 2],
  ] as const) {
    it(`policy ${label} mid-run, 3 processes: ≥ 97% of the new maximum, ≤ 1% 429s`, async () => {
      const sim = simulate({ processes: 3, seed: 4, jitter: 1, latencyMs: 5 });
      await sim.run(sim.start + 15_000);
      const before = { ok: okOf(sim), limited: limitedOf(sim) };
      sim.api.setPolicy('default', { q, w: W });
      await sim.run(sim.start + 45_000);
      const ok = okOf(sim) - before.ok;
      const limited = limitedOf(sim) - before.limited;
      // The new maximum: its refill over 30 s (the bucket's balance at the change is what it was).
      expect(ok).toBeGreaterThanOrEqual(0.97 * 30 * (q / W));
      expect(limited / (ok + limited)).toBeLessThanOrEqual(0.01);
      expect(jain(sim.processes.map((p) => between(p, 15 + 2 * W, 45)))).toBeGreaterThanOrEqual(0.9);
    });
  }
});
