import { describe, expect, it } from 'vitest';
import * as main from '../src/index.ts';
import * as node from '../src/node/index.ts';

/** Runtime names of an entry point and their kinds; widening the public surface changes this on purpose. */
const surface = (entry: Record<string, unknown>): string[] =>
  Object.keys(entry)
    .sort()
    .map((name) => {
      const value = entry[name];
      if (typeof value !== 'function') return `${name}: ${typeof value}`;
      return `${name}: ${/^class\b/.test(Function.prototype.toString.call(value)) ? 'class' : 'function'}`;
    });

describe('exports (the README documents each)', () => {
  it('@partner-print/sandbox', () => {
    expect(surface(main)).toEqual([
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
    expect(surface(node)).toEqual(['startSandboxServer: function']);
  });
});
