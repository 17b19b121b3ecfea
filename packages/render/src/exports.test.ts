import { describe, expect, it } from 'vitest';
import * as main from './index.ts';
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
  it('@partner-print/render', () => {
    expect(surface(main)).toEqual([
      'CompositionNotFoundError: class',
      'CompositionUnavailableError: class',
      'DEFAULT_POLL_INTERVAL_MS: number',
      'GoneError: class',
      'IncompatibleCompositionError: class',
      'InsufficientRendertokensError: class',
      'MemoryRenderStore: class',
      'NotFoundError: class',
      'PartnerPrintError: class',
      'RENDERTOKEN_TIME_ZONE: string',
      'RenderFailedError: class',
      'RenderTimeoutError: class',
      'RendertokenLimitError: class',
      'TimeoutError: class',
      'findIncompatibility: function',
      'isProductPerspective: function',
      'nextRendertokenReset: function',
      'plan: function',
      'renderCacheKey: function',
      'renderMany: function',
      'renderMockup: function',
      'thumbhashToDataUrl: function',
    ]);
  });

  it('@partner-print/render/redis', () => {
    expect(surface(redis)).toEqual(['RedisRenderStore: class']);
  });
});
