import { describe, expect, it } from 'vitest';
import { createRedisCoalescer } from './coalescer.ts';

// Never reached: the options are checked when the coalescer is made.
const client = { evalSha: async () => 1, eval: async () => 1, scriptLoad: async () => 'sha' };

describe('createRedisCoalescer options', () => {
  it('refuses a NaN, zero, negative, infinite or fractional duration with a ConfigurationError naming the option', () => {
    // A NaN pollMs polled Redis in a tight loop; a NaN leaseMs or ttlMs made every script fail, which the
    // coalescer took for Redis being down (redis-unavailable, no sharing) though Redis was fine.
    for (const [name, value] of [
      ['pollMs', Number.NaN],
      ['pollMs', 0],
      ['leaseMs', Number.NaN],
      ['leaseMs', 0],
      ['ttlMs', Number.NaN],
      ['ttlMs', -1],
      // Redis's PX takes whole milliseconds: Infinity or a fraction failed every script, read as Redis down.
      ['leaseMs', 1.5],
      ['ttlMs', Number.POSITIVE_INFINITY],
    ] as const)
      expect(() => createRedisCoalescer({ client, [name]: value }), `${name}: ${value}`).toThrow(
        expect.objectContaining({
          name: 'ConfigurationError',
          code: 'invalid_option',
          message: expect.stringContaining(name),
        }),
      );
    // Given as undefined: the default.
    expect(() => createRedisCoalescer({ client, pollMs: undefined, leaseMs: undefined })).not.toThrow();
  });

  it('refuses an option it does not take, naming only the option (a typo was ignored)', () => {
    for (const typo of ['pollMS', 'windowMs', 'password'])
      expect(() => createRedisCoalescer({ client, [typo]: 'sk_live_never_printed' } as never), typo).toThrow(
        expect.objectContaining({
          name: 'ConfigurationError',
          code: 'invalid_option',
          message: expect.stringMatching(
            new RegExp(`^createRedisCoalescer: unknown option "${typo}"; options are client, `),
          ),
        }),
      );
  });
});
