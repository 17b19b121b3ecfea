import { type Clock, overdue, refuseUnknownOptions, systemClock } from '@partner-print/openapi/wire';
import { ConfigurationError } from '../errors.ts';
import { checkMs } from '../options.ts';
import type { OrderClaim, OrderClaims } from '../orders/claims.ts';
import { OrderClaimUnavailableError } from '../orders/errors.ts';
import { ACQUIRE, RELEASE, RENEW } from './scripts.ts';

/** The part of a node-redis (v4/v5) client the claims use: pass a connected client; it is never closed here. */
export interface RedisEvalClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

// Each comment sits on its member's `type`: a comment between union members is not kept in declarations.
export type OrderClaimEvent =
  | {
      /** Redis could not be reached (or did not answer in time): no claim is taken, nothing is posted. */
      type: 'unavailable';
      error: unknown;
    }
  | {
      /** Redis answers again after being unavailable. */
      type: 'available';
    }
  | {
      /** A held claim could not be renewed (it expired or was taken over): its holder will not post again. */
      type: 'lost';
      customIdentifier: string;
    }
  | {
      /** A claim could not be released; it expires after `ttlMs` (others wait until then). */
      type: 'release-failed';
      customIdentifier: string;
      error: unknown;
    };

export interface RedisOrderClaimsOptions {
  client: RedisEvalClient;
  /** Key prefix; keys are `<prefix>:{<customIdentifier>}`. Use one prefix per organization. Default `pp:order-claim`. */
  prefix?: string;
  /** A claim lasts this long unless its holder renews it (every ttlMs / 3 while alive). Default 30 000. */
  ttlMs?: number;
  /** How long the order a holder created is remembered for later callers. Default 600 000. */
  rememberMs?: number;
  /** A Redis call without an answer within this long counts as Redis being unavailable. Default 2 000. */
  commandTimeoutMs?: number;
  /** While Redis is unavailable: `wait` (default) until it is back (at most `maxWaitMs`), or `error` at once. Never post. */
  onUnavailable?: 'wait' | 'error';
  /** Default 300 000. */
  maxWaitMs?: number;
  /** Time source for waits (default the system clock). */
  clock?: Clock;
  on?: (event: OrderClaimEvent) => void;
}

type Reply = { taken: boolean; msLeft: number; ref: string; unsettled: boolean; content: string };
const toReply = (value: unknown): Reply => {
  const [taken, msLeft, ref, unsettled, content] = Array.isArray(value) ? value : [];
  return {
    taken: Number(taken) === 1,
    msLeft: Number(msLeft) || 0,
    ref: String(ref ?? ''),
    unsettled: Number(unsettled) === 1,
    content: String(content ?? ''),
  };
};

/**
 * Order claims shared through Redis: a claim per customIdentifier (taken if absent, with an expiry and the
 * holder's token; renewed while held; released by compare-and-delete), so processes sharing one Redis never
 * post one identifier at once, and a holder that dies mid-flight makes the next one wait out a settle window.
 * Fails closed: while Redis is unavailable nothing is posted (wait, or OrderClaimUnavailableError).
 */
export class RedisOrderClaims implements OrderClaims {
  readonly #o: Required<Omit<RedisOrderClaimsOptions, 'on'>> & Pick<RedisOrderClaimsOptions, 'on'>;
  #down = false;
  /** Releases an outage put off, still being retried, each with what stops its retries. */
  readonly #owed = new Map<Promise<void>, AbortController>();

