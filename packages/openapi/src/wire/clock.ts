/**
 * Time source: milliseconds since the epoch, and a sleep that ends early (rejecting with the signal's
 * reason) when the signal aborts. The sandbox's virtual clock has the same shape.
 */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        // Past the largest delay a timer takes (about 24.8 days) a runtime fires it at once: wait that long.
        Math.min(Math.max(0, ms), 2 ** 31 - 1),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/**
 * `answer`, or a rejection with `error()` once it is overdue: once `ms` of `clock` time has passed in which
 * this process could have read it. The deadline every Redis and shared-store call of the SDK is held to; its
 * timer is cleared as soon as `answer` settles.
 *
 * A timer that fires late because this process was busy (a long synchronous task, a starved event loop)
 * says nothing about the other side: the command may have been written only after the stall, and its answer
 * is then a round trip away. So on the system clock, a wait that ends later than `ms` by more than a tenth
 * of it (at least 10 ms) starts again, once: an answer after a stall still counts, and a peer that is really
 * gone is judged within 2 × `ms` plus the stall. Another clock (a virtual one in tests) is taken as it
 * reads. Either way the wait ends with a zero-length one, so that an answer already in the process's input is
 * read first.
 */
export function overdue<T>(answer: Promise<T>, ms: number, clock: Clock, error: () => unknown): Promise<T> {
  const stop = new AbortController();
  const wait = async (): Promise<never> => {
    for (let again = clock === systemClock; ; again = false) {
      const due = performance.now() + ms;
      await clock.sleep(ms, stop.signal);
      if (!again || performance.now() - due <= Math.max(10, ms / 10)) break;
    }
    await clock.sleep(0, stop.signal);
    throw error();
  };
  const late = wait();
  late.catch(() => {}); // aborted once `answer` settles
  return Promise.race([answer, late]).finally(() => stop.abort());
}
