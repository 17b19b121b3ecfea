import { describe, expect, it } from 'vitest';
import * as main from './index.ts';
import * as node from './node/index.ts';
import * as redis from './redis/index.ts';

/** Runtime names of an entry point and their kinds; widening the public surface changes this on purpose. */
function surface(entry: Record<string, unknown>): string[] {
  return Object.keys(entry)
    .sort()
    .map((name) => {
      const value = entry[name];
      if (typeof value !== 'function') return `${name}: ${typeof value}`;
      return `${name}: ${/^class\b/.test(Function.prototype.toString.call(value)) ? 'class' : 'function'}`;
    });
}

describe('exports (the README documents each)', () => {
  it('@partner-print/callback', () => {
    expect(surface(main)).toEqual([
      'ALIASES: object',
      'ENVIRONMENTS: object',
      'ORDER_REFERENCE_V2_PATTERN: object',
      'PARAMETERS: object',
      'STORE_CODE_PATTERN: object',
      'buildCallbackUrl: function',
      'createOrderUpdatedHandler: function',
      'parseOrderUpdatedCallback: function',
    ]);
  });

  it('@partner-print/callback/node', () => {
    expect(surface(node)).toEqual(['toNodeListener: function']);
  });

  it('@partner-print/callback/redis', () => {
    expect(surface(redis)).toEqual([
      'CoalescedRoundError: class',
      'RedisCoalescer: class',
      'createRedisCoalescer: function',
    ]);
  });
});
