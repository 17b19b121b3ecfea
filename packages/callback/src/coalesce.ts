import { type Clock, type ContextScope, captureScope, systemClock } from '@partner-print/openapi/wire';

interface Round<T> {
  input: T;
  /** When the round's first call arrived: its window is counted from here. */
  openedAt: number;
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
  /** The async context of the call that opened it: its task runs there, not in the previous round's. */
  scope: ContextScope;
}

interface Slot<T> {
  /** A round is waiting out its window or running. */
  busy: boolean;
  /** The round that has not started its task yet: calls arriving now join it. */
  next: Round<T> | undefined;
}

export interface CoalescerOptions {
  /**
   * How long a round waits after its first call before it starts, so that calls within the window
   * share it. Default 0: the round starts on the next microtask.
   */
  windowMs?: number;
  clock?: Clock;
}

export interface Coalescer<T> {
  run(key: string, input: T): Promise<void>;
}

function openRound<T>(input: T, openedAt: number): Round<T> {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { input, openedAt, promise, resolve, reject, scope: captureScope() };
}

/**
 * Runs `task` at most once at a time per key. A round starts `windowMs` after its first call (or when
 * the key's previous round settles, if later) with the latest input; every call that arrived before it
 * started shares its outcome. Calls arriving while a round runs open the next round. So a burst no
 * longer than the window costs one run per key, any burst at most two per window, and a run always
 * starts after the calls it answers arrived.
 */
export function createCoalescer<T>(
  task: (input: T) => Promise<void>,
  options: CoalescerOptions = {},
): Coalescer<T> {
  const windowMs = options.windowMs ?? 0;
  const clock = options.clock ?? systemClock;
  const slots = new Map<string, Slot<T>>();

  const launch = (key: string, slot: Slot<T>, round: Round<T>): void => {
    slot.busy = true;
    const wait = round.openedAt + windowMs - clock.now();
    const opened = round.scope.run(() => (wait > 0 ? clock.sleep(wait) : Promise.resolve()));
    const settle = (): void => {
      const following = slot.next;
      // A window that failed (its clock's sleep rejected) left this round as the next one: not run again.
      if (following && following !== round) launch(key, slot, following);
      else {
        slot.busy = false;
        slots.delete(key);
      }
    };
    opened
      .then(() => {
        // From here on, new calls open the following round.
        if (slot.next === round) slot.next = undefined;
        return round.scope.run(() => task(round.input));
      })
      .then(round.resolve, round.reject)
      .then(settle);
  };

  return {
    run(key, input) {
      let slot = slots.get(key);
      if (!slot) {
        slot = { busy: false, next: undefined };
        slots.set(key, slot);
      }
      if (slot.next) {
        slot.next.input = input;
        return slot.next.promise;
      }
      const round = openRound(input, clock.now());
      slot.next = round;
      if (!slot.busy) launch(key, slot, round);
      return round.promise;
    },
  };
}
