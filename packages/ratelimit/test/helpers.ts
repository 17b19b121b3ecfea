import type { Clock } from '@partner-print/openapi/wire';

/** Virtual time: `sleep` moves the clock forward at once, like the sandbox's virtual clock. */
export function virtualClock(
  start = Date.parse('2026-11-16T09:00:00Z'),
): Clock & { advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    advance(ms) {
      now += ms;
    },
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      if (ms > 0) now += ms;
      await Promise.resolve();
      if (signal?.aborted) throw signal.reason;
    },
  };
}

/** Manual time: sleeps wait until the test advances the clock past them. */
export function manualClock(
  start = 1_000_000,
): Clock & { advance(ms: number): Promise<void>; pending(): number } {
  let now = start;
  const sleepers = new Set<{ at: number; resolve: () => void }>();
  return {
    now: () => now,
    pending: () => sleepers.size,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const sleeper = { at: now + ms, resolve };
        sleepers.add(sleeper);
        signal?.addEventListener(
          'abort',
          () => {
            sleepers.delete(sleeper);
            reject(signal.reason);
          },
          { once: true },
        );
      });
    },
    async advance(ms) {
      const target = now + ms;
      for (;;) {
        const due = [...sleepers].filter((s) => s.at <= target).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        now = Math.max(now, due.at);
        sleepers.delete(due);
        due.resolve();
        for (let i = 0; i < 20; i++) await Promise.resolve();
        await new Promise((r) => setImmediate(r));
      }
      now = target;
      for (let i = 0; i < 20; i++) await Promise.resolve();
      await new Promise((r) => setImmediate(r));
    },
  };
}

export const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

/** Waits (real time, up to 5 s) until `condition` holds: the key hash runs on a thread pool. */
export async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 1));
  }
}
