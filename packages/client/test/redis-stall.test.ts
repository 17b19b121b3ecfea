import { systemClock } from '@partner-print/openapi/wire';
import { createClient as createRedis } from 'redis';
import { describe, expect, it } from 'vitest';
import { redisForFile } from '../../../test-utils/redis-file.ts';
import { busy, STALL_PLACES, stallFreeStopwatch } from '../../../test-utils/stall.ts';
import {
  type OrderClaimEvent,
  type RedisAvailabilityEvent,
  RedisOrderClaims,
  ScriptRunner,
} from '../src/redis.ts';

// A busy process is not a Redis outage. Reproduces what every Redis deadline of the SDK did before: with
// Redis healthy, a synchronous task of 400 ms right after a command was sent made a 200 ms deadline fire
// before the reply was read — redis-unavailable, in-process leases (a render paid per worker), a claim
// refused — in each place of the event loop the stall can start from. A real redis-server on 127.0.0.1.
const redisFile = redisForFile(createRedis);

const runner = (events: RedisAvailabilityEvent[]) =>
  new ScriptRunner(redisFile.client, {
    clock: systemClock,
    commandTimeoutMs: 200,
    retryMs: 5_000,
    onEvent: (event) => events.push(event),
  });

describe('Redis deadlines and a busy process', () => {
  for (const [place, run] of Object.entries(STALL_PLACES)) {
    it(`ScriptRunner (render store, callback coalescer): a 400 ms stall ${place} is not an outage`, async () => {
      const events: RedisAvailabilityEvent[] = [];
      const r = runner(events);
      expect(await r.run('return 1', ['k'], [])).toBe(1);
      let replies: unknown[] = [];
      await run(async () => {
        const sent = [r.run('return 2', ['k'], []), r.run('return 3', ['k'], [])];
        busy(400);
        replies = await Promise.all(sent);
      });
      expect(replies).toEqual([2, 3]);
      expect(events).toEqual([]);
      expect(r.available).toBe(true);
    });

    it(`RedisOrderClaims: a 400 ms stall ${place} refuses no claim`, async () => {
      const events: OrderClaimEvent[] = [];
      const claims = new RedisOrderClaims({
        client: redisFile.client,
        prefix: `stall-${place}-${Date.now()}`,
        commandTimeoutMs: 200,
        onUnavailable: 'error',
        on: (event) => events.push(event),
      });
      let taken: boolean[] = [];
      await run(async () => {
        const acquiring = [claims.acquire('shop-1'), claims.acquire('shop-2')];
        busy(400);
        taken = (await Promise.all(acquiring)).map((claim) => claim.recorded === undefined);
        for (const claim of await Promise.all(acquiring))
          await claim.release({ created: undefined, unsettled: false });
      });
      expect(taken).toEqual([true, true]);
      expect(events).toEqual([]);
    });
  }

  it('a Redis that really stops answering is still judged, stall or not: within 2 × the deadline after it', async () => {
    const events: RedisAvailabilityEvent[] = [];
    const r = runner(events);
    expect(await r.run('return 1', ['k'], [])).toBe(1);
    // Redis answers nothing until both calls are judged: a pause of 2 s on this process's timer could end,
    // for a process starved for a second or two, before a deadline's window did (Redis's reply won) or before
    // the claims were asked for at all.
    const resume = redisFile.server.hold();
    try {
      const started = performance.now();
      // The upper bound without the process's stalls (test-utils/stall.ts): the test's own busy 400 ms is
      // CPU and counts, a machine that does not run the process for a second does not.
      const watch = stallFreeStopwatch();
      const sent = r.run('return 2', ['k'], []);
      busy(400);
      try {
        await expect(sent).rejects.toThrow('Redis did not answer within 200 ms');
      } finally {
        watch.stop();
      }
      expect(performance.now() - started).toBeGreaterThanOrEqual(400 + 200);
      expect(watch.elapsed()).toBeLessThan(400 + 2 * 200 + 300);
      expect(events.map((e) => e.type)).toEqual(['redis-unavailable']);
      // Without a stall: one window, or two if this machine's timers run late (a loaded CI), never more.
      const claims = new RedisOrderClaims({
        client: redisFile.client,
        commandTimeoutMs: 200,
        onUnavailable: 'error',
      });
      const judged = stallFreeStopwatch();
      try {
        await expect(claims.acquire('shop-3')).rejects.toThrow('Redis is unavailable');
      } finally {
        judged.stop();
      }
      expect(judged.elapsed()).toBeLessThan(2 * 200 + 200);
    } finally {
      resume();
    }
  });
});

describe('Redis options in milliseconds', () => {
  it('refuses a NaN, negative or zero deadline with a ConfigurationError naming the option', () => {
    const client = { evalSha: async () => 1, eval: async () => 1, scriptLoad: async () => 'sha' };
    const base = { clock: systemClock, commandTimeoutMs: 1_000, retryMs: 5_000, onEvent: undefined };
    for (const [name, value] of [
      ['commandTimeoutMs', Number.NaN],
      ['commandTimeoutMs', 0],
      ['retryMs', -1],
    ] as const)
      expect(() => new ScriptRunner(client, { ...base, [name]: value })).toThrow(
        expect.objectContaining({
          name: 'ConfigurationError',
          code: 'invalid_option',
          message: expect.stringContaining(name),
        }),
      );
    const evalClient = { eval: async () => [1, 0, '', 0, ''] };
    expect(() => new RedisOrderClaims({ client: evalClient, commandTimeoutMs: Number.NaN })).toThrow(
      'commandTimeoutMs must be a whole number of milliseconds ≥ 1, got NaN',
    );
    expect(() => new RedisOrderClaims({ client: evalClient, ttlMs: -5 })).toThrow('ttlMs');
    // Given as undefined: the default.
    expect(() => new RedisOrderClaims({ client: evalClient, commandTimeoutMs: undefined })).not.toThrow();
  });
});
