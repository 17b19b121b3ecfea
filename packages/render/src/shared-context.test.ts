import { AsyncLocalStorage } from 'node:async_hooks';
import { systemClock } from '@partner-print/openapi/wire';
import { describe, expect, it } from 'vitest';
import { SharedTasks } from './shared.ts';

const storage = new AsyncLocalStorage<string>();

describe('SharedTasks and the caller’s async context', () => {
  it('calls each caller’s progress listener in that caller’s context, not the task’s', async () => {
    const tasks = new SharedTasks<number, string>(() => new Error('deadline'));
    const heard: Array<[string, string | undefined]> = [];
    let go = () => {};
    const task = async (ctx: { emit(event: string): void }) => {
      await new Promise<void>((r) => (go = r));
      ctx.emit('polled');
      return 1;
    };
    const join = (caller: string) =>
      storage.run(caller, () =>
        tasks.join(
          'render',
          { clock: systemClock, listener: () => heard.push([caller, storage.getStore()]) },
          task,
        ),
      );
    const calls = [join('first'), join('second'), join('third')];
    await new Promise((r) => setTimeout(r, 5));
    go();
    await Promise.all(calls);
    expect(heard).toEqual([
      ['first', 'first'],
      ['second', 'second'],
      ['third', 'third'],
    ]);
  });
});
