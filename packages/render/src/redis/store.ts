import { ConfigurationError } from '@partner-print/client/errors';
import {
  checkMs,
  type RedisAvailabilityEvent,
  type RedisScriptClient,
  ScriptRunner,
} from '@partner-print/client/redis';
import { type Clock, refuseUnknownOptions, systemClock } from '@partner-print/openapi/wire';
import { MemoryRenderStore, type RenderLease, type RenderStore } from '../cache.ts';

/** The latest write of a key Redis may have missed, and the values this worker had seen at the key before it. */
interface Missed {
  value: string | undefined;
  seen: string[];
}

/** Redis stopped or started answering (see the README for what this entry does meanwhile). */
export type RedisStoreEvent = RedisAvailabilityEvent;

export interface RedisRenderStoreOptions {
  /** A node-redis client with an `error` listener (node-redis throws unhandled `error` events). */
  client: RedisScriptClient;
  /** Key prefix. Default `pp:render`. References are per organization and environment: one prefix each. */
  prefix?: string;
  /**
   * A worker's lease on a (composition, image): renewed every `leaseMs / 3` while its worker holds it (however
   * long its POST takes), it expires by itself `leaseMs` after the worker dies or stalls. Default 30 000 ms.
   */
  leaseMs?: number;
  /** How often a worker waiting for another one's render looks for its reference. Default 250 ms. */
  pollMs?: number;
  /** How long a known render reference is kept. Default 30 days. */
  ttlMs?: number;
  /** A Redis command not answered within this is a fault (fall back in process). Default 1 000 ms. */
  commandTimeoutMs?: number;
  /** After a fault, how long the store stays in process before trying Redis again. Default 5 000 ms. */
  retryMs?: number;
  /** `redis-unavailable` when Redis stops answering (renders are then kept and leased in process), `redis-recovered`. */
  onEvent?: (event: RedisAvailabilityEvent) => void;
  clock?: Clock;
}

const GET = `return redis.call('GET', KEYS[1])`;
const SET = `return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])`;
const DEL = `return redis.call('DEL', KEYS[1])`;
/**
 * KEYS: reference. ARGV: value ('' for a delete), ttlMs, then the values this worker had seen at the key before
 * that write. The latest write Redis missed, unless another worker wrote the key since: it is made when Redis holds
 * nothing, that value, or one this worker had seen there (its write is the newer); otherwise the other worker's
 * value stays (its write is). The value the key holds now, or false.
 */
