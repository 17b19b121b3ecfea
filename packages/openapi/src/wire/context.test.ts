import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { bindContext, captureContext, captureScope } from './context.ts';

const storage = new AsyncLocalStorage<string>();

describe('captured async contexts', () => {
  it('captureScope runs a function later in the context it was captured in, not the caller’s', async () => {
    const scope = storage.run('queued by A', () => captureScope());
    const seen = await storage.run('pumped by B', async () => {
      await Promise.resolve();
      return scope.run(() => storage.getStore());
    });
    expect(seen).toBe('queued by A');
    expect(scope.run(() => 42)).toBe(42);
  });

  it('in Node the scope is the AsyncResource itself: one object per capture, no closure beside it', () => {
    const scope = captureScope();
    expect(scope).toBeInstanceOf(AsyncResource);
    expect(Object.keys(scope)).toEqual([]);
  });

  it('captureContext and bindContext keep their callable forms over the same capture', () => {
    const run = storage.run('A', () => captureContext());
    const bound = storage.run('A', () => bindContext((suffix: string) => `${storage.getStore()}${suffix}`));
    storage.run('B', () => {
      expect(run(() => storage.getStore())).toBe('A');
      expect(bound('!')).toBe('A!');
    });
  });
});
