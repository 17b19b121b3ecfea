import { ConfigurationError, PartnerPrintError } from '@partner-print/client/errors';
import {
  checkMs,
  type RedisAvailabilityEvent,
  type RedisScriptClient,
  replyNumber,
  ScriptRunner,
} from '@partner-print/client/redis';
import { bindContext, type Clock, refuseUnknownOptions, systemClock } from '@partner-print/openapi/wire';
import type { SharedCoalescer, SharedOutcome } from '../shared.ts';

/** Redis stopped or started answering (see the README for what this entry does meanwhile). */
export type RedisCoalescerEvent = RedisAvailabilityEvent;

import { ARRIVE, FINISH, RELEASE, RENEW, SEAL, STEP } from './scripts.ts';

export interface RedisCoalescerOptions {
  /** A node-redis client with an `error` listener (node-redis throws unhandled `error` events). */
  client: RedisScriptClient;
  /** Key prefix. Default `pp:cb`. Use one per environment and organization. */
  prefix?: string;
  /** How often a process waiting for another one's round asks Redis. Default 50 ms. */
  pollMs?: number;
  /** The runner's lease on an order; renewed while it runs, so only a dead runner's lease runs out. Default 30 000 ms. */
  leaseMs?: number;
  /** A Redis command not answered within this is a fault (fall back in process). Default 1 000 ms. */
  commandTimeoutMs?: number;
  /** After a fault, how long each process coalesces on its own before trying Redis again. Default 5 000 ms. */
  retryMs?: number;
  /** How long an order's counters live after its last notification. Default 1 hour. */
  ttlMs?: number;
  /** `redis-unavailable` when Redis stops answering (the fleet then coalesces per process), `redis-recovered`. */
  onEvent?: (event: RedisAvailabilityEvent) => void;
  /** Times polls, leases and command deadlines. Default: the system clock. */
  clock?: Clock;
}

/** A round of this order ran in another process and failed there: answer 500 so the service retries. */
export class CoalescedRoundError extends PartnerPrintError {
  override name = 'CoalescedRoundError';
  constructor() {
    super('The order update was handled by another process, and that failed; retry later.', {
      code: 'coalesced_round_failed',
      operation: 'orderUpdated',
    });
  }
}

interface Waiter {
  /** The arrival number Redis gave this call (0 until it has one). */
  n: number;
  resolve(outcome: SharedOutcome): void;
  reject(error: unknown): void;
}

interface OrderState {
  /** Calls waiting for their arrival number: they share the next ARRIVE. */
  arriving: Waiter[];
  numbering: boolean;
  /** Numbered calls waiting for a round that covers them. */
  waiters: Waiter[];
  /** The latest round handed in here: the one this process runs when it holds the lease. */
  round: () => Promise<void>;
  polling: boolean;
  /** The count sealed into the round this process is running for the order (0 when none runs here). */
  sealed: number;
  /** Wakes this process's lead from its window when Redis fails (there is then no round to lead). */
  wake: AbortController | undefined;
}

type Timing = { windowMs: number; clock: Clock };

interface Step {
  done: number;
  failed: number;
  acquired: boolean;
  open: number | undefined;
}

function readStep(reply: unknown): Step {
  if (!Array.isArray(reply) || reply.length < 4)
    throw new TypeError('Unexpected reply from the Redis script');
  const open = reply[3] === '' || reply[3] === null ? undefined : replyNumber(reply[3]);
  return {
    done: replyNumber(reply[0]),
    failed: replyNumber(reply[1]),
    acquired: replyNumber(reply[2]) === 1,
    open,
  };
}

/** Settles the waiters a round covers: those up to `done` succeeded, those up to `failed` failed. */
function settle(state: OrderState, done: number, failed: number, error: () => unknown): void {
  state.waiters = state.waiters.filter((waiter) => {
    if (waiter.n <= done) waiter.resolve('done');
    else if (waiter.n <= failed) waiter.reject(error());
    else return true;
    return false;
  });
}

/** Redis failed a moment ago: calls skip it until the runner's retry time instead of queueing on a dead connection. */
class RedisDownError extends Error {
  override name = 'RedisDownError';
}

