/**
 * A discrete-event simulation of several processes of one organization sharing a token-bucket server,
 * on a virtual clock: every sleep waits for its virtual time; time jumps to the earliest sleeper only once
 * nothing else can run. Deterministic (seeded randomness), and 60 simulated seconds take well under one.
 */

import type { Clock } from '@partner-print/openapi/wire';
import { createScheduler, type Scheduler, type SchedulerOptions } from '../src/index.ts';
import { createTokenBucketApi, type Policy, type TokenBucketApi } from './token-bucket-api.ts';

export interface SimClock extends Clock {
  /** Runs everything due until `until` (virtual ms), then sets the clock there. */
  runUntil(until: number): Promise<void>;
  pending(): number;
}

export function simClock(start = 1_800_000_000_000): SimClock {
  let now = start;
  let order = 0;
  const sleepers: { at: number; order: number; resolve: () => void }[] = [];
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  };
  return {
    now: () => now,
    pending: () => sleepers.length,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const sleeper = { at: now + Math.max(0, ms), order: order++, resolve };
        sleepers.push(sleeper);
        signal?.addEventListener(
          'abort',
          () => {
            const i = sleepers.indexOf(sleeper);
            if (i !== -1) sleepers.splice(i, 1);
            reject(signal.reason);
          },
          { once: true },
        );
      });
    },
    async runUntil(until) {
      for (;;) {
        await settle();
        let next: (typeof sleepers)[number] | undefined;
        for (const s of sleepers)
          if (!next || s.at < next.at || (s.at === next.at && s.order < next.order)) next = s;
        if (!next || next.at > until) break;
        sleepers.splice(sleepers.indexOf(next), 1);
        now = Math.max(now, next.at);
        next.resolve();
      }
      now = Math.max(now, until);
      await settle();
    },
  };
}

/** Mulberry32: a small seeded generator, so a simulated run is the same every time. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SimProcess {
  scheduler: Scheduler;
  ok: number;
  limited: number;
  /** Successes per second of virtual time, by second since the start. */
  perSecond: number[];
  /** Virtual ms since the start of each 429. */
  limitedAt: number[];
  running: boolean;
  /** Callers still looping. */
  active: number;
  stop(): void;
}

export interface SimOptions {
  processes: number;
  policy?: Policy;
  callers?: number;
  /** One-way latency (ms) between a process and the server; a function draws it per request and way. */
  latencyMs?: number | ((random: () => number, process: number, elapsedMs: number) => number);
  /** Max whole seconds added to Retry-After by the server. */
  jitter?: number;
  seed?: number;
  route?: string;
  scheduler?: Omit<SchedulerOptions, 'fetch' | 'clock'>;
  api?: TokenBucketApi;
}

export interface Sim {
  clock: SimClock;
  api: TokenBucketApi;
  processes: SimProcess[];
  start: number;
  /** Runs until `until` (virtual ms); first starts the callers of every running process that has none. */
  run(until: number): Promise<void>;
}

/** N processes, each with its own scheduler (its own memory store unless a store is given), 8 callers each. */
export function simulate(options: SimOptions): Sim {
  const clock = simClock();
  const random = seeded(options.seed ?? 1);
  const api =
    options.api ??
    createTokenBucketApi({
      policies: { default: options.policy ?? { q: 120, w: 6 } },
      now: clock.now,
      jitter: options.jitter ?? 0,
      random,
    });
  const start = clock.now();
  const latencyOption = options.latencyMs ?? 2;
  const latency = (i: number): number =>
    typeof latencyOption === 'number' ? latencyOption : latencyOption(random, i, clock.now() - start);
  const processes: SimProcess[] = [];
  for (let i = 0; i < options.processes; i++) {
    const counts = { ok: 0, limited: 0, perSecond: [] as number[], limitedAt: [] as number[] };
    const fetch = async (request: Request): Promise<Response> => {
      await clock.sleep(latency(i));
      const response = api.handle(request);
      await clock.sleep(latency(i));
      if (response.status === 200) {
        counts.ok++;
        const second = Math.floor((clock.now() - start) / 1000);
        counts.perSecond[second] = (counts.perSecond[second] ?? 0) + 1;
      } else if (response.status === 429) {
        counts.limited++;
        counts.limitedAt.push(clock.now() - start);
      }
      return response;
    };
    const scheduler = createScheduler({
      key: 'organization',
      concurrency: options.callers ?? 8,
      random,
      ...options.scheduler,
      fetch,
      clock,
    });
    const p: SimProcess = {
      scheduler,
      get ok() {
        return counts.ok;
      },
      get limited() {
        return counts.limited;
      },
      perSecond: counts.perSecond,
      limitedAt: counts.limitedAt,
      running: true,
      active: 0,
      stop() {
        p.running = false;
      },
    };
    processes.push(p);
  }
  const route = options.route ?? 'https://api.example/v2/orders';
  const caller = async (p: SimProcess): Promise<void> => {
    p.active++;
    while (p.running) {
      const response = await p.scheduler.fetch(route, { headers: { 'x-service-secret-key': 'sk_sim' } });
      await response.arrayBuffer();
    }
    p.active--;
  };
  return {
    clock,
    api,
    processes,
    start,
    async run(until) {
      for (const p of processes) {
        if (!p.running || p.active > 0) continue;
        for (let c = 0; c < (options.callers ?? 8); c++) void caller(p);
      }
      await clock.runUntil(until);
    },
  };
}

/** Jain's fairness index over per-process counts: 1 when equal, 1/n when one process gets all. */
export function jain(counts: readonly number[]): number {
  const sum = counts.reduce((a, b) => a + b, 0);
  const squares = counts.reduce((a, b) => a + b * b, 0);
  return squares === 0 ? 1 : (sum * sum) / (counts.length * squares);
}

/** Successes of a process within [from, to) seconds of the run. */
export function between(p: SimProcess, from: number, to: number): number {
  let n = 0;
  for (let s = from; s < to; s++) n += p.perSecond[s] ?? 0;
  return n;
}
