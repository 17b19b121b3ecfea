import type { SandboxClock } from '../clock.ts';
import { droppedConnection } from '../faults.ts';

interface Pending {
  due: number;
  run(): void;
  cancel(): void;
}

/**
 * Commits that land later on the sandbox clock (the `late-commit` fault). A due commit runs synchronously when
 * the clock reaches its time (on advance in virtual time, by a timer in real time) and before any request is
 * handled, so whatever a client reads after that moment sees it.
 */
export class LateCommits {
  private pending: Pending[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly clock: SandboxClock) {
    clock.onAdvance(() => this.runDue());
  }

  /** Runs `commit` at `due` (sandbox ms); the promise settles with its result, or rejects on reset. */
  schedule<T>(due: number, commit: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const run = () => {
        try {
          resolve(commit());
        } catch (error) {
          reject(error);
        }
      };
      this.pending.push({ due, run, cancel: () => reject(droppedConnection()) });
      this.pending.sort((a, b) => a.due - b.due);
      this.runDue();
    });
  }

  /** Runs every commit whose time has come, oldest first. */
  runDue(): void {
    const now = this.clock.now();
    while (this.pending.length > 0 && this.pending[0]!.due <= now) this.pending.shift()!.run();
    if (this.clock.kind === 'real') this.arm();
  }

  /** Drops the pending commits (reset): their requests end as dropped connections. */
  cancelAll(): void {
    const pending = this.pending;
    this.pending = [];
    clearTimeout(this.timer);
    for (const p of pending) p.cancel();
  }

  private arm(): void {
    clearTimeout(this.timer);
    const next = this.pending[0];
    if (!next) return;
    this.timer = setTimeout(() => this.runDue(), Math.max(0, next.due - this.clock.now()));
    if (typeof this.timer === 'object' && 'unref' in this.timer) this.timer.unref();
  }
}
