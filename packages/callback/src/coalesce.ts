interface Waiting<T> {
  input: T;
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

interface Slot<T> {
  next: Waiting<T> | undefined;
}

/**
 * Runs `task` at most once at a time per key. Calls arriving while a run is in flight share a
 * single follow-up run, which starts when the current one settles and receives the latest input;
 * all of those callers settle with the follow-up's outcome. So a burst of any size costs at most
 * two runs per key, and the last run always starts after the last call arrived.
 */
export function createCoalescer<T>(task: (input: T) => Promise<void>) {
  const slots = new Map<string, Slot<T>>();

  const start = (key: string, slot: Slot<T>, input: T): Promise<void> => {
    const run = Promise.resolve().then(() => task(input));
    const settle = () => {
      const waiting = slot.next;
      if (!waiting) {
        slots.delete(key);
        return;
      }
      slot.next = undefined;
      start(key, slot, waiting.input).then(waiting.resolve, waiting.reject);
    };
    run.then(settle, settle);
    return run;
  };

  return {
    run(key: string, input: T): Promise<void> {
      const slot = slots.get(key);
      if (!slot) {
        const fresh: Slot<T> = { next: undefined };
        slots.set(key, fresh);
        return start(key, fresh, input);
      }
      if (slot.next) {
        slot.next.input = input;
        return slot.next.promise;
      }
      let resolve!: () => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      slot.next = { input, promise, resolve, reject };
      return promise;
    },
    /** Keys with a run in flight (for tests and metrics). */
    get active(): number {
      return slots.size;
    },
  };
}
