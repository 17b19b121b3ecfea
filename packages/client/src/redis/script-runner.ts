import { type Clock, overdue, quietly, systemClock } from '@partner-print/openapi/wire';
import { TimeoutError } from '../errors.ts';
import { checkMs } from '../options.ts';

/**
 * The part of a node-redis (v4/v5) client the Redis entry uses. Pass a client created by the caller
 * (`createClient({ url }).on('error', …)`, then `connect()`); this package never creates, connects or
 * closes one.
 */
export interface RedisScriptClient {
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  scriptLoad(script: string): Promise<string>;
}

/**
 * Redis stopped or started answering. What a feature does meanwhile is its own: the callback coalescer
 * coalesces in process, the render store keeps leases in process.
 */
export type RedisAvailabilityEvent =
  | { type: 'redis-unavailable'; reason: string }
  | { type: 'redis-recovered' };

export interface ScriptRunnerOptions {
  clock: Clock;
  /** A command not answered within this many ms (real time, whatever `clock`) counts as a fault. */
  commandTimeoutMs: number;
  /** After a fault, Redis is left alone this long before the next call tries it again. */
  retryMs: number;
  onEvent: ((event: RedisAvailabilityEvent) => void) | undefined;
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Runs Lua scripts (EVALSHA, EVAL again after a SCRIPT FLUSH) with a deadline per command, and keeps
 * Redis's health: the first failure emits `redis-unavailable`, the first success after it `redis-recovered`.
 * node-redis queues commands while it reconnects, so without the deadline a dead server would hang every
 * caller instead of letting it fall back.
 */
export class ScriptRunner {
  readonly #client: RedisScriptClient;
  readonly #options: ScriptRunnerOptions;
  readonly #shas = new Map<string, Promise<string>>();
  #down = false;
  #retryAt = Number.NEGATIVE_INFINITY;
  /**
   * The commands still waiting, each by its reject: a fault fails them all at once, not each at its own
   * deadline. A set rather than an AbortSignal, which would gather one listener per command in flight
   * (hundreds under a storm, and Node's MaxListenersExceededWarning past 10).
   */
  readonly #waiting = new Set<(error: unknown) => void>();

  constructor(client: RedisScriptClient, options: ScriptRunnerOptions) {
    checkMs({ commandTimeoutMs: options.commandTimeoutMs }, 1);
    checkMs({ retryMs: options.retryMs }, 0);
    this.#client = client;
    this.#options = options;
  }

  /** False while Redis is known to be down and the retry time has not come. */
  get available(): boolean {
    return !this.#down || this.#options.clock.now() >= this.#retryAt;
  }

  async run(script: string, keys: string[], args: string[]): Promise<unknown> {
    // Only a call made while Redis counted as down proves it is back (older calls may still land).
    const probe = this.#down;
    try {
      const reply = await this.#deadline(this.#eval(script, { keys, arguments: args }));
      if (probe && this.#down) {
        this.#down = false;
        this.#emit({ type: 'redis-recovered' });
      }
      return reply;
    } catch (error) {
      this.fault(error);
      throw error;
    }
  }

  /** Marks Redis down (emitting once per outage) and schedules the next try. */
  fault(error: unknown): void {
    this.#retryAt = this.#options.clock.now() + this.#options.retryMs;
    if (this.#down) return;
    this.#down = true;
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const fail of waiting) fail(error);
    this.#emit({ type: 'redis-unavailable', reason: reasonOf(error) });
  }

  #emit(event: RedisAvailabilityEvent): void {
    quietly(() => this.#options.onEvent?.(event));
  }

  async #eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown> {
    let sha = this.#shas.get(script);
    if (!sha) {
      sha = this.#client.scriptLoad(script);
      this.#shas.set(script, sha);
      sha.catch(() => this.#shas.delete(script));
    }
    try {
      return await this.#client.evalSha(await sha, options);
    } catch (error) {
      if (!reasonOf(error).includes('NOSCRIPT')) throw error;
      // The script cache was flushed (restart, SCRIPT FLUSH): EVAL runs and caches it again.
      return this.#client.eval(script, options);
    }
  }

  async #deadline<T>(promise: Promise<T>): Promise<T> {
    const { commandTimeoutMs } = this.#options;
    let fail: (error: unknown) => void = () => {};
    const fallen = new Promise<never>((_, reject) => {
      fail = reject;
    });
    this.#waiting.add(fail);
    fallen.catch(() => {});
    promise.catch(() => {});
    try {
      // The deadline is about Redis, not about a busy process: `overdue` does not count a stall of this
      // process's event loop against Redis, and reads a reply already in before it judges. Real time, whatever
      // the feature's clock (as RedisOrderClaims' commands): a virtual clock (the sandbox's) leaps ahead while
      // the process waits for Redis's real reply, and timed every command out.
      return await overdue(
        Promise.race([promise, fallen]),
        commandTimeoutMs,
        systemClock,
        () => new TimeoutError(`Redis did not answer within ${commandTimeoutMs} ms`, { operation: 'redis' }),
      );
    } finally {
      this.#waiting.delete(fail);
    }
  }
}

/** A number out of a script reply (integers come back as numbers, some clients give strings). */
export function replyNumber(value: unknown): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) throw new TypeError('Unexpected reply from the Redis script');
  return number;
}