/**
 * A {@link SharedCoalescer} on Redis: notifications for one order anywhere in the fleet share rounds.
 * Each notification is numbered on arrival; one process at a time holds the order's lease, waits out the
 * window opened by the order's first unsealed arrival, seals the count and runs the round; the others
 * wait until a round that covers their number has finished. A dead runner's lease expires and another
 * process runs the round. When Redis does not answer, calls resolve `'unavailable'` and the handler
 * coalesces in its own process: nothing is lost, only the sharing.
 */
export class RedisCoalescer implements SharedCoalescer {
  readonly #runner: ScriptRunner;
  readonly #prefix: string;
  readonly #pollMs: number;
  readonly #leaseMs: number;
  readonly #ttlMs: number;
  readonly #clock: Clock;
  readonly #orders = new Map<string, OrderState>();
  readonly #token = crypto.randomUUID();

  constructor(options: RedisCoalescerOptions) {
    // A misspelt option was ignored (`windowMs` belongs to the handler; `pollMS` kept the default).
    refuseUnknownOptions(
      options,
      ['client', 'prefix', 'pollMs', 'leaseMs', 'commandTimeoutMs', 'retryMs', 'ttlMs', 'onEvent', 'clock'],
      ConfigurationError,
      'createRedisCoalescer: ',
    );
    this.#clock = options.clock ?? systemClock;
    this.#prefix = options.prefix ?? 'pp:cb';
    this.#pollMs = options.pollMs ?? 50;
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#ttlMs = options.ttlMs ?? 3_600_000;
    // A NaN or 0 here polls Redis in a tight loop, or makes every script fail (a PX of NaN), which the
    // runner takes for Redis being down: the fleet would stop sharing with a misleading redis-unavailable.
    checkMs({ pollMs: this.#pollMs, leaseMs: this.#leaseMs, ttlMs: this.#ttlMs }, 1);
    this.#runner = new ScriptRunner(options.client, {
      clock: this.#clock,
      commandTimeoutMs: options.commandTimeoutMs ?? 1_000,
      retryMs: options.retryMs ?? 5_000,
      onEvent: (event) => {
        if (event.type === 'redis-unavailable') this.#fallBack();
        options.onEvent?.(event);
      },
    });
  }