const MISSED = `local v = redis.call('GET', KEYS[1])
local ours = not v or v == ARGV[1]
for i = 3, #ARGV do if v == ARGV[i] then ours = true end end
if not ours then return v end
if ARGV[1] == '' then redis.call('DEL', KEYS[1]) return false end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ARGV[1]`;
/** KEYS: lease. ARGV: token, leaseMs. 1 when taken. */
const LEASE = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end return 0`;
/** KEYS: lease. ARGV: token. Frees the lease only while its holder still has it. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
/** KEYS: lease. ARGV: token, leaseMs. Extends the lease only while its holder still has it: 1, else 0. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

/**
 * A {@link RenderStore} in Redis for a fleet of render workers: known render references, and a lease per
 * (composition, image) so that one worker submits the render while the others wait for its reference.
 * Every reference is also kept in memory; when Redis does not answer, the store works from that copy and
 * leases in process (each worker then renders on its own): nothing is lost, only the sharing.
 */
export class RedisRenderStore implements RenderStore {
  readonly #runner: ScriptRunner;
  readonly #memory = new MemoryRenderStore();
  readonly #prefix: string;
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #ttlMs: number;
  readonly #clock: Clock;
  #tokens = 0;
  readonly #owner = crypto.randomUUID();
  /**
   * Writes of this worker Redis may have missed (it failed, or counted as down), by key: the latest (the value
   * stored, or `undefined` for a delete), and every value this worker had seen at the key before it (a render it
   * stored and then deleted, a stale one it replaced). The next look-up makes up for them, so this worker answers
   * as one process would rather than from what Redis still has (a render it paid for, unknown; a failed one it
   * deleted, known). Only the latest write matters, written over any value of that history: replaying them in
   * order would come to the same, one command instead of several.
   */
  readonly #missed = new Map<string, Missed>();

  constructor(options: RedisRenderStoreOptions) {
    // A misspelt option was ignored (`leaseMS` kept the 30 s lease).
    refuseUnknownOptions(
      options,
      ['client', 'prefix', 'leaseMs', 'pollMs', 'ttlMs', 'commandTimeoutMs', 'retryMs', 'onEvent', 'clock'],
      ConfigurationError,
      'RedisRenderStore: ',
    );
    this.#prefix = options.prefix ?? 'pp:render';
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#pollMs = options.pollMs ?? 250;
    this.#ttlMs = options.ttlMs ?? 30 * 24 * 3_600_000;
    // A NaN or 0 here looks for a reference in a tight loop, or makes every lease or write fail (a PX of NaN),
    // which the runner takes for Redis being down: the fleet would stop sharing with a misleading event.
    checkMs({ pollMs: this.#pollMs, leaseMs: this.#leaseMs, ttlMs: this.#ttlMs }, 1);
    this.#clock = options.clock ?? systemClock;
    this.#runner = new ScriptRunner(options.client, {
      clock: this.#clock,
      commandTimeoutMs: options.commandTimeoutMs ?? 1_000,
      retryMs: options.retryMs ?? 5_000,
      onEvent: options.onEvent,
    });
  }

  async get(key: string): Promise<string | undefined> {
    // Redis first: another worker may have stored a newer reference or deleted a failed one, and the fleet
    // must answer as one process would. The copy in memory answers only while Redis does not.
    if (!this.#runner.available) return this.#memory.get(key);
    try {
      const missed = this.#missed.get(key);
      const reply = missed
        ? await this.#runner.run(
            MISSED,
            [this.#key(key)],
            [missed.value ?? '', String(this.#ttlMs), ...missed.seen],
          )
        : await this.#runner.run(GET, [this.#key(key)], []);
      if (this.#missed.get(key) === missed) this.#missed.delete(key);
      if (typeof reply !== 'string') {
        this.#memory.delete(key);
        return undefined;
      }
      this.#memory.set(key, reply);
      return reply;
    } catch {
      return this.#memory.get(key);
    }
  }

  async set(key: string, value: string): Promise<void> {
    const missed = this.#write(key, value);
    this.#memory.set(key, value);
    if (!this.#runner.available) return;
    try {
      await this.#runner.run(SET, [this.#key(key)], [value, String(this.#ttlMs)]);
      if (this.#missed.get(key) === missed) this.#missed.delete(key);
    } catch {
      // Made up for at the next look-up of the key.
    }
  }

  async delete(key: string): Promise<void> {
    const missed = this.#write(key, undefined);
    this.#memory.delete(key);
    if (!this.#runner.available) return;
    try {
      await this.#runner.run(DEL, [this.#key(key)], []);
      if (this.#missed.get(key) === missed) this.#missed.delete(key);
    } catch {
      // Made up for at the next look-up of the key.
    }
  }

  /**
   * Records a write as missed until Redis has taken it: on top of the ones missed before it, the value this worker
   * knew at the key until now is one it has seen there. (A delete of a value this worker never saw, nor anything
   * missed before, makes up for nothing: a value Redis holds then is another worker's, which is newer.)
   */
  #write(key: string, value: string | undefined): Missed {
    const before = this.#missed.get(key);
    const seen = new Set(before?.seen);
    const known = this.#memory.get(key);
    if (known !== undefined) seen.add(known);
    if (value !== undefined) seen.delete(value);
    const missed = { value, seen: [...seen] };
    this.#missed.set(key, missed);
    return missed;
  }

  async lease(key: string): Promise<RenderLease> {
    // In process (the render's own per-client deduplication) while Redis is down.
    const local: RenderLease = { acquired: true, release: () => {} };
    if (!this.#runner.available) return local;
    const token = `${this.#owner}:${++this.#tokens}`;
    const lease = this.#key(`${key}:lease`);
    try {
      const reply = await this.#runner.run(LEASE, [lease], [token, String(this.#leaseMs)]);
      if (reply !== 1) return { acquired: false, retryMs: this.#pollMs };
    } catch {
      return local;
    }
    const stop = new AbortController();
    const lost = new AbortController();
    void this.#renew(lease, token, stop.signal, lost);
    return {
      acquired: true,
      signal: lost.signal,
      release: async () => {
        stop.abort();
        await this.#runner.run(RELEASE, [lease], [token]).catch(() => {});
      },
    };
  }

  /**
   * The heartbeat of a lease held: renewed every `leaseMs / 3` until released (`stop`), on the store's clock
   * (a sleep its release cancels, so no timer outlives the lease). A renewal that finds the lease gone or
   * another worker's (it expired while this process stalled) leaves it as it is and aborts `lost`. While
   * Redis does not answer, the store leases in process (see the README): the holder goes on.
   */
  async #renew(lease: string, token: string, stop: AbortSignal, lost: AbortController): Promise<void> {
    const every = Math.max(1, this.#leaseMs / 3);
    try {
      for (;;) {
        await this.#clock.sleep(every, stop);
        if (!this.#runner.available) continue;
        let reply: unknown;
        try {
          reply = await this.#runner.run(RENEW, [lease], [token, String(this.#leaseMs)]);
        } catch {
          continue;
        }
        if (stop.aborted) return;
        if (reply !== 1) {
          lost.abort(new Error('the lease expired and was taken over or freed before it was renewed'));
          return;
        }
      }
    } catch {
      // Released.
    }
  }

  #key(key: string): string {
    return `${this.#prefix}:${key}`;
  }
}
