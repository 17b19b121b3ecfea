import { overdue, systemClock } from '@partner-print/openapi/wire';
import type { BucketObservation } from './bucket.ts';
import {
  type BucketRequest,
  type BucketSnapshot,
  MemoryStore,
  type RateLimitStore,
  type TakeResult,
} from './store.ts';

export interface FailoverOptions {
  /** A call slower than this counts as a failure. */
  timeoutMs: number;
  /** While down, the shared store is tried again after this long. */
  retryMs: number;
  /** The shared store failed or timed out: requests go on with the local store. */
  onDown: (error: string) => void;
  /** The shared store answers again. */
  onUp: () => void;
}

/**
 * A shared store (Redis) with a local fallback. Every answer is also applied to a local memory store, so
 * when the shared one fails (an error or a timeout), requests go on at once from live, header-learned
 * state instead of failing; the shared store is tried again every `retryMs` and taken back once it answers.
 * Tickets are this wrapper's own, mapped to the store that issued them.
 */
export class FailoverStore implements RateLimitStore {
  readonly #local = new MemoryStore();
  #downUntil = 0;
  #down = false;
  #next = 0;
  /**
   * Our ticket → the issuing store's, and for a shared one its mirror's ticket in the local store. Keyed by
   * numbers only: a ticket of undefined (none was issued) finds nothing.
   */
  readonly #tickets = new Map<
    number | undefined,
    { shared: boolean; ticket: number; mirror: number | undefined }
  >();

  readonly #shared: RateLimitStore;
  readonly #options: FailoverOptions;

  constructor(shared: RateLimitStore, options: FailoverOptions) {
    this.#shared = shared;
    this.#options = options;
  }

  async take(key: string, buckets: readonly BucketRequest[], now: number): Promise<TakeResult> {
    if (!this.#down || now >= this.#downUntil) {
      try {
        const result = await this.#call(() => this.#shared.take(key, buckets, now));
        this.#recovered();
        // The local store mirrors what is on the way: taking over mid-flight, it does not spend it again.
        return this.#issue(result, true, result.ok ? this.#local.hold(key, buckets, now) : undefined);
      } catch (error) {
        this.#failed(error, now);
      }
    }
    return this.#issue(await this.#local.take(key, buckets, now), false);
  }

  async observe(
    key: string,
    ticket: number | undefined,
    taken: readonly string[],
    observations: readonly BucketObservation[],
    now: number,
  ): Promise<void> {
    const issued = this.#tickets.get(ticket);
    this.#tickets.delete(ticket);
    if (issued?.shared) {
      // The local store keeps learning from every answer (and knows what is on the way), so a fallback
      // starts from live values.
      await this.#local.observe(key, issued.mirror, taken, observations, now);
      try {
        await this.#call(() => this.#shared.observe(key, issued.ticket, taken, observations, now));
      } catch (error) {
        this.#failed(error, now);
      }
      return;
    }
    await this.#local.observe(key, issued?.ticket, taken, observations, now);
  }

  async snapshot(key: string, now: number): Promise<Record<string, BucketSnapshot>> {
    if (this.#down) return this.#local.snapshot(key, now);
    try {
      return await this.#call(() => this.#shared.snapshot(key, now));
    } catch (error) {
      this.#failed(error, now);
      return this.#local.snapshot(key, now);
    }
  }

  #issue(result: TakeResult, shared: boolean, mirror?: number): TakeResult {
    if (!result.ok) return result;
    const ticket = ++this.#next;
    this.#tickets.set(ticket, { shared, ticket: result.ticket, mirror });
    return { ok: true, ticket };
  }

  /** `fn()`, failing after `timeoutMs` in which this process could have read its answer (see `overdue`). */
  #call<T>(fn: () => Promise<T>): Promise<T> {
    const { timeoutMs } = this.#options;
    return overdue(
      fn(),
      timeoutMs,
      systemClock,
      () => new Error(`the store did not answer within ${timeoutMs} ms`),
    );
  }

  #failed(error: unknown, now: number): void {
    this.#downUntil = now + this.#options.retryMs;
    if (this.#down) return;
    this.#down = true;
    this.#options.onDown(error instanceof Error ? error.message : String(error));
  }

  #recovered(): void {
    if (!this.#down) return;
    this.#down = false;
    this.#options.onUp();
  }
}
