import { describe, expect, it } from 'vitest';
import { RedisRenderStore } from './store.ts';

// Never reached: the options are checked when the store is made.
const client = { evalSha: async () => 1, eval: async () => 1, scriptLoad: async () => 'sha' };

describe('RedisRenderStore options', () => {
  it('refuses a NaN, zero, negative, infinite or fractional duration with a ConfigurationError naming the option', () => {
    // A NaN pollMs looked for the reference in a tight loop; a NaN leaseMs or ttlMs made every lease or
    // write fail, which the store took for Redis being down (redis-unavailable, no sharing).
    for (const [name, value] of [
      ['pollMs', Number.NaN],
      ['pollMs', 0],
      ['leaseMs', Number.NaN],
      ['leaseMs', -1],
      ['ttlMs', Number.NaN],
      ['ttlMs', 0],
      // Redis's PX takes whole milliseconds: Infinity or a fraction failed every command, read as Redis down.
      ['leaseMs', 1.5],
      ['ttlMs', Number.POSITIVE_INFINITY],
    ] as const)
      expect(() => new RedisRenderStore({ client, [name]: value }), `${name}: ${value}`).toThrow(
        expect.objectContaining({
          name: 'ConfigurationError',
          code: 'invalid_option',
          message: expect.stringContaining(name),
        }),
      );
    expect(() => new RedisRenderStore({ client, pollMs: undefined, ttlMs: undefined })).not.toThrow();
  });

  it('refuses an option it does not take, naming only the option (a typo was ignored)', () => {
    // `leaseMS: 120_000` kept the 30 s lease, so a POST longer than that let a second worker pay again.
    for (const typo of ['leaseMS', 'lease', 'password'])
      expect(() => new RedisRenderStore({ client, [typo]: 'sk_live_never_printed' } as never), typo).toThrow(
        expect.objectContaining({
          name: 'ConfigurationError',
          code: 'invalid_option',
          message: expect.stringMatching(
            new RegExp(`^RedisRenderStore: unknown option "${typo}"; options are client, `),
          ),
        }),
      );
  });
});