  constructor(options: RedisOrderClaimsOptions) {
    this.#o = {
      prefix: 'pp:order-claim',
      ttlMs: 30_000,
      rememberMs: 600_000,
      commandTimeoutMs: 2_000,
      onUnavailable: 'wait',
      maxWaitMs: 300_000,
      clock: systemClock,
      // An option given as undefined keeps its default.
      ...(Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as typeof options),
    };
    // A misspelt option was ignored (`rememberMS` kept the default); an onUnavailable other than 'error' waited.
    refuseUnknownOptions(
      options,
      [
        'client',
        'prefix',
        'ttlMs',
        'rememberMs',
        'commandTimeoutMs',
        'onUnavailable',
        'maxWaitMs',
        'clock',
        'on',
      ],
      ConfigurationError,
      'RedisOrderClaims: ',
    );
    const { commandTimeoutMs, ttlMs, rememberMs, maxWaitMs, onUnavailable } = this.#o;
    if (onUnavailable !== 'wait' && onUnavailable !== 'error')
      throw new ConfigurationError("RedisOrderClaims: onUnavailable must be 'wait' or 'error'");
    checkMs({ commandTimeoutMs, ttlMs }, 1);
    checkMs({ rememberMs, maxWaitMs }, 0);
  }

  #emit(event: OrderClaimEvent) {
    try {
      this.#o.on?.(event);
    } catch {
      // A failing listener must not change what the claims do.
    }
  }

  /** One script call, failing after `commandTimeoutMs`; tracks Redis going away and coming back. */
  async #run(script: string, id: string, args: Array<string | number>): Promise<unknown> {
    try {
      const call = this.#o.client.eval(script, {
        keys: [`${this.#o.prefix}:{${id}}`],
        arguments: args.map(String),
      });
      // Real time, whatever the waits' clock; a stall of this process is not counted against Redis (`overdue`).
      const { commandTimeoutMs } = this.#o;
      const result = await overdue(
        call,
        commandTimeoutMs,
        systemClock,
        () => new Error(`no answer from Redis within ${commandTimeoutMs} ms`),
      );
      if (this.#down) {
        this.#down = false;
        this.#emit({ type: 'available' });
      }
      return result;
    } catch (error) {
      if (!this.#down) {
        this.#down = true;
        this.#emit({ type: 'unavailable', error });
      }
      throw error;
    }
  }

  async #tryRelease(id: string, args: Array<string | number>): Promise<boolean> {
    try {
      await this.#run(RELEASE, id, args);
      return true;
    } catch {
      return false;
    }
  }

  async #releaseLater(
    id: string,
    args: Array<string | number>,
    until: number,
    stop: AbortSignal,
  ): Promise<void> {
    const { clock } = this.#o;
    let error = new Error('Redis unreachable until the claim expired');
    try {
      for (let wait = 100; clock.now() + wait < until; wait = Math.min(2 * wait, 2_000)) {
        await clock.sleep(wait, stop);
        if (await this.#tryRelease(id, args)) return;
        stop.throwIfAborted();
      }
    } catch {
      error = new Error('the release was given up (abandonReleases) before Redis answered');
    }
    this.#emit({ type: 'release-failed', customIdentifier: id, error });
  }

  /**
   * Stops retrying the releases an outage put off: each ends with a `release-failed` event, and its claim
   * expires after `ttlMs` (others wait until then). For a process that leaves without waiting for them (after
   * {@link flush} with an aborted signal): no retry starts after it, so none keeps the process alive (a
   * retry in flight ends with its command, at the latest after `commandTimeoutMs`).
   */
  abandonReleases(): void {
    for (const stop of this.#owed.values()) stop.abort();
  }

  /** How many releases an outage put off are still being retried (see {@link flush}). */
  get pendingReleases(): number {
    return this.#owed.size;
  }

  /**
   * Resolves once every release an outage put off has reached Redis, or been given up when its claim
   * expired (a `release-failed` event): call it before closing the Redis client, so a process that ends
   * right after an outage does not leave claims holding other processes for `ttlMs`. Nothing owed: it
   * resolves at once. `signal` ends the wait early, without an error (the retries go on in the background
   * while the process lives, unless {@link abandonReleases} stops them).
   */
  async flush(signal?: AbortSignal): Promise<void> {
    while (this.#owed.size > 0 && !signal?.aborted) {
      let stop = () => {};
      const stopped = new Promise<void>((resolve) => {
        stop = () => resolve();
        signal?.addEventListener('abort', stop, { once: true });
      });
      await Promise.race([Promise.all(this.#owed.keys()), stopped]);
      signal?.removeEventListener('abort', stop);
    }
  }

  async acquire(id: string, signal?: AbortSignal): Promise<OrderClaim> {
    // One token per acquisition: a call that timed out but ran later left a claim this retry takes as its own.
    const token = crypto.randomUUID();
    const { clock, ttlMs, rememberMs, maxWaitMs } = this.#o;
    const giveUp = clock.now() + maxWaitMs;
    for (let poll = 10; ; poll = Math.min(2 * poll, 200)) {
      let reply: Reply;
      try {
        reply = toReply(await this.#run(ACQUIRE, id, [token, ttlMs, Math.max(rememberMs, 2 * ttlMs)]));
      } catch (error) {
        if (this.#o.onUnavailable === 'error' || clock.now() >= giveUp) throw unavailable(id, error);
        await clock.sleep(Math.min(1_000, 4 * poll), signal);
        continue;
      }
      if (reply.taken) return this.#claim(id, token, reply);
      await clock.sleep(Math.min(reply.msLeft, poll), signal);
    }
  }

  /**
   * The heartbeat of a claim held: renewed every `ttlMs / 3` of the claims' clock (a sleep its release cancels,
   * so no timer outlives the claim) until released (`stop`) or lost; a renewal Redis missed waits for the next.
   */
  async #beat(renew: (posting: boolean) => Promise<boolean>, stop: AbortSignal): Promise<void> {
    try {
      for (;;) {
        await this.#o.clock.sleep(Math.max(this.#o.ttlMs / 3, 10), stop);
        if (!(await renew(false).catch(() => true))) return;
      }
    } catch {
      // Released.
    }
  }

  #claim(id: string, token: string, reply: Reply): OrderClaim {
    const { ttlMs, rememberMs, clock } = this.#o;
    let heldUntil = clock.now() + ttlMs; // our own estimate, only ever earlier than Redis's
    let lost = false;
    const renew = async (posting: boolean) => {
      const started = clock.now();
      const ok =
        Number(
          await this.#run(RENEW, id, [token, ttlMs, posting ? 1 : 0, Math.max(rememberMs, 2 * ttlMs)]),
        ) === 1;
      if (ok) heldUntil = started + ttlMs;
      else if (!lost) {
        lost = true;
        this.#emit({ type: 'lost', customIdentifier: id });
      }
      return ok;
    };
    const held = new AbortController();
    void this.#beat(renew, held.signal);
    return {
      recorded: reply.ref
        ? { reference: reply.ref, ...(reply.content ? { content: reply.content } : {}) }
        : undefined,
      unsettled: reply.unsettled,
      beforePost: async () => {
        // Renewed and marked "posting" in one step; while Redis does not answer, retry as long as the claim
        // surely still runs, then do not post.
        const margin = Math.min(1_000, ttlMs / 3);
        for (let wait = 50; !lost && clock.now() < heldUntil - margin; wait = Math.min(2 * wait, 1_000)) {
          try {
            return await renew(true);
          } catch {
            await clock.sleep(wait);
          }
        }
        return false;
      },
      release: async ({ created, unsettled }) => {
        held.abort();
        const args = [
          token,
          created?.reference ?? '',
          unsettled ? 1 : 0,
          this.#o.rememberMs,
          created?.content ?? '',
        ];
        // The caller has its answer; a release Redis missed is retried in the background until the claim
        // would have expired anyway, so others do not wait out ttlMs after a short outage.
        if (await this.#tryRelease(id, args)) return;
        const stop = new AbortController();
        const later: Promise<void> = this.#releaseLater(id, args, clock.now() + ttlMs, stop.signal).finally(
          () => this.#owed.delete(later),
        );
        this.#owed.set(later, stop);
      },
    };
  }
}

function unavailable(id: string, cause: unknown): OrderClaimUnavailableError {
  return new OrderClaimUnavailableError(
    `createOrder (customIdentifier ${JSON.stringify(id)}): the order claim could not be taken because Redis is unavailable; nothing was posted`,
    { code: 'claim_unavailable', cause },
  );
}
