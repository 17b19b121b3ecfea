import type { Reference } from '@partner-print/openapi';
import type { Clock } from '@partner-print/openapi/wire';
import type { OrderHistory } from './history.ts';

/** What a lookup of the identifier says about the order. */
export type Found = { kind: 'absent' } | { kind: 'same' | 'other'; reference: Reference<'Order'> };

/** The default settle window: long enough for a commit that lands after a timed-out attempt. */
export const settleWindowOf = (attemptMs: number, option: number | undefined): number =>
  option ?? Math.max(2 * attemptMs, 30_000);

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

/**
 * Looks the identifier up with backoff (250 ms doubling to 5 s) until the order shows or `windowMs` has
 * passed since `since`, ending with a lookup at the window's end: an earlier attempt still running at
 * the service, or a lookup lagging behind commits, shows within it. `unknown` when the last lookup
 * failed; an abort of `signal` rejects with its reason.
 */
export async function settle(
  find: () => Promise<Found>,
  clock: Clock,
  history: OrderHistory,
  since: number,
  windowMs: number,
  signal?: AbortSignal,
): Promise<Found | { kind: 'unknown'; cause: unknown }> {
  const deadline = since + windowMs;
  for (let delay = FIRST_DELAY_MS; ; delay = Math.min(2 * delay, MAX_DELAY_MS)) {
    let found: Found | { kind: 'unknown'; cause: unknown };
    try {
      found = await find();
      history.lookup(clock.now(), found.kind, found.kind === 'absent' ? undefined : found.reference);
    } catch (cause) {
      if (signal?.aborted) throw signal.reason;
      history.lookup(clock.now(), 'failed', cause instanceof Error ? cause : new Error(String(cause)));
      found = { kind: 'unknown', cause };
    }
    if (found.kind === 'same' || found.kind === 'other') return found;
    const left = deadline - clock.now();
    if (left <= 0) return found;
    await clock.sleep(Math.min(delay, left), signal);
  }
}
