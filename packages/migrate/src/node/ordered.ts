/**
 * Runs tasks with bounded concurrency and hands their results over in input order, so outputs and
 * resume points follow the file order. At most `window` results wait, which keeps memory flat.
 */
export function createOrderedPipeline<T>(options: {
  concurrency: number;
  window?: number;
  emit: (result: T, seq: number) => Promise<void> | void;
}) {
  const window = Math.max(options.window ?? options.concurrency * 4, options.concurrency);
  const done = new Map<number, T>();
  let next = 0;
  let submitted = 0;
  let active = 0;
  let failure: unknown;
  let emitting: Promise<void> = Promise.resolve();
  const waiters: Array<() => void> = [];
  const wake = () => {
    while (waiters.length) waiters.shift()!();
  };

  async function flush() {
    while (done.has(next)) {
      const r = done.get(next)!;
      done.delete(next);
      await options.emit(r, next);
      next++;
    }
  }

  return {
    /** Waits for room, then starts the task. Throws if an emit failed. */
    async push(task: () => Promise<T>): Promise<void> {
      while (active >= options.concurrency || submitted - next >= window) {
        if (failure) throw failure;
        await new Promise<void>((r) => waiters.push(r));
      }
      if (failure) throw failure;
      const seq = submitted++;
      active++;
      task().then(
        (r) => {
          active--;
          done.set(seq, r);
          emitting = emitting.then(flush).catch((e) => {
            failure ??= e;
          });
          emitting.then(wake);
        },
        (e) => {
          active--;
          failure ??= e;
          wake();
        },
      );
    },
    /** Waits for every started task and emit. */
    async drain(): Promise<void> {
      while (next < submitted) {
        if (failure) throw failure;
        await new Promise<void>((r) => waiters.push(r));
      }
      await emitting;
      if (failure) throw failure;
    },
  };
}
