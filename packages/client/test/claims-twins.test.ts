import { createSandbox } from '@partner-print/sandbox';
import fc from 'fast-check';
import { createClient as createRedis } from 'redis';
import { describe, expect, it } from 'vitest';
import { redisForFile } from '../../../test-utils/redis-file.ts';
import { memoryOrderClaims, type OrderClaims } from '../src/orders/claims.ts';
import { RELEASE, RENEW } from '../src/redis/scripts.ts';
import { RedisOrderClaims } from '../src/redis.ts';

// The in-process claim store and the Redis one, driven one holder at a time with the same random
// sequences: every acquisition sees the same recorded order (reference and content) and the same
// "unsettled", whatever earlier holders posted and released, before and after rememberMs. A real
// redis-server on 127.0.0.1; without it this test fails, never skips.
const redisFile = redisForFile(createRedis);

const REMEMBER_MS = 300;
const LONG_MARGIN_MS = 25;

interface Step {
  id: number;
  post: boolean;
  outcome: 'created' | 'unsettled' | 'failed';
  content: boolean;
  /**
   * Well within rememberMs, or past it. Timing noise only lengthens a pause, so the short one keeps a wide
   * margin below the boundary (a loaded machine may stretch the steps between two acquisitions) and the long
   * one a small margin above it (enough for the millisecond granularity of both stores' clocks).
   */
  pause: 'none' | 'short' | 'long';
}

const step: fc.Arbitrary<Step> = fc.record({
  id: fc.nat(1),
  post: fc.boolean(),
  outcome: fc.constantFrom('created', 'unsettled', 'failed'),
  content: fc.boolean(),
  pause: fc.constantFrom('none', 'none', 'none', 'short', 'short', 'long'),
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function holder(claims: OrderClaims, s: Step, n: number) {
  const claim = await claims.acquire(`id-${s.id}`);
  const seen = { recorded: claim.recorded, unsettled: claim.unsettled };
  const posted = s.post ? await claim.beforePost() : undefined;
  const reference = `Order_TWINS${String(n).padStart(24, '0')}`;
  await claim.release(
    s.outcome === 'created'
      ? { created: { reference, ...(s.content ? { content: `c${n}` } : {}) } }
      : { unsettled: s.outcome === 'unsettled' },
  );
  return { ...seen, posted };
}

/** A span of wall time, in ms. */
interface Span {
  from: number;
  to: number;
}

/** `work()`'s result and the span of wall time it ran in. */
async function timed<T>(work: () => Promise<T>): Promise<[T, Span]> {
  const from = performance.now();
  const result = await work();
  return [result, { from, to: performance.now() }];
}

/** Whether the time from a release (in `released`) to an acquisition (in `acquired`) is surely below or above. */
const side = (released: Span, acquired: Span): 'below' | 'above' | 'unknown' => {
  const least = acquired.from - released.to;
  const most = acquired.to - released.from;
  // 5 ms either side of rememberMs for the stores' millisecond clocks.
  if (most < REMEMBER_MS - 5) return 'below';
  if (least > REMEMBER_MS + 5) return 'above';
  return 'unknown';
};

/** Both twins surely saw a release on the same side of rememberMs at their acquisitions. */
const sameSide = (
  memoryRelease: Span,
  memoryAcquire: Span,
  redisRelease: Span,
  redisAcquire: Span,
): boolean => {
  const a = side(memoryRelease, memoryAcquire);
  return a !== 'unknown' && a === side(redisRelease, redisAcquire);
};

describe('memoryOrderClaims and RedisOrderClaims agree', { timeout: 600_000 }, () => {
  it('the same recorded order and the same unsettled flag at every acquisition', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        run += 1;
        const memory = memoryOrderClaims({ rememberMs: REMEMBER_MS });
        const shared = new RedisOrderClaims({
          client: redisFile.client,
          prefix: `twins${run}`,
          rememberMs: REMEMBER_MS,
        });
        // When each twin's holder ran, per identifier: its acquisition and release fall within that span (the
        // in-process store reads its clock there; Redis runs the command between its sending and its reply).
        const spans = new Map<number, Array<{ memory: Span; redis: Span }>>();
        for (const [n, s] of steps.entries()) {
          const [m, memorySpan] = await timed(() => holder(memory, s, n));
          const [r, redisSpan] = await timed(() => holder(shared, s, n));
          // A step is judged only when both twins saw every earlier release of its identifier on the same side
          // of rememberMs: a stall between the two halves of a step (a starved machine) can put one past it and
          // not the other, and such a run is discarded, not counted as a disagreement.
          const earlier = spans.get(s.id) ?? [];
          fc.pre(earlier.every((k) => sameSide(k.memory, memorySpan, k.redis, redisSpan)));
          expect({ step: n, ...r }).toEqual({ step: n, ...m });
          spans.set(s.id, [...earlier, { memory: memorySpan, redis: redisSpan }]);
          if (s.pause !== 'none') await sleep(s.pause === 'short' ? 20 : REMEMBER_MS + LONG_MARGIN_MS);
        }
      }),
      { numRuns: Number(process.env.TWINS_RUNS ?? 25) },
    );
  });
});

