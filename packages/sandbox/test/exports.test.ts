import { describe, expect, it } from 'vitest';
import { exportSurface } from '../../../test-utils/exports.ts';
import * as main from '../src/index.ts';
import * as node from '../src/node/index.ts';

describe('exports (the README documents each)', () => {
  it('@partner-print/sandbox', () => {
    expect(exportSurface(main)).toEqual([
      'ControlError: class',
      'DEFAULT_POLICIES: object',
      'DEFAULT_SEED: string',
      'DEFAULT_START_TIME: number',
      'callbackUrl: function',
      'createSandbox: function',
      'renderWeek: function',
    ]);
  });
  it('@partner-print/sandbox/node', () => {
    expect(exportSurface(node)).toEqual(['startSandboxServer: function']);
  });
});
