import { bindContext, type Clock, systemClock } from '@partner-print/openapi/wire';
import { abortReason, STORE_GRACE_MS, until } from './context.ts';

/** What one caller brings when it joins a shared task. */
export interface WaiterOptions<E = unknown> {
  /** The clock of the task; the first caller's clock is the one the task uses. */
  clock: Clock;
  signal?: AbortSignal | undefined;
  /** Receives the task's events (`ctx.emit`) while this caller waits. */
  listener?: ((event: E) => void) | undefined;
  /** Instant (clock milliseconds) after which this caller stops waiting; `Infinity` for none. */
  deadline?: number | undefined;
}

/** Handed to the task: its own abort signal (aborted when every caller has left) and a bounded sleep. */
export interface SharedContext<E = unknown> {
  readonly signal: AbortSignal;
  /** How many callers still wait for the task. */
  readonly waiting: number;
  /** `answer`, or a TimeoutError at the earliest deadline of the callers still waiting: a store call's bound. */
  within<A>(answer: A | Promise<A>): Promise<A>;
  /**
   * Whether any caller still waits, once the callers past their deadline have been let go (with their
   * timeout): asked before work that costs, which nobody should pay for when every caller has left.
   */
  wanted(): boolean;
  /** Sends an event to every caller still waiting (a throwing listener is ignored). */
  emit(event: E): void;
  /**
   * Sleeps `ms` on the clock, waking early at each caller's deadline to let that caller go with a timeout.
   * Rejects with the abort reason once no caller is left.
   */
  sleep(ms: number): Promise<void>;
  /**
   * A request of the task: `send(signal)`, during which each caller is let go at its deadline with its timeout,
   * as in `sleep`. `signal` aborts once no caller is left (whether or not the task goes on), so nobody waits for
   * a request nobody needs; then, when the task is not aborted with it, a caller who comes later starts afresh.
   */
  request<A>(send: (signal: AbortSignal) => Promise<A>): Promise<A>;
  /**
   * `pending`, a piece of work that must not be stopped (a POST /renders sent): each caller is let go at its
   * deadline while it runs, and the work goes on without them.
   */
  watch<A>(pending: Promise<A>): Promise<A>;
}

interface Waiter<T, E> {
  deadline: number;
  listener: ((event: E) => void) | undefined;
  resolve(value: T): void;
  reject(reason: unknown): void;
  detach(): void;
}

interface Entry<T, E> {
  clock: Clock;
  controller: AbortController;
  waiters: Set<Waiter<T, E>>;
  /** The requests in flight (`ctx.request`): aborted once no caller is left. */
  requests: Set<AbortController>;
  /** Wakes the deadline watch of the work in flight: a caller joined, and its deadline may be the earliest. */
  rearm: Set<() => void>;
}

/**
 * Runs one task per key however many callers ask for it at once. Each caller keeps its own AbortSignal and
 * deadline: leaving stops only its own wait. When the last caller leaves, the task's signal aborts and the
 * key is free for a fresh task (unless `abortWhenAbandoned` is off). Deadlines are checked against the injected clock
 * inside `ctx.sleep` and while a request or other work of the task is awaited (`ctx.request`, `ctx.watch`), with
 * one sleep on that clock for the earliest of them, so a virtual clock (whose sleep moves time at once) stays exact.
 * On a clock other than the system's, that sleep during a request starts only after STORE_GRACE_MS of real time
 * without an answer: the answer comes in real time, and the virtual clock would jump to the deadline meanwhile.
 */
export class SharedTasks<T, E = unknown> {
  readonly #entries = new Map<string, Entry<T, E>>();
  readonly #timeoutError: (deadline: number, key: string) => unknown;
  readonly #abortWhenAbandoned: boolean;

  /**
   * `abortWhenAbandoned`: `true` (polling): when the last caller leaves, abort the task and free the key.
   * `false` (spending tokens): let the task finish, so a request already sent is not sent twice.
   */
  constructor(timeoutError: (deadline: number, key: string) => unknown, abortWhenAbandoned = true) {
    this.#timeoutError = timeoutError;
    this.#abortWhenAbandoned = abortWhenAbandoned;
  }

  /** Number of tasks in flight (for tests and stats). */
  get size(): number {
    return this.#entries.size;
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  join(key: string, options: WaiterOptions<E>, task: (ctx: SharedContext<E>) => Promise<T>): Promise<T> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const deadline = options.deadline ?? Number.POSITIVE_INFINITY;
    if (options.clock.now() >= deadline) return Promise.reject(this.#timeoutError(deadline, key));

    let entry = this.#entries.get(key);
    const start = !entry;
    if (!entry) {
      entry = {
        clock: options.clock,
        controller: new AbortController(),
        waiters: new Set(),
        requests: new Set(),
        rearm: new Set(),
      };
      this.#entries.set(key, entry);
    }
    const current = entry;

    const promise = new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        leave(waiter);
        reject(abortReason(signal!));
      };
      const waiter: Waiter<T, E> = {
        deadline,
        // The task runs in its first caller's async context; each caller's progress events run in its own.
        listener: options.listener && bindContext(options.listener),
        resolve,
        reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      current.waiters.add(waiter);
      for (const rearm of current.rearm) rearm();
    });

