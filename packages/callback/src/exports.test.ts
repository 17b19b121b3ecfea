import { describe, expect, it } from 'vitest';
import { exportSurface } from '../../../test-utils/exports.ts';
import * as main from './index.ts';
import * as node from './node/index.ts';
import * as redis from './redis/index.ts';

describe('exports (the README documents each)', () => {
  it('@partner-print/callback', () => {
    expect(exportSurface(main)).toEqual([
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
    expect(exportSurface(node)).toEqual(['toNodeListener: function']);
  });

  it('@partner-print/callback/redis', () => {
    expect(exportSurface(redis)).toEqual([
      'CoalescedRoundError: class',
      'RedisCoalescer: class',
      'createRedisCoalescer: function',
    ]);
  });
});