// A claim held for a while (a POST that timed out, then its settle window, then another attempt) must not
// lose in Redis what the in-process store keeps: the claim itself while its holder renews it, and the
// "unsettled" mark for rememberMs from the release that set it, however long the claim was held before.
//
// Both twins run on a clock the test drives (the heartbeat waits on the claims' clock, the in-process store
// reads its `now`), with the default 30 s ttl: a claim no stall of a loaded machine reaches (a 600 ms one,
// renewed every 200 ms of real time, was lost to a stall under load). Redis's own expiry runs on real time,
// so the end of a long hold is forced instead of waited for: the script call under test first leaves the
// claim's key 300 ms to live, as at the end of its first life, and the test waits past that. A store that
// did not extend the key there loses it under the holder, or forgets the unsettled mark.
describe('memoryOrderClaims and RedisOrderClaims agree on claims held long', { timeout: 30_000 }, () => {
  const HELD_REMEMBER_MS = 60_000;
  const LEFT_MS = 300;

  /**
   * Redis as the claims see it, where the next call of `script` first leaves the claim's key LEFT_MS to live
   * (in the same script, so nothing runs between them) and, with `postedAgoMs`, dates the holder's last POST
   * that long ago on Redis's clock; `forced` resolves when that call has answered.
   */
  const nearItsEnd = (script: string, postedAgoMs?: number) => {
    let answered: () => void = () => {};
    const forced = new Promise<void>((resolve) => {
      answered = resolve;
    });
    let armed = true;
    const prefix = [
      `redis.call('PEXPIRE', KEYS[1], ${LEFT_MS})`,
      ...(postedAgoMs === undefined
        ? []
        : [
            "local at = redis.call('TIME')",
            `redis.call('HSET', KEYS[1], 'posted', tonumber(at[1]) * 1000 - ${postedAgoMs})`,
          ]),
    ].join('\n');
    const client = {
      eval: (called: string, options: { keys: string[]; arguments: string[] }) => {
        if (!armed || called !== script) return redisFile.client.eval(called, options);
        armed = false;
        return redisFile.client.eval(`${prefix}\n${called}`, options).finally(answered);
      },
    };
    return { client, forced };
  };

  it('a holder that renews its claim past rememberMs may still post', async () => {
    const { clock } = createSandbox();
    const redis = nearItsEnd(RENEW);
    const memory = memoryOrderClaims({ rememberMs: HELD_REMEMBER_MS, now: clock.now });
    const shared = new RedisOrderClaims({
      client: redis.client,
      prefix: `twins-held-${Date.now()}`,
      rememberMs: HELD_REMEMBER_MS,
      clock,
    });
    const answers: boolean[][] = [];
    for (const claims of [memory, shared]) {
      const claim = await claims.acquire('held');
      const first = await claim.beforePost();
      // Past rememberMs; the Redis claim is renewed at every 10 s (ttlMs / 3), the first renewal forced to
      // find the key near its end.
      await clock.sleep(HELD_REMEMBER_MS + 10_000);
      if (claims === shared) {
        await redis.forced;
        await sleep(2 * LEFT_MS); // past the key's end unless the renewal extended it
      }
      const again = await claim.beforePost();
      await claim.release({ unsettled: true });
      answers.push([first, again]);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]).toEqual([true, true]);
  });

  it('an unsettled release after a long hold is remembered rememberMs from the release', async () => {
    const { clock } = createSandbox();
    // The release finds the key near its end and the POST sent longer than rememberMs ago.
    const redis = nearItsEnd(RELEASE, 2 * HELD_REMEMBER_MS);
    const memory = memoryOrderClaims({ rememberMs: HELD_REMEMBER_MS, now: clock.now });
    const shared = new RedisOrderClaims({
      client: redis.client,
      prefix: `twins-unsettled-${Date.now()}`,
      rememberMs: HELD_REMEMBER_MS,
      clock,
    });
    const seen: boolean[] = [];
    for (const claims of [memory, shared]) {
      const claim = await claims.acquire('late');
      await claim.beforePost();
      await clock.sleep(2 * HELD_REMEMBER_MS);
      await claim.release({ unsettled: true });
      if (claims === shared) await sleep(2 * LEFT_MS); // past the key's end unless the release extended it
      // Well within rememberMs of the release.
      await clock.sleep(HELD_REMEMBER_MS / 2);
      const next = await claims.acquire('late');
      await next.release({});
      seen.push(next.unsettled);
    }
    expect(seen).toEqual([true, true]);
  });
});