    const leave = (waiter: Waiter<T, E>) => {
      waiter.detach();
      current.waiters.delete(waiter);
      if (current.waiters.size > 0) return;
      if (this.#abortWhenAbandoned) {
        if (this.#entries.get(key) === current) this.#entries.delete(key);
        current.controller.abort(abandoned());
      }
      if (current.requests.size === 0) return;
      // The task ends with its aborted request: a caller who comes now starts a task of its own.
      if (this.#entries.get(key) === current) this.#entries.delete(key);
      for (const request of current.requests) request.abort(abandoned());
    };

    const clock = current.clock;
    const expire = () => {
      const now = clock.now();
      for (const waiter of [...current.waiters]) {
        if (waiter.deadline <= now) {
          leave(waiter);
          waiter.reject(this.#timeoutError(waiter.deadline, key));
        }
      }
    };

    if (start) this.#run(key, current, task, expire);
    return promise;
  }

  /** Runs the task once for the key's first caller, and settles every caller still waiting with its outcome. */
  #run(
    key: string,
    current: Entry<T, E>,
    task: (ctx: SharedContext<E>) => Promise<T>,
    expire: () => void,
  ): void {
    const { clock } = current;
    const earliest = () => {
      let deadline = Number.POSITIVE_INFINITY;
      for (const waiter of current.waiters) deadline = Math.min(deadline, waiter.deadline);
      return deadline;
    };
    const ctx: SharedContext<E> = {
      signal: current.controller.signal,
      get waiting() {
        return current.waiters.size;
      },
      within: (answer) => until(clock, earliest(), answer),
      wanted: () => {
        expire();
        return current.waiters.size > 0;
      },
      emit: (event) => {
        for (const waiter of current.waiters) {
          try {
            waiter.listener?.(event);
          } catch {
            // a listener's failure is its own
          }
        }
      },
      request: (send) => {
        if (current.waiters.size === 0) {
          if (this.#entries.get(key) === current) this.#entries.delete(key);
          return Promise.reject(abandoned());
        }
        const controller = new AbortController();
        current.requests.add(controller);
        return watch(attempt(() => send(controller.signal))).finally(() =>
          current.requests.delete(controller),
        );
      },
      watch: (pending) => watch(pending),
      sleep: async (ms) => {
        const wakeAt = clock.now() + Math.max(0, ms);
        for (;;) {
          expire();
          if (current.controller.signal.aborted) throw abortReason(current.controller.signal);
          const now = clock.now();
          if (now >= wakeAt) return;
          await clock.sleep(Math.max(0, Math.min(wakeAt, earliest()) - now), current.controller.signal);
        }
      },
    };
    // While `pending` runs, lets each caller go at its deadline: one sleep on the clock for the earliest.
    const watch = <A>(pending: Promise<A>): Promise<A> => {
      const stop = new AbortController();
      void (async () => {
        if (clock !== systemClock) await systemClock.sleep(STORE_GRACE_MS, stop.signal);
        while (!stop.signal.aborted) {
          const wake = new AbortController();
          const rearm = () => wake.abort();
          current.rearm.add(rearm);
          stop.signal.addEventListener('abort', rearm, { once: true });
          try {
            const deadline = earliest();
            await (deadline === Number.POSITIVE_INFINITY
              ? new Promise((resolve) => wake.signal.addEventListener('abort', resolve, { once: true }))
              : clock.sleep(Math.max(0, deadline - clock.now()), wake.signal));
          } catch {
            // woken: a caller joined, or the work settled
          } finally {
            current.rearm.delete(rearm);
            stop.signal.removeEventListener('abort', rearm);
          }
          if (!stop.signal.aborted) expire();
        }
      })().catch(() => {});
      return pending.finally(() => stop.abort());
    };
    const finish = (settle: (waiter: Waiter<T, E>) => void) => {
      if (this.#entries.get(key) === current) this.#entries.delete(key);
      for (const waiter of current.waiters) {
        waiter.detach();
        settle(waiter);
      }
      current.waiters.clear();
    };
    // Start on a later microtask so every synchronous joiner is registered first.
    Promise.resolve()
      .then(() => task(ctx))
      .then(
        (value) => finish((waiter) => waiter.resolve(value)),
        (reason: unknown) => finish((waiter) => waiter.reject(reason)),
      );
  }
}

/** The abort of work nobody waits for any more. */
export const abandoned = (): DOMException => new DOMException('Every caller stopped waiting.', 'AbortError');

/** `run()`'s answer as a promise, a synchronous throw as a rejection. */
export function attempt<A>(run: () => A | Promise<A>): Promise<A> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}
