/**
 * The rejection of a request the scheduler did not send because what it needs is paused after a 429 until past
 * its `maxPauseMs`: waiting would outlast its caller's patience. Nothing was sent (of this attempt: `again`
 * says an earlier one of a request the scheduler retries was), so a POST among them took no effect. Told by its
 * `code`, `'rate_limit_paused'` (the SDK's errors are recognised by `code` or `instanceof`, and this package has
 * no error class of its own: `@partner-print/client` turns it into its `RateLimitedError`).
 */
export interface RateLimitPausedError extends Error {
  name: 'RateLimitPausedError';
  code: 'rate_limit_paused';
  /** What the pause is on: the buckets the request needs (a 429 that reported them empty) or its route. */
  scope: 'buckets' | 'route';
  /** `METHOD /path/template` of the request. */
  route: string;
  /** How long the pause still runs (ms), from when the request was refused. */
  retryAfterMs: number;
}

/** Whether `error` is the scheduler's refusal of a request that a pause would have held past its `maxPauseMs`. */
export const isRateLimitPaused = (error: unknown): error is RateLimitPausedError =>
  (error as { code?: unknown } | null)?.code === 'rate_limit_paused';

export function rateLimitPaused(
  scope: 'buckets' | 'route',
  route: string,
  retryAfterMs: number,
  again: boolean,
): RateLimitPausedError {
  return Object.assign(
    new Error(
      `${route}: not sent${again ? ' again' : ''}, its ${scope} paused after a 429 for another ${Math.ceil(retryAfterMs / 1000)} s, past its maxPauseMs`,
    ),
    { name: 'RateLimitPausedError' as const, code: 'rate_limit_paused' as const, scope, route, retryAfterMs },
  );
}
