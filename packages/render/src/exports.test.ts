import { describe, expect, it } from 'vitest';
import { exportSurface } from '../../../test-utils/exports.ts';
import * as main from './index.ts';
import * as redis from './redis/index.ts';

describe('exports (the README documents each)', () => {
  it('@partner-print/render', () => {
    expect(exportSurface(main)).toEqual([
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
    expect(exportSurface(redis)).toEqual(['RedisRenderStore: class']);
  });
});
