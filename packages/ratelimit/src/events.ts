import { quietly } from '@partner-print/openapi/wire';
import type { PolicySpec } from './routes.ts';

export interface SchedulerEvents {
  queued: { route: string; priority: number; queued: number };
  admitted: { route: string; buckets: readonly string[]; waitedMs: number; attempt: number };
  /**
   * A 429 was seen. `scope` says what it paused: the empty `buckets` (for everyone), only its `route` (an
   * answer without rate-limit fields), or nothing (`none`: rendertokens, or buckets with tokens left).
   */
  throttled: {
    route: string;
    buckets: readonly string[];
    retryAfterSeconds: number;
    attempt: number;
    scope: 'buckets' | 'route' | 'none';
    pauseMs: number;
  };
  retried: { route: string; attempt: number; delayMs: number };
  'policy-changed': { name: string; quota: number; windowSeconds: number; previous?: PolicySpec };
  /** The shared store failed or timed out: requests go on with the scheduler's own header learning. */
  'store-down': { error: string };
  /** The shared store answers again: the budget is shared again. */
  'store-up': Record<string, never>;
}

export type SchedulerEvent = keyof SchedulerEvents;

type Listener<E extends SchedulerEvent> = (payload: SchedulerEvents[E]) => void;

/** Typed listeners; a listener's failure never breaks scheduling. */
export class Emitter {
  // Each set only ever holds listeners of its own event (see `on`).
  readonly #listeners = new Map<SchedulerEvent, Set<(payload: never) => void>>();

  on<E extends SchedulerEvent>(event: E, listener: Listener<E>): () => void {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener);
    return () => this.off(event, listener);
  }

  off<E extends SchedulerEvent>(event: E, listener: Listener<E>): void {
    this.#listeners.get(event)?.delete(listener);
  }

  has(event: SchedulerEvent): boolean {
    return (this.#listeners.get(event)?.size ?? 0) > 0;
  }

  emit<E extends SchedulerEvent>(event: E, payload: SchedulerEvents[E]): void {
    const set = this.#listeners.get(event);
    if (!set) return;
    // A listener's failure (a throw, or an async one's rejection) must not break scheduling.
    for (const listener of set) quietly(() => (listener as Listener<E>)(payload));
  }
}
