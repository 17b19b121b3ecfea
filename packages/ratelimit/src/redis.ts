import type { BucketObservation } from './bucket.ts';
import { checkOptions } from './options.ts';
import { BUCKET_SCRIPT } from './redis-script.ts';
import type { BucketRequest, BucketSnapshot, RateLimitStore, TakeResult } from './store.ts';
import * as TUNING from './tuning.ts';

/**
 * Every constant of the bucket arithmetic (tuning.ts), for the script: one table for both stores. Named one by
 * one, not passed as the module's namespace: a bundle then holds a plain object of numbers, where a namespace
 * object costs a getter per name. A name left out here fails twins.test.ts, which compares the two.
 */
const TUNING_JSON = JSON.stringify({
  tauTokens: TUNING.tauTokens,
  windowTokens: TUNING.windowTokens,
  windowMs: TUNING.windowMs,
  reserveSeconds: TUNING.reserveSeconds,
  aloneAbove: TUNING.aloneAbove,
  tolerance: TUNING.tolerance,
  minShare: TUNING.minShare,
  increasePerWindow: TUNING.increasePerWindow,
  decrease: TUNING.decrease,
  cutEvery: TUNING.cutEvery,
  sharedAbove: TUNING.sharedAbove,
  reserveQuotaPart: TUNING.reserveQuotaPart,
  onTheirWayQuotaPart: TUNING.onTheirWayQuotaPart,
  unseenHalfLifeMs: TUNING.unseenHalfLifeMs,
  rttWeight: TUNING.rttWeight,
  staleFloorMs: TUNING.staleFloorMs,
  staleWindowParts: TUNING.staleWindowParts,
  decreaseOn429: TUNING.decreaseOn429,
  fractionalResetWidth: TUNING.fractionalResetWidth,
  startPaceMs: TUNING.startPaceMs,
  paceFreeQuotaPart: TUNING.paceFreeQuotaPart,
  paceBelowQuotaPart: TUNING.paceBelowQuotaPart,
});

/** A number the script wrote as text with 17 significant digits (`inf` when a wait has no end). */
function exactNumber(text: unknown): number {
  const s = String(text);
  if (s === 'inf') return Infinity;
  if (s === '-inf') return -Infinity;
  return Number(s);
}

/**
 * The part of a node-redis (v4/v5) client the store uses. Pass a connected client created by the caller;
 * the store never creates, connects or closes one.
 */
export interface RedisScriptClient {
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  scriptLoad(script: string): Promise<string>;
  sMembers(key: string): Promise<string[]>;
}

export interface RedisStoreOptions {
  /** A connected node-redis client (`createClient({ url }).connect()`). */
  client: RedisScriptClient;
  /** Key prefix. Default `pp:rl`. Keys are `<prefix>:{<budget key>}:…` (one cluster slot per budget). */
  prefix?: string;
  /** Whose clock the bucket arithmetic uses: the caller's `now` (default) or Redis `TIME`. */
  time?: 'caller' | 'redis';
  /** An in-flight request never answered (its process died) stops counting after this many ms. Default 60000. */
  staleMs?: number;
  /** Minimum key lifetime in ms (keys live at least two windows). Default 3600000. */
  ttlMs?: number;
}

/**
 * A {@link RateLimitStore} in Redis: every take and observe is one Lua script call (EVALSHA, falling back
 * to EVAL when the script cache was flushed), so processes on many machines share one budget atomically.
 */
export class RedisStore implements RateLimitStore {
  readonly #client: RedisScriptClient;
  readonly #prefix: string;
  readonly #redisTime: boolean;
  readonly #staleMs: number;
  readonly #ttlMs: number;
  #sha: Promise<string> | undefined;
  /**
   * Names this store instance's requests in Redis: its requests reach the server in ticket order, those of
   * other instances (other processes) may not, and the bucket arithmetic allows for that.
   */
  readonly #owner = crypto.randomUUID();

  constructor(options: RedisStoreOptions) {
    checkOptions('RedisStore', { staleMs: 1, ttlMs: 1 }, ['client', 'prefix', 'time'], options, true);
    this.#client = options.client;
    this.#prefix = options.prefix ?? 'pp:rl';
    this.#redisTime = options.time === 'redis';
    this.#staleMs = options.staleMs ?? 60_000;
    this.#ttlMs = options.ttlMs ?? 3_600_000;
  }

  async take(key: string, buckets: readonly BucketRequest[], now: number): Promise<TakeResult> {
    const reply = (await this.#run(
      'take',
      key,
      buckets.map((b) => b.name),
      now,
      { names: buckets.map((b) => b.name), buckets, owner: this.#owner },
    )) as [number, string, string?];
    if (reply[0] === 1) return { ok: true, ticket: Number(reply[1]) };
    return { ok: false, retryAt: exactNumber(reply[1]), pausedUntil: exactNumber(reply[2] ?? '0') };
  }

  async observe(
    key: string,
    ticket: number | undefined,
    taken: readonly string[],
    observations: readonly BucketObservation[],
    now: number,
  ): Promise<void> {
    const names = [...new Set([...taken, ...observations.map((o) => o.name)])];
    if (names.length === 0) return;
    await this.#run('observe', key, names, now, { ticket, names, taken, observations });
  }

  async snapshot(key: string, now: number): Promise<Record<string, BucketSnapshot>> {
    const names = await this.#client.sMembers(this.#keyOf(key, 'names'));
    if (names.length === 0) return {};
    const reply = await this.#run('snapshot', key, names, now, { names });
    const parsed = JSON.parse(String(reply)) as Record<string, Record<string, string | number | boolean>>;
    const out: Record<string, BucketSnapshot> = {};
    for (const [name, s] of Object.entries(parsed)) {
      out[name] = {
        quota: exactNumber(s.quota),
        windowSeconds: exactNumber(s.windowSeconds),
        tokens: exactNumber(s.tokens),
        foreignPerSecond: exactNumber(s.foreignPerSecond),
        share: exactNumber(s.share),
        pausedUntil: exactNumber(s.pausedUntil),
        inflight: Number(s.inflight),
        live: s.live === true,
      };
    }
    return out;
  }

  #keyOf(key: string, suffix: string): string {
    // The hash tag keeps one budget's keys in one cluster slot, as a multi-key script requires.
    return `${this.#prefix}:{${key}}:${suffix}`;
  }

  async #run(
    mode: string,
    key: string,
    names: readonly string[],
    now: number,
    payload: unknown,
  ): Promise<unknown> {
    const keys = [this.#keyOf(key, 'ticket'), this.#keyOf(key, 'names')];
    for (const name of names) keys.push(this.#keyOf(key, `b:${name}`), this.#keyOf(key, `q:${name}`));
    const args = [
      mode,
      String(now),
      this.#redisTime ? '1' : '0',
      JSON.stringify(payload),
      TUNING_JSON,
      String(this.#ttlMs),
      String(this.#staleMs),
    ];
    const options = { keys, arguments: args };
    this.#sha ??= this.#client.scriptLoad(BUCKET_SCRIPT).catch((error: unknown) => {
      this.#sha = undefined;
      throw error;
    });
    try {
      return await this.#client.evalSha(await this.#sha, options);
    } catch (error) {
      if (!String((error as Error)?.message ?? error).includes('NOSCRIPT')) throw error;
      // The script cache was flushed (restart, SCRIPT FLUSH): EVAL runs and caches it again.
      return this.#client.eval(BUCKET_SCRIPT, options);
    }
  }
}
