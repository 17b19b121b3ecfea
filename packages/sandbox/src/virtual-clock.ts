import { abortError, type SandboxClock } from './clock.ts';
import { nextMacrotask } from './macrotask.ts';
import { TimerQueue } from './timer-queue.ts';

/** The sandbox's own handle on its virtual clock (not exported from the package). */
export interface VirtualClock extends SandboxClock {
  /** Sets the time (reset); pending sleeps keep the time they have left. */
  set(ms: number): void;
  /** Advances like `advance`, letting each woken sleeper run at its own time before the next timer fires. */
  advanceInTurn(ms: number): Promise<void>;
  /** Keeps virtual time from moving by itself until the returned release is called (real work in flight). */
  hold(): () => void;
}

function checkedMs(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance(ms) needs a finite, non-negative number');
  return ms;
}

/**
 * A discrete-event clock. `sleep(ms)` is a timer due at now + ms. When the program has nothing else to run
 * (a macrotask after the microtasks queued so far), time jumps to the earliest timer and wakes it, one
 * timer per turn, in due order (ties in the order the sleeps began), so concurrent sleeps overlap as they
 * would on a real clock instead of adding up. `advance(ms)` wakes every timer due in the range in that order.
 */
export function createVirtualClock(start: number): VirtualClock {
  let current = start;
  const timers = new TimerQueue();
  const listeners = new Set<() => void>();
  let holds = 0;
  let inTurn = 0; // advanceInTurn calls in progress: they, not the driver, move time meanwhile
  let driving = false;

  const moveTo = (time: number) => {
    if (time <= current) return;
    current = time;
    for (const listener of listeners) listener();
  };
  const wakeNext = (limit: number): boolean => {
    const timer = timers.takeDue(limit);
    if (!timer) return false;
    try {
      moveTo(timer.due);
    } finally {
      timer.wake(); // a throwing listener must not strand the sleeper
    }
    return true;
  };
  const idle = () => timers.size === 0 || holds > 0 || inTurn > 0;
  const drive = async () => {
    if (driving) return;
    driving = true;
    try {
      while (!idle()) {
        await nextMacrotask();
        if (!idle()) wakeNext(Number.POSITIVE_INFINITY);
      }
    } finally {
      driving = false;
    }
  };

  const clock: VirtualClock = {
    kind: 'virtual',
    now: () => current,
    set(ms) {
      timers.shift(ms - current);
      current = ms;
    },
    advance(ms) {
      const target = current + checkedMs(ms);
      while (wakeNext(target));
      moveTo(target);
    },
    async advanceInTurn(ms) {
      const target = current + checkedMs(ms);
      inTurn++;
      try {
        while (wakeNext(target)) await nextMacrotask();
        moveTo(target);
      } finally {
        inTurn--;
        void drive();
      }
    },
    hold() {
      holds++;
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        holds--;
        void drive();
      };
    },
    sleep(ms, signal) {
      if (signal?.aborted) return Promise.reject(abortError(signal));
      if (ms === Number.POSITIVE_INFINITY)
        return Promise.reject(new RangeError('sleep(ms) needs a finite ms'));
      return new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          timers.remove(timer);
          reject(abortError(signal!));
        };
        // Like setTimeout, a negative or NaN delay is no delay.
        const timer = timers.add(current + Math.max(0, ms || 0), () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
        signal?.addEventListener('abort', onAbort, { once: true });
        void drive();
      });
    },
    onAdvance(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return clock;
}
