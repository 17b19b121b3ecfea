/** A virtual sleep waiting for its time. */
export interface Timer {
  due: number;
  readonly seq: number;
  readonly wake: () => void;
}

/** Pending timers in firing order: by due time, ties by registration order. */
export class TimerQueue {
  private readonly timers: Timer[] = [];
  private nextSeq = 0;

  get size(): number {
    return this.timers.length;
  }

  add(due: number, wake: () => void): Timer {
    const timer: Timer = { due, seq: this.nextSeq++, wake };
    // Binary search for the first timer due later: a new timer goes after every timer due at the same time.
    let low = 0;
    let high = this.timers.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.timers[mid]!.due <= due) low = mid + 1;
      else high = mid;
    }
    this.timers.splice(low, 0, timer);
    return timer;
  }

  remove(timer: Timer): void {
    const at = this.timers.indexOf(timer);
    if (at >= 0) this.timers.splice(at, 1);
  }

  /** The first timer due at or before `limit`, taken out of the queue. */
  takeDue(limit: number): Timer | undefined {
    const first = this.timers[0];
    return first && first.due <= limit ? this.timers.shift() : undefined;
  }

  /** Moves every pending timer by `ms`, keeping their order (the clock was set back or forth). */
  shift(ms: number): void {
    for (const timer of this.timers) timer.due += ms;
  }
}
