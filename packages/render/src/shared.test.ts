import type { Clock } from '@partner-print/openapi/wire';
import { describe, expect, it, vi } from 'vitest';
import { SharedTasks } from './shared.ts';

function virtualClock(start = 0): Clock & { slept: number[] } {
  let now = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      slept.push(ms);
      now += ms;
      await Promise.resolve();
      if (signal?.aborted) throw signal.reason;
    },
  };
}

class Timeout extends Error {}
const timeout = (deadline: number) => new Timeout(`deadline ${deadline}`);

describe('SharedTasks', () => {
  it('runs one task for concurrent callers of one key and gives each the result', async () => {
    const clock = virtualClock();
    const tasks = new SharedTasks<number>(timeout);
    const task = vi.fn(async () => 42);
    const results = await Promise.all(Array.from({ length: 10 }, () => tasks.join('k', { clock }, task)));
    expect(results).toEqual(Array(10).fill(42));
    expect(task).toHaveBeenCalledTimes(1);
    expect(tasks.size).toBe(0);
    await tasks.join('k', { clock }, task);
    expect(task).toHaveBeenCalledTimes(2);
  });

  it('keeps keys apart and passes rejections to every caller', async () => {
    const clock = virtualClock();
    const tasks = new SharedTasks<string>(timeout);
    const a = tasks.join('a', { clock }, async () => 'a');
    const b = tasks.join('b', { clock }, async () => {
      throw new Error('boom');
    });
    const b2 = tasks.join('b', { clock }, async () => 'never');
    await expect(a).resolves.toBe('a');
    await expect(b).rejects.toThrow('boom');
    await expect(b2).rejects.toThrow('boom');
  });

  it('lets one caller abort without stopping the others', async () => {
    const clock = virtualClock();
    const tasks = new SharedTasks<string>(timeout);
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const controller = new AbortController();
    const first = tasks.join('k', { clock, signal: controller.signal }, async () => {
      await gate;
      return 'done';
    });
    const second = tasks.join('k', { clock }, async () => 'unused');
    controller.abort(new Error('stop'));
    await expect(first).rejects.toThrow('stop');
    release();
    await expect(second).resolves.toBe('done');
  });

  it('aborts the task when the last caller leaves, and frees the key', async () => {
    const clock = virtualClock();
    const tasks = new SharedTasks<string>(timeout);
    let taskSignal!: AbortSignal;
    let release!: () => void;
    const controller = new AbortController();
    const p = tasks.join('k', { clock, signal: controller.signal }, async (ctx) => {
      taskSignal = ctx.signal;
      await new Promise<void>((r) => {
        release = r;
      });
      return 'late';
    });
    await Promise.resolve();
    await Promise.resolve();
    controller.abort(new Error('gone'));
    await expect(p).rejects.toThrow('gone');
    expect(taskSignal.aborted).toBe(true);
    expect(tasks.has('k')).toBe(false);
    release();
  });

  it('keeps the task running when abortWhenAbandoned is off, and lets later callers join it', async () => {
    const clock = virtualClock();
    const tasks = new SharedTasks<string>(timeout, false);
    let release!: () => void;
    const run = vi.fn(
      (_ctx: unknown) =>
        new Promise<string>((r) => {
          release = () => r('posted');
        }),
    );
    const controller = new AbortController();
    const first = tasks.join('k', { clock, signal: controller.signal }, run);
    controller.abort(new Error('left'));
    await expect(first).rejects.toThrow('left');
    expect(tasks.has('k')).toBe(true);
    const later = tasks.join('k', { clock }, run);
    await Promise.resolve();
    release();
    await expect(later).resolves.toBe('posted');
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('times callers out at their own deadline inside ctx.sleep', async () => {
    const clock = virtualClock(1000);
    const tasks = new SharedTasks<string>(timeout);
    const poll = async (ctx: { sleep(ms: number): Promise<void> }) => {
      await ctx.sleep(60_000);
      await ctx.sleep(60_000);
      return 'complete';
    };
    const short = tasks.join('k', { clock, deadline: 1000 + 30_000 }, poll);
    const long = tasks.join('k', { clock, deadline: 1000 + 500_000 }, poll);
    await expect(short).rejects.toBeInstanceOf(Timeout);
    await expect(long).resolves.toBe('complete');
    // Woke at the short deadline, then slept the rest of the interval: no extra time passed.
    expect(clock.slept).toEqual([30_000, 30_000, 60_000]);
    expect(clock.now()).toBe(1000 + 120_000);
  });

  it('aborts the sleeping task when the only caller times out', async () => {
    const clock = virtualClock(0);
    const tasks = new SharedTasks<string>(timeout);
    let reached = false;
    const p = tasks.join('k', { clock, deadline: 10_000 }, async (ctx) => {
      await ctx.sleep(60_000);
      reached = true;
      return 'x';
    });
    await expect(p).rejects.toBeInstanceOf(Timeout);
    await new Promise((r) => setTimeout(r, 0));
    expect(reached).toBe(false);
    expect(clock.now()).toBe(10_000);
  });

  it('rejects at once for an aborted signal or a past deadline', async () => {
    const clock = virtualClock(5);
    const tasks = new SharedTasks<string>(timeout);
    const task = vi.fn(async () => 'x');
    await expect(
      tasks.join('k', { clock, signal: AbortSignal.abort(new Error('pre')) }, task),
    ).rejects.toThrow('pre');
    await expect(tasks.join('k', { clock, deadline: 5 }, task)).rejects.toBeInstanceOf(Timeout);
    expect(task).not.toHaveBeenCalled();
  });

  it('sends task events to every caller still waiting', async () => {
    const clock = virtualClock();
    const tasks = new SharedTasks<string, string>(timeout);
    const seenA: string[] = [];
    const seenB: string[] = [];
    const throwing = () => {
      throw new Error('listener bug');
    };
    const run = async (ctx: { emit(e: string): void }) => {
      ctx.emit('polled');
      return 'ok';
    };
    await Promise.all([
      tasks.join('k', { clock, listener: (e) => seenA.push(e) }, run),
      tasks.join('k', { clock, listener: (e) => seenB.push(e) }, run),
      tasks.join('k', { clock, listener: throwing }, run),
    ]);
    expect(seenA).toEqual(['polled']);
    expect(seenB).toEqual(['polled']);
  });
});
