import { type Clock, systemClock } from '@partner-print/openapi/wire';
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

  // A request that hung held every caller until it settled: deadlines were checked only inside ctx.sleep.
  describe('while a request or other work of the task is awaited', () => {
    /** A request that answers only when told, or rejects when its signal aborts. */
    const hanging = () => {
      const signals: AbortSignal[] = [];
      let answer: (value: string) => void = () => {};
      const send = (signal: AbortSignal) =>
        new Promise<string>((resolve, reject) => {
          signals.push(signal);
          answer = resolve;
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      return { signals, send, answer: (value: string) => answer(value) };
    };

    it('lets each caller go at its deadline, and aborts the request once none is left', async () => {
      const tasks = new SharedTasks<string>(timeout);
      const request = hanging();
      const run = (ctx: { request(send: (signal: AbortSignal) => Promise<string>): Promise<string> }) =>
        ctx.request(request.send);
      const now = Date.now();
      const first = tasks.join('k', { clock: systemClock, deadline: now + 20 }, run);
      const second = tasks.join('k', { clock: systemClock, deadline: now + 60 }, run);
      await expect(first).rejects.toBeInstanceOf(Timeout);
      expect(request.signals[0]?.aborted).toBe(false);
      await expect(second).rejects.toBeInstanceOf(Timeout);
      expect(request.signals[0]?.aborted).toBe(true);
      expect(tasks.has('k')).toBe(false);
    });

    it('lets a caller who joins during the request go at its own, earlier deadline', async () => {
      const tasks = new SharedTasks<string>(timeout);
      const request = hanging();
      const run = (ctx: { request(send: (signal: AbortSignal) => Promise<string>): Promise<string> }) =>
        ctx.request(request.send);
      const patient = tasks.join('k', { clock: systemClock }, run);
      await new Promise((r) => setTimeout(r, 5));
      const hurried = tasks.join('k', { clock: systemClock, deadline: Date.now() + 20 }, run);
      await expect(hurried).rejects.toBeInstanceOf(Timeout);
      request.answer('answered');
      await expect(patient).resolves.toBe('answered');
      expect(request.signals).toHaveLength(1);
    });

    it('aborts a request nobody waits for in a task that goes on, and frees the key for a new one', async () => {
      const tasks = new SharedTasks<string>(timeout, false);
      const request = hanging();
      let sent = 0;
      const run = (ctx: { request(send: (signal: AbortSignal) => Promise<string>): Promise<string> }) => {
        sent += 1;
        return sent === 1 ? ctx.request(request.send) : Promise.resolve('fresh');
      };
      const gone = tasks.join('k', { clock: systemClock, deadline: Date.now() + 20 }, run);
      await expect(gone).rejects.toBeInstanceOf(Timeout);
      expect(request.signals[0]?.aborted).toBe(true);
      await expect(tasks.join('k', { clock: systemClock }, run)).resolves.toBe('fresh');
    });

    it('lets callers go from work it must not stop, which goes on', async () => {
      const tasks = new SharedTasks<string>(timeout, false);
      let answer: (value: string) => void = () => {};
      const posted = new Promise<string>((resolve) => {
        answer = resolve;
      });
      let after = '';
      const run = async (ctx: { watch(pending: Promise<string>): Promise<string> }) => {
        after = await ctx.watch(posted);
        return after;
      };
      const call = tasks.join('k', { clock: systemClock, deadline: Date.now() + 20 }, run);
      await expect(call).rejects.toBeInstanceOf(Timeout);
      answer('posted');
      await new Promise((r) => setTimeout(r, 0));
      expect(after).toBe('posted');
    });

    it('arms the deadline on another clock only after a second of real time without an answer', async () => {
      const clock = virtualClock(0);
      const tasks = new SharedTasks<string>(timeout);
      const request = hanging();
      const started = performance.now();
      const call = tasks.join('k', { clock, deadline: 5_000 }, (ctx) => ctx.request(request.send));
      await expect(call).rejects.toBeInstanceOf(Timeout);
      expect(performance.now() - started).toBeGreaterThanOrEqual(990);
      expect(clock.now()).toBe(5_000);
      expect(request.signals[0]?.aborted).toBe(true);
    });
  });
});