  /**
   * Redis failed: every call waiting here runs its round in process now, not when its own command would
   * have failed (a lead asleep in its window would otherwise notice only at the window's end, after the
   * burst, and its calls would cost a further round). Calls a round running here covers stay with it.
   */
  #fallBack(): void {
    for (const state of this.#orders.values()) {
      state.wake?.abort(new RedisDownError('Redis is unavailable'));
      state.waiters = state.waiters.filter((waiter) => {
        if (waiter.n <= state.sealed) return true;
        waiter.resolve('unavailable');
        return false;
      });
    }
  }

  /** A script, failing at once while Redis counts as down (node-redis would queue it until its deadline). */
  #call(script: string, keys: string[], args: string[]): Promise<unknown> {
    if (!this.#runner.available) return Promise.reject(new RedisDownError('Redis is unavailable'));
    return this.#runner.run(script, keys, args);
  }

  run(key: string, round: () => Promise<void>, timing: Timing): Promise<SharedOutcome> {
    if (!this.#runner.available) return Promise.resolve('unavailable');
    let state = this.#orders.get(key);
    if (!state) {
      state = {
        arriving: [],
        numbering: false,
        waiters: [],
        round,
        polling: false,
        sealed: 0,
        wake: undefined,
      };
      this.#orders.set(key, state);
    }
    // The round runs in the async context of the call it came with (its trace, its request-scoped logger),
    // not in that of the call whose numbering loop happens to lead it.
    state.round = bindContext(round);
    const order = state;
    const outcome = new Promise<SharedOutcome>((resolve, reject) => {
      order.arriving.push({ n: 0, resolve, reject });
    });
    if (!order.numbering) void this.#number(key, order, timing);
    return outcome;
  }

  /**
   * Numbers the calls that arrived, one ARRIVE per batch: calls arriving while one is in flight share
   * the next, whose number is still given after they arrived. So Redis sees a few commands per order
   * and process, however many notifications come in.
   */
  async #number(key: string, state: OrderState, timing: Timing): Promise<void> {
    state.numbering = true;
    while (state.arriving.length > 0) {
      const batch = state.arriving.splice(0);
      try {
        const reply = await this.#call(
          ARRIVE,
          [this.#hash(key)],
          [String(timing.clock.now()), String(this.#ttlMs)],
        );
        const n = replyNumber(reply);
        for (const waiter of batch) waiter.n = n;
        state.waiters.push(...batch);
        if (!state.polling) void this.#poll(key, state, timing);
      } catch {
        for (const waiter of batch) waiter.resolve('unavailable');
      }
    }
    state.numbering = false;
    this.#forget(key, state);
  }

  #forget(key: string, state: OrderState): void {
    const idle = !state.numbering && !state.polling && state.arriving.length + state.waiters.length === 0;
    if (idle && this.#orders.get(key) === state) this.#orders.delete(key);
  }

  #hash(key: string): string {
    return `${this.#prefix}:{${key}}`;
  }

  #lock(key: string): string {
    return `${this.#prefix}:{${key}}:lock`;
  }

  /** One loop per order and process: until every waiter here is settled, lead a round or wait for one. */
  async #poll(key: string, state: OrderState, timing: Timing): Promise<void> {
    state.polling = true;
    try {
      while (state.waiters.length > 0) {
        const want = Math.max(...state.waiters.map((w) => w.n));
        const step = readStep(
          await this.#call(
            STEP,
            [this.#hash(key), this.#lock(key)],
            [String(want), this.#token, String(this.#leaseMs)],
          ),
        );
        settle(state, step.done, step.failed, () => new CoalescedRoundError());
        if (step.acquired) await this.#lead(key, state, step.open, timing);
        else if (state.waiters.length > 0) await this.#clock.sleep(this.#pollMs);
      }
    } catch {
      // Redis failed under us: every waiter here runs its round in process instead.
      for (const waiter of state.waiters.splice(0)) waiter.resolve('unavailable');
    } finally {
      state.polling = false;
      this.#forget(key, state);
    }
  }

  /** Holds the lease: waits out the window, seals the arrivals, runs the round, records the outcome. */
  async #lead(key: string, state: OrderState, open: number | undefined, timing: Timing): Promise<void> {
    const renewing = this.#renew(key);
    state.wake = new AbortController();
    let finished = false;
    try {
      const wait = (open ?? timing.clock.now()) + timing.windowMs - timing.clock.now();
      if (wait > 0) await timing.clock.sleep(wait, state.wake.signal);
      const want = Math.max(0, ...state.waiters.map((w) => w.n));
      state.sealed = replyNumber(
        await this.#call(SEAL, [this.#hash(key)], [String(want), String(this.#ttlMs), this.#token]),
      );
      finished = true;
      await this.#runSealed(key, state, state.sealed);
    } finally {
      state.wake = undefined;
      state.sealed = 0;
      renewing.abort();
      // A lead that gives up (Redis failed here) frees the lease: the other processes' calls must not
      // wait it out. Past the runner's availability gate: a fault of another command is no reason to
      // keep the lease, and if Redis is really gone the lease expires anyway.
      if (!finished) await this.#runner.run(RELEASE, [this.#lock(key)], [this.#token]).catch(() => {});
    }
  }

  /** Runs the round sealed at `m`, settles the calls here it covers, and records its outcome in Redis. */
  async #runSealed(key: string, state: OrderState, m: number): Promise<void> {
    let failure: { error: unknown } | undefined;
    try {
      await state.round();
    } catch (error) {
      failure = { error };
    }
    settle(state, failure ? 0 : m, failure ? m : 0, () => failure?.error);
    // Past the runner's availability gate, as every other process waits for this record: a timeout of
    // another command here (a loaded process) must not leave them to wait out the lease.
    await this.#runner
      .run(
        FINISH,
        [this.#hash(key), this.#lock(key)],
        [this.#token, String(m), failure ? '0' : '1', String(this.#ttlMs)],
      )
      .catch(() => {}); // the waiters here are settled; the others fall back when Redis fails them
  }

  /** Renews the lease every third of its length until aborted. */
  #renew(key: string): AbortController {
    const stop = new AbortController();
    const loop = async (): Promise<void> => {
      for (;;) {
        await this.#clock.sleep(this.#leaseMs / 3, stop.signal);
        await this.#call(RENEW, [this.#lock(key)], [this.#token, String(this.#leaseMs)]).catch(() => {});
      }
    };
    loop().catch(() => {});
    return stop;
  }
}

/** Creates a {@link RedisCoalescer} for `createOrderUpdatedHandler({ coalescer })`. */
export function createRedisCoalescer(options: RedisCoalescerOptions): RedisCoalescer {
  return new RedisCoalescer(options);
}
