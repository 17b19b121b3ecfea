import {
  type BucketObservation,
  type BucketState,
  dispatch,
  foreignRate,
  newBucket,
  observe,
  refill,
  settle,
  takeAll,
} from './bucket.ts';

export type { BucketObservation } from './bucket.ts';

/** A bucket a request needs, with the policy to create it from if the store has not seen it yet. */
export interface BucketRequest {
  name: string;
  quota: number;
  windowSeconds: number;
}

/**
 * `retryAt` is infinite while the first response of a bucket is awaited (one request probes it). `pausedUntil`:
 * the end of the latest pause (a 429's) on the buckets asked for, 0 or absent when none is paused; a store of
 * your own may leave it out (the scheduler then judges no request by a pause: see `maxPauseMs`).
 */
export type TakeResult = { ok: true; ticket: number } | { ok: false; retryAt: number; pausedUntil?: number };

export interface BucketSnapshot {
  quota: number;
  windowSeconds: number;
  /** Tokens that may be dispatched now. */
  tokens: number;
  /** Learned consumption of others sharing the budget, tokens per second. */
  foreignPerSecond: number;
  /** The part (0..1] of the refill this store allows itself (AIMD; 1 when nobody else spends). */
  share: number;
  pausedUntil: number;
  inflight: number;
  live: boolean;
}

/**
 * Bucket state per budget key (an organization). Every method is atomic per key: a shared store lets
 * processes on many machines spend one organization's budget together.
 */
export interface RateLimitStore {
  /**
   * Takes one token from every bucket, all or nothing. On success returns a ticket (increasing per key)
   * that identifies the request when its response is observed.
   */
  take(key: string, buckets: readonly BucketRequest[], now: number): Promise<TakeResult>;
  /**
   * Records a response (or a failure without one, with no observations): releases the ticket from the
   * buckets it took and corrects each observed bucket from the server's values.
   */
  observe(
    key: string,
    ticket: number | undefined,
    taken: readonly string[],
    observations: readonly BucketObservation[],
    now: number,
  ): Promise<void>;
  snapshot(key: string, now: number): Promise<Record<string, BucketSnapshot>>;
}

/** In-process store: one process's view of each budget. */
export class MemoryStore implements RateLimitStore {
  readonly #keys = new Map<string, { ticket: number; buckets: Map<string, BucketState> }>();

  #entry(key: string): { ticket: number; buckets: Map<string, BucketState> } {
    let e = this.#keys.get(key);
    if (!e) {
      e = { ticket: 0, buckets: new Map() };
      this.#keys.set(key, e);
    }
    return e;
  }

  take(key: string, buckets: readonly BucketRequest[], now: number): Promise<TakeResult> {
    return Promise.resolve(this.takeNow(key, buckets, now));
  }

  /** {@link take}, answered at once: the scheduler admits a request without a promise hop. */
  takeNow(key: string, buckets: readonly BucketRequest[], now: number): TakeResult {
    const e = this.#entry(key);
    const states = this.#states(e, buckets, now);
    const ticket = e.ticket + 1;
    const result = takeAll(states, ticket, now);
    if (!result.ok) return result;
    e.ticket = ticket;
    return { ok: true, ticket };
  }

  /**
   * Records a request another store let go (a shared one this store mirrors) as on the way here too,
   * without asking; returns its ticket here, for {@link observe}. A mirror that has to take over then knows
   * what is still on the way.
   */
  hold(key: string, buckets: readonly BucketRequest[], now: number): number {
    const e = this.#entry(key);
    const states = this.#states(e, buckets, now);
    for (let i = 0; i < states.length; i++) {
      const b = states[i];
      if (b) refill(b, now);
    }
    e.ticket += 1;
    dispatch(states, e.ticket);
    return e.ticket;
  }

  #states(
    e: { buckets: Map<string, BucketState> },
    buckets: readonly BucketRequest[],
    now: number,
  ): BucketState[] {
    const states: BucketState[] = [];
    for (let i = 0; i < buckets.length; i++) {
      const spec = buckets[i];
      if (!spec) continue;
      let b = e.buckets.get(spec.name);
      if (!b) {
        b = newBucket(spec.quota, spec.windowSeconds, now);
        e.buckets.set(spec.name, b);
      }
      states.push(b);
    }
    return states;
  }

  observe(
    key: string,
    ticket: number | undefined,
    taken: readonly string[],
    observations: readonly BucketObservation[],
    now: number,
  ): Promise<void> {
    this.observeNow(key, ticket, taken, observations, now);
    return Promise.resolve();
  }

  /** {@link observe}, done at once: the scheduler reads an answer without a promise hop. */
  observeNow(
    key: string,
    ticket: number | undefined,
    taken: readonly string[],
    observations: readonly BucketObservation[],
    now: number,
  ): void {
    const e = this.#entry(key);
    for (let i = 0; i < observations.length; i++) {
      const o = observations[i];
      if (!o) continue;
      let b = e.buckets.get(o.name);
      if (!b) {
        if (o.quota === undefined || o.windowSeconds === undefined) continue;
        b = newBucket(o.quota, o.windowSeconds, now);
        e.buckets.set(o.name, b);
      }
      observe(b, ticket, o, now);
    }
    for (let i = 0; i < taken.length; i++) {
      const name = taken[i];
      // A bucket an observation was applied to has its ticket settled already.
      if (name === undefined || observes(observations, name)) continue;
      const b = e.buckets.get(name);
      if (b) {
        refill(b, now);
        settle(b, ticket);
      }
    }
  }

  snapshot(key: string, now: number): Promise<Record<string, BucketSnapshot>> {
    const out: Record<string, BucketSnapshot> = {};
    for (const [name, state] of this.#keys.get(key)?.buckets ?? []) {
      // A look changes nothing: the refill is computed on a copy.
      const b = { ...state };
      refill(b, now);
      out[name] = {
        quota: b.quota,
        windowSeconds: b.windowSeconds,
        tokens: b.tokens,
        foreignPerSecond: foreignRate(b),
        share: b.share,
        pausedUntil: b.pausedUntil,
        inflight: b.inflight.length,
        live: b.live,
      };
    }
    return Promise.resolve(out);
  }
}

function observes(observations: readonly BucketObservation[], name: string): boolean {
  for (let i = 0; i < observations.length; i++) if (observations[i]?.name === name) return true;
  return false;
}
