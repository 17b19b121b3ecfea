/**
 * The bench's rows without a store, simulated on a virtual clock (bench/sim.ts: processes as schedulers in
 * one process, Retry-After jitter up to 1 s, seeded): the algorithm's figures, free of the machine's load.
 * Each row runs three times, with 5, 10 and 20 ms each way; the table shows the worst and best of them.
 */
import { between, jain, simulate } from './sim.ts';

const Q = 120;
const W = 6;
const RATE = Q / W;
const SECONDS = 18;
const SEEDS = [1, 2, 3];
const latencyOf = (seed: number): number => [5, 10, 20][seed - 1] ?? 5;

interface Figures {
  utilization?: number;
  limitedShare: number;
  j?: number;
  rateAfter?: number;
  ofNewMax?: number;
}

/** Utilization, 429 share and J of a run of SECONDS from the shared start. */
async function steadyFigures(sim: ReturnType<typeof simulate>): Promise<Figures> {
  await sim.run(sim.start + SECONDS * 1000);
  const ok = sim.processes.map((p) => p.ok);
  const limited = sim.processes.reduce((a, p) => a + p.limited, 0);
  const total = ok.reduce((a, b) => a + b, 0);
  return {
    utilization: total / (Q + SECONDS * RATE),
    limitedShare: limited / (total + limited),
    j: jain(ok),
  };
}

async function steady(processes: number, seed: number): Promise<Figures> {
  const sim = simulate({ processes, seed, latencyMs: latencyOf(seed), jitter: 1 });
  return steadyFigures(sim);
}

/**
 * A fleet started at once: some processes' first round trips are long (their connections still being
 * opened), 1 to 3 of the 6 (by seed) with 120–360 ms for the first 600 ms, the others the seed's latency.
 */
async function coldStart(seed: number): Promise<Figures> {
  const late = (i: number): boolean => i < seed;
  const sim = simulate({
    processes: 6,
    seed,
    jitter: 1,
    latencyMs: (random, i, elapsed) =>
      late(i) && elapsed < 600 ? 60 + random() * 120 : latencyOf(seed) * (0.5 + random()),
  });
  return steadyFigures(sim);
}

async function stop(seed: number): Promise<Figures> {
  const sim = simulate({ processes: 3, seed, latencyMs: latencyOf(seed), jitter: 1 });
  await sim.run(sim.start + 6000);
  sim.processes[0]?.stop();
  const from = 6 + 2 * W;
  await sim.run(sim.start + (from + 6) * 1000);
  const rest = sim.processes.slice(1).reduce((a, p) => a + between(p, from, from + 6), 0) / 6;
  const limited = sim.processes.reduce((a, p) => a + p.limited, 0);
  const total = sim.processes.reduce((a, p) => a + p.ok, 0);
  return { rateAfter: rest / RATE, limitedShare: limited / (total + limited) };
}

async function policy(q: number, seed: number): Promise<Figures> {
  const sim = simulate({ processes: 3, seed, latencyMs: latencyOf(seed), jitter: 1 });
  const at = 6;
  await sim.run(sim.start + at * 1000);
  sim.api.setPolicy('default', { q, w: W });
  await sim.run(sim.start + SECONDS * 1000);
  const after = sim.processes.reduce((a, p) => a + between(p, at, SECONDS), 0);
  const limited = sim.processes.reduce((a, p) => a + p.limited, 0);
  const total = sim.processes.reduce((a, p) => a + p.ok, 0);
  return {
    ofNewMax: after / (((SECONDS - at) * q) / W),
    limitedShare: limited / (total + limited),
    j: jain(sim.processes.map((p) => p.ok)),
  };
}

const pct = (x: number | undefined) => (x === undefined ? '' : `${(x * 100).toFixed(1)}%`);
const range = (xs: (number | undefined)[], f: (x: number | undefined) => string) => {
  const v = xs.filter((x): x is number => x !== undefined).sort((a, b) => a - b);
  return v.length === 0 ? '' : `${f(v[0])} – ${f(v[v.length - 1])}`;
};

export async function simulatedRows(): Promise<Record<string, string>[]> {
  const rows: [string, (seed: number) => Promise<Figures>][] = [
    ['1 process', (s) => steady(1, s)],
    ['2 processes, no store', (s) => steady(2, s)],
    ['3 processes, no store', (s) => steady(3, s)],
    ['6 processes, no store', (s) => steady(6, s)],
    ['6 processes, no store, cold start (1–3 first round trips 120–360 ms)', coldStart],
    ['one of 3 stops at 6 s (rate of the others from 2 windows later)', stop],
    ['policy halved at 6 s, 3 processes', (s) => policy(Q / 2, s)],
    ['policy doubled at 6 s, 3 processes', (s) => policy(Q * 2, s)],
  ];
  const out: Record<string, string>[] = [];
  for (const [name, run] of rows) {
    const figures: Figures[] = [];
    for (const seed of SEEDS) figures.push(await run(seed));
    out.push({
      'simulated scenario': name,
      utilization: range(
        figures.map((f) => f.utilization ?? f.rateAfter ?? f.ofNewMax),
        pct,
      ),
      '429 share': range(
        figures.map((f) => f.limitedShare),
        pct,
      ),
      J: range(
        figures.map((f) => f.j),
        (x) => (x ?? 0).toFixed(3),
      ),
    });
  }
  return out;
}
