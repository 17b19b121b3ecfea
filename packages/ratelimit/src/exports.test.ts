import { describe, expect, it } from 'vitest';
import * as main from './index.ts';
import * as redis from './redis.ts';

// What each entry point exports at run time (names and kinds): widening the public surface is a
// deliberate change of this snapshot and of the README, which documents every name.
const surface = (module: object) =>
  Object.entries(module)
    .map(([name, value]) => `${name}: ${typeof value}`)
    .sort();

describe('public surface', () => {
  it('@partner-print/ratelimit', () => {
    expect(surface(main)).toEqual([
      'DEFAULT_PARAMETER_NAMES: object',
      'MemoryStore: function',
      'REFERENCE_DEFAULTS: object',
      'createScheduler: function',
      'isRateLimitPaused: function',
      'parseRateLimitHeaders: function',
    ]);
  });

  it('@partner-print/ratelimit/redis', () => {
    expect(surface(redis)).toEqual(['RedisStore: function']);
  });
});
