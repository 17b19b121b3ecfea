// The ./redis entry exports what the README's "Several processes" section documents, no more.
import { describe, expect, it } from 'vitest';
import * as redis from '../src/redis.ts';

describe('@partner-print/client/redis', () => {
  it('exports the order claims and the shared Lua runner', () => {
    const surface = Object.entries(redis)
      .map(
        ([name, value]) =>
          `${name}: ${typeof value === 'function' && /^class\b/.test(String(value)) ? 'class' : typeof value}`,
      )
      .sort();
    expect(surface).toEqual([
      'OrderClaimUnavailableError: class',
      'RedisOrderClaims: class',
      'ScriptRunner: class',
      'checkMs: function',
      'replyNumber: function',
    ]);
  });
});
