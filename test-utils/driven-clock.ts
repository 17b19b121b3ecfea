/**
 * A clock only the test moves, for the heartbeat of a lease (a store's `clock` option): its sleeps wake
 * when `advance()` passes their end, never by themselves, so a process starved for seconds (pnpm test runs
 * files beside busy cores) neither misses a renewal nor makes one early. What lies on real time (a key's
 * TTL in Redis) the test changes itself: it cuts the TTL as the time it advanced would have, or deletes the
 * key, as Redis would once it ran out. The shape of `Clock` (@partner-print/openapi/wire).
 */
export function drivenClock(start = Date.now()) {
  let now = start;
  const sleeps = new Set<{ at: number; wake(): void }>();
  const started: (() => void)[] = [];
  const clock = {
    now: () => now,
    sleep: (ms: number, signal?: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const onAbort = () => {
          sleeps.delete(sleep);
          reject(signal?.reason);
        };
        const sleep = {
          at: now + Math.max(0, ms),
          wake: () => {
            signal?.removeEventListener('abort', onAbort);
            sleeps.delete(sleep);
            resolve();
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        sleeps.add(sleep);
        for (const tell of started.splice(0)) tell();
      }),
  };
  return {
    clock,
    /** Sleeps neither woken nor aborted: a lease's heartbeat is one while the lease is held. */
    sleeping: () => sleeps.size,
    /** Resolves when the next sleep starts (a heartbeat that renewed goes back to sleep). */
    nextSleep: () => new Promise<void>((resolve) => started.push(resolve)),
    /** Moves the clock on by `ms`: the sleeps that end by then wake. */
    advance(ms: number): void {
      now += ms;
      for (const sleep of [...sleeps]) if (sleep.at <= now) sleep.wake();
    },
  };
}
