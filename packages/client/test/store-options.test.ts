import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../src/index.ts';
import { memoryOrderClaims } from '../src/orders.ts';
import { checkMs, RedisOrderClaims } from '../src/redis.ts';

// Never reached: the options are checked when the claims are made.
const client = { evalSha: async () => 1, eval: async () => 1, scriptLoad: async () => 'sha' } as never;

describe('order claims refuse options they do not take', () => {
  // A misspelt option was ignored: `rememberMS` kept the 10-minute memory, `onUnavailable: 'errors'`
  // waited up to maxWaitMs for Redis where the caller asked to be told at once.
  it.each<[string, () => unknown, RegExp]>([
    [
      'RedisOrderClaims rememberMS',
      () => new RedisOrderClaims({ client, rememberMS: 5 } as never),
      /unknown option "rememberMS"/,
    ],
    [
      'RedisOrderClaims password',
      () => new RedisOrderClaims({ client, password: 'sk_live_x' } as never),
      /unknown option "password"/,
    ],
    [
      'RedisOrderClaims onUnavailable',
      () => new RedisOrderClaims({ client, onUnavailable: 'errors' } as never),
      /onUnavailable must be 'wait' or 'error'/,
    ],
    [
      'memoryOrderClaims remember',
      () => memoryOrderClaims({ remember: 5 } as never),
      /unknown option "remember"/,
    ],
  ])('%s', (_, make, message) => {
    let error: unknown;
    try {
      make();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(message) });
    expect((error as Error).message).not.toContain('sk_live');
  });

  // A value in the wrong place may be a secret (a key pasted into ttlMs): a number option that is not a number
  // is refused by its type only, as an unknown option is by its name only. checkMs showed the string itself.
  it.each<[string, () => unknown]>([
    ['RedisOrderClaims ttlMs', () => new RedisOrderClaims({ client, ttlMs: 'sk_live_x' } as never)],
    ['memoryOrderClaims rememberMs', () => memoryOrderClaims({ rememberMs: 'sk_live_x' } as never)],
    ['checkMs', () => checkMs({ pollMs: 'sk_live_x' }, 1)],
  ])('%s given a string shows its type, not its value', (_, make) => {
    expect(make).toThrow(ConfigurationError);
    expect(make).toThrow(/must be a whole number of milliseconds ≥ \d, got string$/);
    expect(make).not.toThrow(/sk_live/);
  });

  it('takes what they document', () => {
    expect(
      () =>
        new RedisOrderClaims({
          client,
          prefix: 'p',
          ttlMs: 1000,
          rememberMs: 0,
          commandTimeoutMs: 10,
          onUnavailable: 'error',
          maxWaitMs: 0,
          clock: undefined,
          on: undefined,
        }),
    ).not.toThrow();
    expect(() => memoryOrderClaims({ rememberMs: 1, now: () => 0 })).not.toThrow();
  });
});
