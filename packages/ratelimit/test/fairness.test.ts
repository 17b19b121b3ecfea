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

  // What the real-HTTP bench's cold-start row shows on 2 cores: started at once without warm-up, some
  // processes' first requests reach the server hundreds of ms after the others', which used to drain the full
  // bucket before them (J 0.72–0.98 over these runs before the start pace, with up to 1.7 % 429s). Late: 1 to 5
  // of the 6 processes, for their first 600 ms (120–360 ms round trips) or 500 ms (300–400 ms, as traced).
  for (const [label, lateMs, base, spread] of [
    ['120–360 ms', 600, 60, 120],
    ['300–400 ms', 500, 150, 50],
  ] as const) {
    it(`a cold start, some processes' first round trips ${label}: J ≥ 0.95 over the whole run, ≥ 97 %, ≤ 1 % 429s`, async () => {
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const late = new Set([0, 1, 2, 3, 4, 5].filter((i) => (i * 7 + seed * 3) % 6 < 1 + (seed % 5)));
        const sim = simulate({
          processes: 6,
          seed,
          jitter: 1,
          latencyMs: (random, i, elapsed) =>
            late.has(i) && elapsed < lateMs ? base + random() * spread : 1 + random() * 12,
        });
        await sim.run(sim.start + 18_000);
        expect(jain(sim.processes.map((p) => p.ok))).toBeGreaterThanOrEqual(0.95);
        expect(limitedOf(sim) / (okOf(sim) + limitedOf(sim))).toBeLessThanOrEqual(0.01);
        expect(okOf(sim) / (Q + 18 * RATE)).toBeGreaterThanOrEqual(0.97);
      }
    });
  }

  it('a process alone spends a fresh bucket along the start pace, and the whole budget', async () => {
    // The price of the pace: a full bucket found at the start goes over one window (at most 6 s) instead of
    // at once, the refill from the first moment. Nothing is wasted.
    const sim = simulate({ processes: 1, latencyMs: 1 });
    await sim.run(sim.start + 1000);
    const first = sim.processes[0]?.ok ?? 0;
    expect(first).toBeGreaterThanOrEqual(RATE);
    expect(first).toBeLessThan(Q / 2);
    await sim.run(sim.start + W * 1000);
    expect(okOf(sim)).toBeGreaterThanOrEqual(Q + (W - 1) * RATE);
    await sim.run(sim.start + 30_000);
    expect(okOf(sim) / (Q + 30 * RATE)).toBeGreaterThanOrEqual(0.99);
    expect(limitedOf(sim)).toBe(0);
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