// The options both twins take are checked alike: a value one refuses, the other refuses with the same error
// (class, code and message); a value one takes, the other takes. A rememberMs of NaN (an unset environment
// variable read with Number) once made the in-process store remember nothing, silently.
describe('memoryOrderClaims and RedisOrderClaims check their shared options alike', () => {
  const outcome = (make: () => unknown) => {
    try {
      make();
      return 'accepted';
    } catch (error) {
      const e = error as Error & { code?: unknown };
      return { class: e.constructor.name, code: e.code, message: e.message };
    }
  };
  const values: Array<[string, unknown]> = [
    ['NaN', Number.NaN],
    ['-1', -1],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    // Redis's PX takes whole milliseconds: with Infinity or 1.5 every script call failed ("value is not an
    // integer"), so the Redis twin reported Redis unavailable while the in-process one worked.
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a fraction', 1.5],
    ['a string', '600000'],
    ['null', null],
    ['a boolean', true],
    ['an object', {}],
    ['undefined (the default)', undefined],
    ['0', 0],
    ['1', 1],
    ['600 000', 600_000],
  ];
  for (const [label, rememberMs] of values)
    it(`rememberMs: ${label}`, () => {
      const memory = outcome(() => memoryOrderClaims({ rememberMs: rememberMs as number }));
      const shared = outcome(
        () => new RedisOrderClaims({ client: redisFile.client, rememberMs: rememberMs as number }),
      );
      expect(memory).toEqual(shared);
      const refused = !Number.isSafeInteger(rememberMs) || (rememberMs as number) < 0;
      expect(memory).toEqual(
        refused && rememberMs !== undefined
          ? {
              class: 'ConfigurationError',
              code: 'invalid_option',
              // a number or null as it is, anything else by its type only (it may be a secret in the wrong place)
              message: `rememberMs must be a whole number of milliseconds ≥ 0, got ${typeof rememberMs === 'number' || rememberMs === null ? String(rememberMs) : typeof rememberMs}`,
            }
          : 'accepted',
      );
    });
});
