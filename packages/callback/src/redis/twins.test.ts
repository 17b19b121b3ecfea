import { systemClock } from '@partner-print/openapi/wire';
import fc from 'fast-check';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../../test-utils/redis-server.ts';
import { stallFreeStopwatch, withinStallFree } from '../../../../test-utils/stall.ts';
import { createCoalescer } from '../coalesce.ts';
import { RedisCoalescer } from './coalescer.ts';

// The in-process coalescer and the Redis one, driven with the same random storms: every call gets the
// same answer (its round's outcome), from a round that started after it arrived, within the window and
// a fetch or two (a round may be running when it arrives), whichever receiver it reached. A real
// redis-server on 127.0.0.1; without it this test fails, never skips.
let server: RedisServer;
const clients: ReturnType<typeof createClient>[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  for (let i = 0; i < 4; i++) {
    const c = createClient({ url: server.url });
    c.on('error', () => {});
    await c.connect();
    clients.push(c);
  }
}, 20_000);
afterAll(async () => {
  for (const c of clients) await c.quit();
  await server?.stop();
});

const WINDOW_MS = 250;
/**
 * Scheduling, polls (every 50 ms) and Redis round trips on a loaded machine: far below a lease (30 s). The
 * waits are timed without the process's stalls (test-utils/stall.ts): a stall of the test's process, in
 * which both twins and their Redis commands wait, once made a wait of 1.8 s.
 */
const SLACK_MS = 600;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Call {
  atMs: number;
  receiver: number;
  order: number;
}

interface Storm {
  calls: Call[];
  fetchMs: number;
  /** The order whose rounds fail (the service is answered 500 and retries). */
  failing: number;
}

const storm: fc.Arbitrary<Storm> = fc.record({
  calls: fc.array(
    fc.record({ atMs: fc.integer({ min: 0, max: 700 }), receiver: fc.nat(3), order: fc.nat(2) }),
    { minLength: 1, maxLength: 40 },
  ),
  fetchMs: fc.integer({ min: 0, max: 80 }),
  failing: fc.nat(3), // 3: none fails
});

interface Answer {
  outcome: 'done' | 'failed';
  /** ms from the call's arrival to its answer, without the process's stalls. */
  waitedMs: number;
  /** Whether a round of its order started at or after it arrived and before its answer. */
  covered: boolean;
}

type Run = (key: string, round: () => Promise<void>) => Promise<unknown>;

/**
 * Plays the storm against `run` (one per receiver); returns each call's answer in call order, its wait on
 * `watch`.
 */
async function play(
  s: Storm,
  runs: readonly Run[],
  watch: ReturnType<typeof stallFreeStopwatch>,
): Promise<Answer[]> {
  const starts: { key: string; at: number }[] = [];
  const calls = [...s.calls].sort((a, b) => a.atMs - b.atMs);
  return Promise.all(
    calls.map(async (call) => {
      await sleep(call.atMs);
      const key = `Order_${call.order}`;
      const arrived = Date.now();
      const since = watch.elapsed();
      const round = async () => {
        starts.push({ key, at: Date.now() });
        await sleep(s.fetchMs);
        if (call.order === s.failing) throw new Error('upstream failed');
      };
      const run = runs[call.receiver % runs.length] as Run;
      const outcome = await run(key, round).then(
        (o) => {
          if (o === 'unavailable') throw new Error('Redis counted as unavailable');
          return 'done' as const;
        },
        (error: unknown) => {
          if (String(error).includes('unavailable')) throw error;
          return 'failed' as const;
        },
      );
      const answered = Date.now();
      const covered = starts.some((r) => r.key === key && r.at >= arrived && r.at <= answered);
      return { outcome, waitedMs: watch.elapsed() - since, covered };
    }),
  );
}

describe('the in-process and the Redis coalescer answer alike', { timeout: 600_000 }, () => {
  it('the same answers, each from a round after its arrival, within the window and a fetch or two', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(storm, async (s) => {
        run += 1;
        const local = createCoalescer<() => Promise<void>>((round) => round(), {
          windowMs: WINDOW_MS,
          clock: systemClock,
        });
        const timing = { windowMs: WINDOW_MS, clock: systemClock };
        const fleet = clients.map(
          (client) => new RedisCoalescer({ client, prefix: `twins${run}`, commandTimeoutMs: 10_000 }),
        );
        // Both twins play the storm at the same time: each call's answer is measured from its own arrival,
        // and the plays share nothing, so one after the other only doubled the wait (about 0.8 s a run).
        const watch = stallFreeStopwatch();
        const [inProcess, shared] = await Promise.all([
          play(s, [(key, round) => local.run(key, round)], watch),
          play(
            s,
            fleet.map((c) => (key: string, round: () => Promise<void>) => c.run(key, round, timing)),
            watch,
          ),
        ]).finally(() => watch.stop());
        const bound = WINDOW_MS + 2 * s.fetchMs + SLACK_MS;
        for (const answers of [inProcess, shared]) {
          for (const a of answers) {
            expect(a.covered).toBe(true);
            expect(a.waitedMs).toBeLessThanOrEqual(bound);
          }
        }
        expect(shared.map((a) => a.outcome)).toEqual(inProcess.map((a) => a.outcome));
      }),
      { numRuns: Number(process.env.TWINS_RUNS ?? 10) },
    );
  });
});

// An order's counters that vanish while calls wait (a `ttlMs` shorter than a poll, or Redis evicting keys with
// an expiry under memory pressure) must not leave them waiting for a round that can never cover their number:
// the in-process coalescer answers such a pair of calls after a round or two, and so must the fleet, not fetch
// the order again and again.
describe('the Redis coalescer answers alike when its counters expire under waiting calls', () => {
  it('answers every call after a round or two', async () => {
    const [a, b] = clients.map(
      (client) =>
        new RedisCoalescer({ client, prefix: 'twins-expired', ttlMs: 20, commandTimeoutMs: 10_000 }),
    );
    const timing = { windowMs: 0, clock: systemClock };
    let rounds = 0;
    const round = async () => {
      rounds++;
      await sleep(5);
    };
    const local = createCoalescer<() => Promise<void>>((r) => r(), timing);
    await Promise.all([local.run('Order_1', round), local.run('Order_1', round)]);
    const inProcess = rounds;
    rounds = 0;
    const answers = Promise.all([a?.run('Order_1', round, timing), b?.run('Order_1', round, timing)]);
    // Bounded in time this process could run (a stall does not count), and the bound's timer ends with it.
    const answered = await withinStallFree(answers, 3_000);
    expect(answered).toEqual(['done', 'done']);
    expect(rounds).toBeLessThanOrEqual(inProcess + 1);
  });

  it('answers a call that arrives after a round whose counters expired by a round of its own', async () => {
    const [a, b] = clients.map(
      (client) =>
        new RedisCoalescer({ client, prefix: 'twins-expired-late', ttlMs: 20, commandTimeoutMs: 10_000 }),
    );
    const timing = { windowMs: 0, clock: systemClock };
    const starts: number[] = [];
    const round = async () => {
      starts.push(Date.now());
      await sleep(80); // the counters expire while it runs
    };
    expect(await a?.run('Order_1', round, timing)).toBe('done');
    const arrived = Date.now();
    expect(await b?.run('Order_1', round, timing)).toBe('done');
    // As in one process: the second call is answered by a round that started after it arrived.
    expect(starts.some((at) => at >= arrived)).toBe(true);
  });
});
