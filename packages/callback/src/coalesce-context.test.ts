import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { createCoalescer } from './coalesce.ts';

const storage = new AsyncLocalStorage<string>();

describe('the coalescer and the caller’s async context', () => {
  it('runs each round in the context of the call that opened it, even when the previous round starts it', async () => {
    const seen: Array<[string, string | undefined]> = [];
    let release = () => {};
    const coalescer = createCoalescer<string>(async (input) => {
      seen.push([input, storage.getStore()]);
      if (input === 'a') await new Promise<void>((r) => (release = r));
    });
    const first = storage.run('caller-a', () => coalescer.run('order', 'a'));
    await new Promise((r) => setTimeout(r, 5));
    // Opens the next round while the first runs: the first round's end launches it.
    const second = storage.run('caller-b', () => coalescer.run('order', 'b'));
    const third = storage.run('caller-c', () => coalescer.run('order', 'c'));
    release();
    await Promise.all([first, second, third]);
    expect(seen).toEqual([
      ['a', 'caller-a'],
      ['c', 'caller-b'],
    ]);
  });
});
