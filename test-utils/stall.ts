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

/**
 * A stopwatch for tests that bound how long code waits (a grace period, a deadline, a retry delay) on a
 * machine that may starve the test's process for seconds (pnpm test runs files beside busy cores, some in
 * the idle class). `elapsed()` is the wall time since it started less the time the process was stalled:
 * every `periodMs` a timer of its own checks how late it ran, and the part of that lateness which the
 * process did not spend on a CPU (`process.cpuUsage`, every thread of the process) is a stall. What stays
 * counted is the time the process waited on its own timers and I/O while it could run, and the CPU time it
 * spent: a wait the code should not make, or a hang, is counted in full; so is a synchronous task of the
 * code. Only the time no core ran the process (a busy machine, a paused process) is left out, and with it
 * any wait of the code that ran out meanwhile: under load the bound is looser by that overlap, never stricter
 * (a second's wait too many still shows in a run starved half the time). `stop()`
 * ends its timer (unref'd, but a file must not leave it running beside the next) and `elapsed()` stays at
 * its value then.
 */
export function stallFreeStopwatch(periodMs = 10): {
  elapsed(): number;
  stalledMs(): number;
  stop(): void;
} {
  const started = performance.now();
  let last = started;
  let lastCpu = process.cpuUsage();
  let stalled = 0;
  /**
   * The stall in the interval since the last tick: its length beyond both the period and the CPU spent, less
   * the 2 ms a timer of an idle process may run late (counted as waiting: that errs on the strict side).
   */
  const pending = (now: number) => {
    const cpu = process.cpuUsage(lastCpu);
    const ran = (cpu.user + cpu.system) / 1000;
    return Math.max(0, now - last - Math.max(periodMs, ran) - 2);
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = () => {
    const now = performance.now();
    stalled += pending(now);
    last = now;
    lastCpu = process.cpuUsage();
    timer = setTimeout(tick, periodMs);
    timer.unref();
  };
  timer = setTimeout(tick, periodMs);
  timer.unref();
  let frozen: number | undefined;
  const elapsed = () => {
    if (frozen !== undefined) return frozen;
    const now = performance.now();
    return now - started - stalled - pending(now);
  };
  return {
    elapsed,
    stalledMs: () => stalled + (frozen === undefined ? pending(performance.now()) : 0),
    stop: () => {
      if (frozen === undefined) frozen = elapsed();
      clearTimeout(timer);
    },
  };
}

/** `work()`'s result and how long it took without the process's stalls ({@link stallFreeStopwatch}). */
export async function timeWithoutStalls<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const watch = stallFreeStopwatch();
  try {
    const result = await work();
    watch.stop();
    return { result, ms: watch.elapsed() };
  } finally {
    watch.stop();
  }
}

/**
 * Resolves once `ms` of stall-free time ({@link stallFreeStopwatch}) has passed since the call, checking every
 * 10 ms, or at once when `signal` aborts: the deadline of a test that waits for something to happen, which a
 * starved process does not reach early. It ends its timers either way.
 */
export function stallFreeDelay(ms: number, signal?: AbortSignal): Promise<void> {
  const watch = stallFreeStopwatch();
  return new Promise<void>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(timer);
      watch.stop();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const check = () => {
      const left = ms - watch.elapsed();
      if (left <= 0 || signal?.aborted) done();
      else timer = setTimeout(check, Math.min(left, 10));
    };
    signal?.addEventListener('abort', done);
    check();
  });
}

/**
 * `promise`'s outcome, or `still pending after <ms> ms` once `ms` of stall-free time has passed first: a bound
 * on a wait (a call that must end, a read that must not) that a starved process neither reaches early nor
 * escapes, for the wait is counted in full while the process could run.
 */
export async function withinStallFree<T>(promise: Promise<T>, ms: number): Promise<T | string> {
  const stop = new AbortController();
  const late = stallFreeDelay(ms, stop.signal).then(() => `still pending after ${ms} ms`);
  try {
    return await Promise.race([promise, late]);
  } finally {
    stop.abort();
  }
}

/**
 * Waits until `condition()` holds (or resolves to true: a read of Redis), checking every 10 ms, for at most
 * `ms` of stall-free time; returns whether it held. A test that waits on a state (so many answers, an event)
 * rather than a sleep asserts the result.
 */
export async function stallFreeUntil(
  condition: () => boolean | Promise<boolean>,
  ms: number,
): Promise<boolean> {
  const watch = stallFreeStopwatch();
  try {
    while (!(await condition()) && watch.elapsed() < ms)
      await new Promise((resolve) => setTimeout(resolve, 10));
    return await condition();
  } finally {
    watch.stop();
  }
}
