/**
 * A process that is busy, for tests of deadlines: `busy(ms)` is a synchronous task (the event loop does
 * nothing else for `ms`), and `STALL_PLACES` runs a function from each place of the event loop a stall can
 * start in: the caller's own code, a timer callback, and the check phase right after I/O.
 */
export function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // nothing else runs
  }
}

export const STALL_PLACES: Record<string, (go: () => Promise<void>) => Promise<void>> = {
  'in the caller': (go) => go(),
  'in a timer': (go) => new Promise((resolve, reject) => setTimeout(() => go().then(resolve, reject), 5)),
  'after I/O': (go) => new Promise((resolve, reject) => setImmediate(() => go().then(resolve, reject))),
};
