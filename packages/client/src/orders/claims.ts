import { refuseUnknownOptions } from '@partner-print/openapi/wire';
import { ConfigurationError } from '../errors.ts';
import { checkMs } from '../options.ts';

/**
 * Who may POST an order with a given customIdentifier right now. createOrder takes the claim before it
 * looks the identifier up and keeps it until the outcome is known, so two callers sharing one claim store
 * never post the same identifier at once. The default store is per client, in process (give clients one
 * `memoryOrderClaims()` to share it); the Redis store
 * (`@partner-print/client/redis`) shares claims between processes.
 */
export interface OrderClaims {
  /** Waits until the caller holds the claim on `customIdentifier` (rejects on abort, or when the store cannot be reached and waiting is off). */
  acquire(customIdentifier: string, signal?: AbortSignal): Promise<OrderClaim>;
}

/** What an earlier holder recorded: the order it created, and its content key when known. */
export interface RecordedOrder {
  reference: string;
  content?: string;
}

export interface OrderClaim {
  /** The order an earlier holder created with this identifier, while the store remembers it. */
  readonly recorded: RecordedOrder | undefined;
  /**
   * An earlier holder posted and did not learn the outcome (it died, or lost its claim): its request may
   * still be running at the service, so the new holder waits out a settle window before posting.
   */
  readonly unsettled: boolean;
  /** Right before each POST: true while the claim is held (extending it), false to not post. */
  beforePost(): Promise<boolean>;
  /** Ends the claim: `created` is remembered for later callers; `unsettled` marks an unknown outcome. */
  release(outcome: { created?: RecordedOrder; unsettled?: boolean }): Promise<void>;
}

/**
 * The in-process claim store: one holder per identifier per store (a later caller, of this client or of
 * another client given the same store, waits for the release, or rejects with its signal's reason); it remembers the orders created for `rememberMs`, so a repeat
 * soon after is answered without a request even when the service's lookup lags behind its commits, and a
 * POST whose outcome its holder did not learn (for as long), so the next holder waits out a settle window
 * as it would with a shared store.
 */
export function memoryOrderClaims(options: { rememberMs?: number; now?: () => number } = {}): OrderClaims {
  // Checked as RedisOrderClaims checks it (undefined keeps the default; NaN, a negative number, null or a
  // string is refused): a NaN remembered nothing, so a repeat soon after a created order posted again.
  refuseUnknownOptions(options, ['rememberMs', 'now'], ConfigurationError, 'memoryOrderClaims: ');
  const { rememberMs = 10 * 60_000, now = Date.now } = options;
  checkMs({ rememberMs }, 0);
  const created = new Map<string, RecordedOrder & { at: number }>();
  /** POSTs whose outcome their holder did not learn, by when it said so. */
  const posted = new Map<string, number>();
  const prune = () => {
    // Map order is insertion order (re-set entries are deleted first), so the oldest come first.
    for (const [id, entry] of created) {
      if (now() - entry.at < rememberMs) break;
      created.delete(id);
    }
    for (const [id, at] of posted) {
      if (now() - at < rememberMs) break;
      posted.delete(id);
    }
  };
  /** The identifiers held, each with its waiters in order (the first is woken when the holder releases). */
  const held = new Map<string, Array<() => void>>();
  const wait = (queue: Array<() => void>, signal: AbortSignal | undefined) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const at = queue.indexOf(wake);
        if (at >= 0) queue.splice(at, 1);
        reject(signal?.reason);
      };
      queue.push(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  return {
    async acquire(id, signal) {
      // One holder per identifier: a later caller waits for the release (or its signal's abort).
      const queue = held.get(id);
      if (queue) await wait(queue, signal);
      else held.set(id, []);
      let released = false;
      prune();
      const entry = created.get(id);
      let sent = false;
      const wasUnsettled = posted.has(id);
      return {
        recorded: entry && {
          reference: entry.reference,
          ...(entry.content ? { content: entry.content } : {}),
        },
        unsettled: wasUnsettled,
        beforePost: async () => {
          sent = true;
          return !released;
        },
        async release({ created: order, unsettled }) {
          if (released) return;
          released = true;
          // The next waiter holds it now (it reads what this holder recorded below, after this returns).
          const next = held.get(id)?.shift();
          if (next) next();
          else held.delete(id);
          posted.delete(id);
          // Still unknown: this holder's POST, or an earlier one this holder did not settle.
          if (unsettled && (sent || wasUnsettled) && !order) posted.set(id, now());
          if (!order) return;
          created.delete(id);
          created.set(id, { ...order, at: now() });
        },
      };
    },
  };
}
