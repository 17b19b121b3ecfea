/**
 * A request the scheduler did not send because what it needs is paused after a 429 until past its `maxPauseMs`:
 * waiting would outlast its caller's patience. Nothing was sent, so a POST among them took no effect. Its
 * fields say what is paused and until when.
 */
export class RateLimitPausedError extends Error {
  override name = 'RateLimitPausedError';
  /** What the pause is on: the buckets the request needs (a 429 that reported them empty) or its route. */
  declare readonly scope: 'buckets' | 'route';
  /** `METHOD /path/template` of the request. */
  declare readonly route: string;
  /** How long the pause still runs (ms), from when the request was refused. */
  declare readonly retryAfterMs: number;
  constructor(scope: 'buckets' | 'route', route: string, retryAfterMs: number) {
    super(
      `${route}: not sent, its ${scope} paused after a 429 for another ${Math.ceil(retryAfterMs / 1000)} s, past its maxPauseMs`,
    );
    this.scope = scope;
    this.route = route;
    this.retryAfterMs = retryAfterMs;
  }
}
