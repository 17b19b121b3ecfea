import { type Clock, captureScope, errorCodeOf, systemClock } from '@partner-print/openapi/wire';
import { Budget } from './budget.ts';
import { Emitter, type SchedulerEvent, type SchedulerEvents } from './events.ts';
import { FailoverStore } from './failover.ts';
import { type Attempt, type Entry, type Lane, Lanes } from './lanes.ts';
import { checkOptions } from './options.ts';
import { namesOf, type ParameterNames, type RateLimitFields, readRateLimitFields } from './parse.ts';
import { rateLimitPaused } from './paused.ts';
import {
  attemptRequest,
  type KeyOption,
  keyResolver,
  maxPauseOf,
  maxRetriesOf,
  priorityOf,
  type RequestInfoLite,
  requestInitOf,
  type SchedulerRequestInit,
} from './request.ts';
import { RetryPolicy, type Throttle } from './retry-policy.ts';
import { type PolicySpec, type RateLimitDefaults, REFERENCE_DEFAULTS, routeKey } from './routes.ts';
import { type BucketSnapshot, MemoryStore, type RateLimitStore, type TakeResult } from './store.ts';

export type { SchedulerEvent, SchedulerEvents } from './events.ts';
export type { RateLimitRequestOptions, RequestInfoLite, SchedulerRequestInit } from './request.ts';

export type FetchLike = (input: Request) => Promise<Response>;

export interface SchedulerOptions {
  /** The fetch to wrap. Defaults to `globalThis.fetch`. */
  fetch?: FetchLike | typeof globalThis.fetch;
  clock?: Clock;
  /** Where bucket state lives; share one (e.g. the Redis store) to share a budget across processes. */
  store?: RateLimitStore;
  /**
   * Budget key (organization). Default: SHA-256 of the `X-Service-Secret-Key` header, so keys of one
   * organization do not share state unless the same key is configured; the secret itself is never stored.
   */
  key?: KeyOption;
  /** Requests in flight at most. Default 16. */
  concurrency?: number;
  /** Retries after a 429, each after its pause. Default 5; at most 10. */
  maxRetries?: number;
  /** A 429 whose Retry-After exceeds this (ms) is returned instead of retried. Default 120000. */
  maxRetryAfterMs?: number;
  /**
   * The longest pause after a 429 (ms from when a request is queued) that a request waits out in the queue,
   * unless it gives its own (`rateLimit.maxPauseMs`): one held past it is rejected at once with a
   * rejection whose `code` is `rate_limit_paused`. Default: every pause is waited out (at most an hour).
   */
  maxPauseMs?: number;
  /** Names the buckets a request consumes until responses have taught the route's buckets. */
  classify?: (request: RequestInfoLite) => readonly string[] | undefined;
  /** Policies before the first headers (the reference's), and the spec's route → buckets table. */
  defaults?: RateLimitDefaults;
  /** Request header carrying a priority (removed before sending). Default `x-ratelimit-priority`. */
  priorityHeader?: string | false;
  parameterNames?: Partial<ParameterNames>;
  /** Random numbers in [0, 1) for the backoff's jitter. Default `Math.random`; seed it in tests. */
  random?: () => number;
  /** A shared `store` slower than this (ms) counts as failed, like an error. Default 1000. */
  storeTimeoutMs?: number;
  /** While a shared `store` is down, it is tried again after this long (ms). Default 1000. */
  storeRetryMs?: number;
}

export interface SchedulerStats {
  queued: number;
  inflight: number;
  admitted: number;
  completed: number;
  failed: number;
  throttled: number;
  retried: number;
  aborted: number;
  /** Requests not sent because a pause outlasted their `maxPauseMs` (see `RateLimitPausedError`). */
  refused: number;
  /** Policies known per name (from headers, else defaults). */
  policies: Record<string, PolicySpec>;
  /** Route → buckets, as learned from responses. */
  routes: Record<string, readonly string[]>;
}

export interface Scheduler {
  fetch(input: RequestInfo | URL, init?: SchedulerRequestInit): Promise<Response>;
  stats(): SchedulerStats;
  /** Bucket state of a budget key as the store holds it. */
  snapshot(key: string): Promise<Record<string, BucketSnapshot>>;
  on<E extends SchedulerEvent>(event: E, listener: (payload: SchedulerEvents[E]) => void): () => void;
  off<E extends SchedulerEvent>(event: E, listener: (payload: SchedulerEvents[E]) => void): void;
  /** Rejects every queued request and stops the timer. In-flight requests finish. */
  close(reason?: unknown): void;
}

/**
 * Polls while another process's first request to a bucket is awaited. This waits on something outside
 * the (possibly virtual) clock, so it uses a real timer: a virtual sleep returns at once and would spin.
 * One store call per 50 ms per waiting process: a fleet starting together waits ~50 ms, not a quarter second.
 */
const AWAIT_POLL_MS = 50;
/** The longest real wait for an answer that the estimate waits on (see `#rearm`). */
const AWAIT_POLL_MAX_MS = 1000;

export function createScheduler(options: SchedulerOptions = {}): Scheduler {
  checkOptions(
    'createScheduler',
    { concurrency: 1, maxRetries: 0, maxRetryAfterMs: 0, maxPauseMs: 0, storeTimeoutMs: 1, storeRetryMs: 0 },
    ['fetch', 'clock', 'store', 'key', 'classify', 'defaults', 'priorityHeader', 'parameterNames', 'random'],
    options,
  );
  return new SchedulerCore(options).api();
}

/** The scheduler's state and its steps: queue, admit, send, read the answer, retry or complete. */
class SchedulerCore {
  readonly #clock: Clock;
  readonly #store: RateLimitStore;
  /** The store when it is the memory store as this package makes it: it answers at once (see `#admitNow`). */
  readonly #local: MemoryStore | undefined;
  readonly #events = new Emitter();
  readonly #lanes = new Lanes();
  readonly #budget: Budget;
  readonly #retry: RetryPolicy;
  readonly #baseFetch: FetchLike;
  readonly #concurrency: number;
  readonly #maxRetries: number;
  readonly #priorityHeader: string | undefined;
  readonly #keyOf: (info: RequestInfoLite) => string | Promise<string>;
  readonly #names: ParameterNames;
  readonly #counters = {
    admitted: 0,
    completed: 0,
    failed: 0,
    throttled: 0,
    retried: 0,
    aborted: 0,
    refused: 0,
  };
  readonly #maxPauseMs: number;
  #inflight = 0;
  #seq = 0;
  #closed: { reason: unknown } | undefined;
  #pumping = false;
  #pumpAgain = false;
  /** The pump's one timer: when it is due (infinite for a poll) and how to stop it. */
  #timer: { at: number; cancel: () => void } | undefined;
  /** The clock's timer woke the pump (see `#rearm`). */
  #woke = false;
  /** When the pump last looked for a request that may go. */
  #lookedAt = -Infinity;

  readonly #options: SchedulerOptions;

  constructor(options: SchedulerOptions) {
    this.#options = options;
    this.#baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    this.#clock = options.clock ?? systemClock;
    this.#store = storeOf(options, this.#events);
    this.#local = answersAtOnce(this.#store) ? this.#store : undefined;
    this.#concurrency = Math.max(1, Math.floor(options.concurrency ?? 16));
    this.#maxRetries = Math.min(10, Math.max(0, Math.floor(options.maxRetries ?? 5)));
    this.#maxPauseMs = options.maxPauseMs ?? Infinity;
    this.#retry = new RetryPolicy({
      maxRetryAfterMs: options.maxRetryAfterMs ?? 120_000,
      random: options.random ?? Math.random,
    });
    this.#budget = new Budget(options.defaults ?? REFERENCE_DEFAULTS, (change) =>
      this.#events.emit('policy-changed', change),
    );
    this.#priorityHeader =
      options.priorityHeader === false ? undefined : (options.priorityHeader ?? 'x-ratelimit-priority');
    this.#keyOf = keyResolver(options.key);
    this.#names = namesOf(options.parameterNames);
  }

  /** What `createScheduler` hands out: plain functions over this core, which a caller may take apart. */
  api(): Scheduler {
    return {
      fetch: (input, init) => this.#submit(input, init),
      stats: () => this.#stats(),
      snapshot: (key) => this.#store.snapshot(key, this.#clock.now()),
      on: (event, listener) => this.#events.on(event, listener),
      off: (event, listener) => this.#events.off(event, listener),
      close: (reason = new Error('Scheduler closed')) => this.#close(reason),
    };
  }

  #submit(input: RequestInfo | URL, init?: SchedulerRequestInit): Promise<Response> {
    try {
      if (this.#closed) throw this.#closed.reason;
      const isRequest = input instanceof Request;
      const method = (init?.method ?? (isRequest ? input.method : 'GET')).toUpperCase();
      const url = isRequest ? input.url : String(input);
      const headers =
        init?.headers !== undefined ? new Headers(init.headers) : isRequest ? input.headers : new Headers();
      const signal =
        init?.rateLimit?.watchSignal === false
          ? undefined
          : (init?.signal ?? (isRequest ? input.signal : undefined) ?? undefined);
      signal?.throwIfAborted();
      const info: RequestInfoLite = { method, url, headers, route: routeKey(method, url) };
      const order = ++this.#seq;
      const key = this.#keyOf(info);
      const classified = this.#options.classify?.(info);
      // The priority header read once: its value, and whether the Request must go as a copy without it.
      const raw = this.#priorityHeader === undefined ? null : headers.get(this.#priorityHeader);
      const priority = priorityOf(init, raw);
      const requestInit = requestInitOf(init, raw !== null);
      const retries = maxRetriesOf(init, this.#maxRetries);
      const maxPauseMs = maxPauseOf(init, this.#maxPauseMs);
      if (typeof key === 'string') {
        const lane = this.#lanes.laneFor(key, info.route, priority, classified);
        return this.#queue(lane, order, input, requestInit, signal, retries, maxPauseMs);
      }
      return key.then((k) => {
        // Closed, or the signal aborted, while the key was hashed.
        if (this.#closed) throw this.#closed.reason;
        signal?.throwIfAborted();
        const lane = this.#lanes.laneFor(k, info.route, priority, classified);
        return this.#queue(lane, order, input, requestInit, signal, retries, maxPauseMs);
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #stats(): SchedulerStats {
    return {
      queued: this.#lanes.queued,
      inflight: this.#inflight,
      ...this.#counters,
      ...this.#budget.stats(),
    };
  }

  #close(reason: unknown): void {
    if (this.#closed) return;
    this.#closed = { reason };
    this.#cancelTimer();
    for (const entry of this.#lanes.drain()) {
      this.#finish(entry);
      reject(entry, reason);
    }
  }

  #queue(
    lane: Lane,
    seq: number,
    input: RequestInfo | URL,
    init: RequestInit | undefined,
    signal: AbortSignal | undefined,
    maxRetries: number,
    maxPauseMs: number,
  ): Promise<Response> {
    // One executor for every request (not a closure per request): it hands out the promise's `resolve`, taken
    // at once, before any code of the caller's (a clock) could make another promise with it.
    const promise = new Promise<Response>(grab);
    const resolve = grabbed;
    // Not kept here: the module would hold the last request's promise, and so its answer, until the next.
    grabbed = settled;
    const now = this.#clock.now();
    // A plain literal (no spreads): V8 gives it in-object fields, half the memory of a spread copy.
    const entry: Entry = {
      seq,
      input,
      init,
      request: undefined,
      body: undefined,
      lane,
      signal,
      onAbort: undefined,
      resolve,
      attempts: 0,
      enqueuedAt: now,
      state: 'queued',
      attempt: undefined,
      maxRetries,
      pauseLimit: now + maxPauseMs,
      scope: undefined,
    };
    // Held by a pause it would not wait out (known from the store's last answer, or a route's 429): refused now.
    if (maxPauseMs !== Infinity) {
      // The lane's buckets worked out first: a policy or route change since its last take forgets its pause.
      this.#budget.bucketsFor(lane);
      const pause = this.#lanes.pauseOf(lane, now);
      if (pause && pause.until > entry.pauseLimit) {
        this.#refuse(entry, pause.scope, pause.until, now);
        return promise;
      }
    }
    // A request that goes at once needs no abort listener (the costliest step per request); one that
    // may wait gets it now, or when it is found blocked.
    const waits = this.#pumping || this.#inflight >= this.#concurrency || !this.#lanes.idle(lane);
    // The pump that admits it may run in another caller's context (or a timer's): its fetch, events and
    // retries run in its own caller's, captured now. One that goes at once is admitted by the pump this
    // call starts, which runs in its caller's context: its context is captured only if it has to wait
    // after all (found blocked, or retried after a 429), still in that pump.
    if (waits) entry.scope = captureScope();
    this.#lanes.enqueue(entry, false);
    if (waits) this.#watch(entry);
    // Admitted at the time it was queued (one clock read), unless a listener ran in between.
    let at = now;
    if (this.#events.has('queued')) {
      this.#events.emit('queued', {
        route: lane.route,
        priority: lane.priority,
        queued: this.#lanes.queued,
      });
      at = this.#clock.now();
    }
    // Nothing ahead of it and a store that answers at once: admitted now, in its caller's call, as the pump
    // would (no promise hop); refused, it waits as one the pump finds blocked.
    if (!waits && this.#local && this.#admitNow(this.#local, lane, entry, at)) return promise;
    void this.#pump();
    return promise;
  }

  /** The pump's step for one entry, with the memory store's answer at once. */
  #admitNow(local: MemoryStore, lane: Lane, entry: Entry, now: number): boolean {
    this.#lookedAt = now;
    const { buckets, names } = this.#budget.bucketsFor(lane);
    return this.#took(lane, entry, local.takeNow(lane.key, buckets, now), names, now);
  }

  /**
   * The caller's deadline: a request leaves at once when its signal aborts, with the reason, while it is
   * queued and while its fetch is awaited (even under a fetch that ignores the signal).
   */
  #watch(entry: Entry): void {
    const { signal } = entry;
    if (!signal || entry.onAbort) return;
    entry.onAbort = () => {
      if (entry.state === 'sending') {
        this.#release(entry, signal.reason);
        return;
      }
      if (entry.state !== 'queued') return; // its answer is being read: it is handed over
      this.#lanes.remove(entry);
      this.#counters.aborted++;
      this.#finish(entry);
      reject(entry, signal.reason);
      if (this.#lanes.queued === 0) this.#cancelTimer();
    };
    // Removed by `#finish`, which every path ends with (no `once`: its options cost per request).
    signal.addEventListener('abort', entry.onAbort);
  }

  async #pump(): Promise<void> {
    if (this.#pumping) {
      this.#pumpAgain = true;
      return;
    }
    this.#pumping = true;
    try {
      do {
        this.#pumpAgain = false;
        const timed = this.#woke;
        this.#woke = false;
        const admitted = this.#counters.admitted;
        while (this.#inflight < this.#concurrency && this.#lanes.queued > 0 && !this.#closed) {
          this.#lookedAt = this.#clock.now();
          // The memory store answers at once: its requests are admitted without an await per admission.
          // With one, a request that had waited in the queue cost about 30 µs more CPU than one admitted
          // at once (half of 32 callers queued: 1.5× the time per call), spread over the fetch and body
          // code that ran after it.
          const local = this.#local;
          if (!(local ? this.#admitNextNow(local, this.#lookedAt) : await this.#admitNext(this.#lookedAt)))
            break;
        }
        this.#rearm(timed && !this.#pumpAgain && this.#counters.admitted === admitted);
      } while (this.#pumpAgain);
    } finally {
      this.#pumping = false;
    }
  }

  /** Admits the first candidate whose buckets all have a token; false when none can go now. */
  async #admitNext(now: number): Promise<boolean> {
    const candidates = this.#lanes.candidates(now);
    // Index loops on the per-request path: an iterator there costs an object per step until optimized.
    for (let i = 0; i < candidates.length; i++) {
      const lane = candidates[i];
      const entry = this.#admissible(lane);
      if (entry === true) return true;
      if (!lane || !entry) continue;
      const { buckets, names } = this.#budget.bucketsFor(lane);
      let result: TakeResult;
      try {
        result = await this.#store.take(lane.key, buckets, now);
      } catch (error) {
        // Aborted or refused while the store answered: it has left its lane already.
        if (entry.state !== 'queued') return true;
        // A failing custom store must not strand the queue: fail this request, carry on.
        this.#lanes.take(lane, entry);
        this.#fail(entry, error);
        return true;
      }
      if (this.#took(lane, entry, result, names, now)) return true;
    }
    return false;
  }

  /** {@link #admitNext} on the memory store, which answers at once: {@link #admitNow} per candidate, no promise. */
  #admitNextNow(local: MemoryStore, now: number): boolean {
    const candidates = this.#lanes.candidates(now);
    for (let i = 0; i < candidates.length; i++) {
      const lane = candidates[i];
      const entry = this.#admissible(lane);
      if (entry === true || (lane && entry && this.#admitNow(local, lane, entry, now))) return true;
    }
    return false;
  }

  /** A candidate lane's head, to ask the store for; `true` when it was aborted and has ended now. */
  #admissible(lane: Lane | undefined): Entry | true | undefined {
    const entry = lane && this.#lanes.head(lane);
    if (entry?.signal?.aborted) {
      this.#watch(entry);
      entry.onAbort?.();
      return true;
    }
    return entry;
  }

  /** The store's answer for a lane's head: true when it went (or ended), false when it has to wait. */
  #took(lane: Lane, entry: Entry, result: TakeResult, names: readonly string[], now: number): boolean {
    // The entry may have been aborted while the store answered.
    if (entry.state !== 'queued') {
      if (result.ok) void this.#store.observe(lane.key, result.ticket, names, [], now).catch(() => {});
      return true;
    }
    if (!result.ok) {
      lane.blockedUntil = result.retryAt;
      const paused = result.pausedUntil ?? 0;
      // A pause: the requests that would not wait it out leave the queue (each of them once, when it is new).
      if (paused > lane.pausedUntil) {
        lane.pausedUntil = paused;
        this.#outlast(lane, 'buckets', paused, now);
      }
      if (entry.state === 'queued' && entry.pauseLimit < lane.pausedUntil && lane.pausedUntil > now) {
        this.#lanes.remove(entry);
        this.#refuse(entry, 'buckets', lane.pausedUntil, now);
      }
      if (entry.state !== 'queued') return true;
      entry.scope ??= captureScope();
      this.#watch(entry);
      return false;
    }
    this.#lanes.take(lane, entry);
    this.#dispatch(entry, result.ticket, names, now);
    return true;
  }

  #dispatch(entry: Entry, ticket: number, taken: readonly string[], now: number): void {
    this.#inflight++;
    this.#counters.admitted++;
    entry.attempts++;
    if (entry.scope) entry.scope.run(() => this.#start(entry, ticket, taken, now));
    else this.#start(entry, ticket, taken, now);
  }

  #start(entry: Entry, ticket: number, taken: readonly string[], now: number): void {
    if (this.#events.has('admitted'))
      this.#events.emit('admitted', {
        route: entry.lane.route,
        buckets: taken,
        waitedMs: now - entry.enqueuedAt,
        attempt: entry.attempts,
      });
    const attempt: Attempt = { ticket, taken, sentAt: now };
    entry.attempt = attempt;
    void this.#send(entry, attempt);
  }

  /**
   * Sends an attempt, then {@link #answered} reads its answer. No async function: a request whose Request is
   * ready and whose store answers at once (the memory store) costs one promise here, the fetch's `then`.
   */
  #send(entry: Entry, attempt: Attempt): void {
    let pending: Promise<Response>;
    try {
      const request = attemptRequest(entry, this.#priorityHeader, entry.maxRetries > 0);
      pending =
        request instanceof Promise
          ? request.then((r) => this.#fetchFor(entry, r))
          : this.#fetchFor(entry, request);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (response) => {
        // An answer that cannot be read as the scheduler reads it (a partner's fetch answering with another
        // library's Response) fails its call, where the call stayed pending and the error went unhandled.
        try {
          this.#answered(entry, attempt, response)?.catch((error: unknown) => this.#unreadable(entry, error));
        } catch (error) {
          this.#unreadable(entry, error);
        }
      },
      (error: unknown) => {
        // Unless its signal ended it already (the fetch's own rejection comes after).
        if (entry.state !== 'done') this.#release(entry, error);
      },
    );
  }

  /**
   * Reads an attempt's answer into the budget and the store, then retries a throttled request or hands the
   * answer over. A 429's error code is read from its body first.
   */
  #answered(entry: Entry, attempt: Attempt, response: Response): void | Promise<void> {
    if (entry.state === 'done') {
      // Its signal ended it while the fetch ignored the signal: the late answer is dropped.
      discard(response);
      return;
    }
    entry.state = 'running';
    const now = this.#clock.now();
    const status = response.status;
    const parsed = readRateLimitFields(response.headers, this.#names, now, status === 429);
    if (status !== 429) return this.#observed(entry, attempt, response, parsed, undefined, now);
    return errorCodeOf(response).then((code) => this.#observed(entry, attempt, response, parsed, code, now));
  }

  /** The answer goes into the budget and the store; then the request completes (or is retried). */
  #observed(
    entry: Entry,
    attempt: Attempt,
    response: Response,
    parsed: RateLimitFields,
    code: string | undefined,
    now: number,
  ): void | Promise<void> {
    const status = response.status;
    const throttle = this.#throttleOf(entry, attempt, parsed, status, code, now);
    const observations = this.#budget.observe(entry.lane, parsed, attempt, status, throttle, now);
    const { key } = entry.lane;
    if (this.#local) {
      this.#local.observeNow(key, attempt.ticket, attempt.taken, observations, now);
      return this.#complete(entry, response, parsed, throttle);
    }
    // A failing store leaves the estimate as it was; the next response corrects it.
    const done = () => this.#complete(entry, response, parsed, throttle);
    try {
      return this.#store.observe(key, attempt.ticket, attempt.taken, observations, now).then(done, done);
    } catch {
      return done();
    }
  }

  /**
   * The wrapped fetch's answer. While it is awaited, the request's signal ends the attempt at once (see
   * {@link #watch}); one aborted already ends it now, before the fetch is called.
   */
  #fetchFor(entry: Entry, request: Request): Promise<Response> {
    const { signal } = entry;
    // Aborted since it was admitted (an `admitted` listener, or while its body was read for a copy): nothing is
    // sent, where a fetch that ignores signals was called with it and sent it all the same.
    if (signal?.aborted) return Promise.reject(signal.reason);
    const pending = this.#baseFetch(request);
    if (!signal) return pending;
    this.#watch(entry);
    entry.state = 'sending';
    // The signal ends the attempt until the fetch settles, and not after (its answer or error is then
    // handed on); that settles a microtask after the fetch, as the race with the signal did before (the
    // virtual-clock timelines depend on the order of microtasks).
    return pending.then(
      (response) => {
        if (entry.state === 'sending') entry.state = 'running';
        return response;
      },
      (error: unknown) => {
        if (entry.state === 'sending') entry.state = 'running';
        throw error;
      },
    );
  }

  /** An attempt ended without an answer (an error, or its signal): the request fails with the reason. */
  #release(entry: Entry, reason: unknown): void {
    const { lane } = entry;
    const attempt = entry.attempt;
    this.#inflight--;
    this.#lanes.routeAnswered(lane.key, lane.route);
    this.#fail(entry, reason);
    void this.#released(lane.key, attempt);
  }

  /** The store forgets a failed attempt's ticket; then the queue goes on. */
  async #released(key: string, attempt: Attempt | undefined): Promise<void> {
    if (attempt)
      await this.#store.observe(key, attempt.ticket, attempt.taken, [], this.#clock.now()).catch(() => {});
    void this.#pump();
  }

  /** For a 429, what it pauses (the route, here); any other answer ends the backoff and the route's pause. */
  #throttleOf(
    entry: Entry,
    attempt: Attempt,
    parsed: RateLimitFields,
    status: number,
    code: string | undefined,
    now: number,
  ): Throttle | undefined {
    const { lane } = entry;
    const { taken } = attempt;
    let throttle: Throttle | undefined;
    if (status === 429)
      throttle = this.#retry.classify(parsed, code, taken, { key: lane.key, route: lane.route, now });
    else this.#retry.succeeded(lane.key, lane.route, taken);
    if (throttle?.scope === 'route') {
      const until = now + throttle.pauseMs;
      this.#lanes.pauseRoute(lane.key, lane.route, until);
      this.#outlast(lane, 'route', until, now);
    } else this.#lanes.routeAnswered(lane.key, lane.route);
    return throttle;
  }

  /** The answer is in the budget: the request is queued again after a 429, or its caller gets it. */
  #complete(entry: Entry, response: Response, parsed: RateLimitFields, throttle: Throttle | undefined): void {
    this.#inflight--;
    this.#lanes.unblock();
    if (throttle && this.#throttled(entry, throttle, parsed.retryAfterSeconds, response)) return;
    this.#counters.completed++;
    this.#finish(entry);
    settle(entry, response);
    // With nothing queued a pump would only find no timer to cancel; a request queued later pumps itself.
    if (this.#lanes.queued > 0) void this.#pump();
  }

  /** Reports a 429 and queues its request again when it is retried; true when it was (or it ended). */
  #throttled(
    entry: Entry,
    throttle: Throttle,
    retryAfterSeconds: number | undefined,
    response: Response,
  ): boolean {
    this.#counters.throttled++;
    const { route } = entry.lane;
    const pauseMs = throttle.scope === 'none' ? 0 : throttle.pauseMs;
    this.#events.emit('throttled', {
      route,
      buckets: throttle.scope === 'buckets' ? throttle.buckets : [],
      retryAfterSeconds: retryAfterSeconds ?? pauseMs / 1000,
      attempt: entry.attempts,
      scope: throttle.scope,
      pauseMs,
    });
    if (entry.signal?.aborted) {
      discard(response);
      this.#fail(entry, entry.signal.reason);
      void this.#pump();
      return true;
    }
    if (
      entry.state !== 'running' ||
      this.#closed ||
      !this.#retry.retries(throttle, entry.attempts, entry.maxRetries) ||
      // A pause it would not wait out: its caller gets the 429 now.
      entry.pauseLimit < this.#clock.now() + pauseMs
    )
      return false;
    this.#counters.retried++;
    this.#events.emit('retried', { route, attempt: entry.attempts, delayMs: pauseMs });
    discard(response);
    // Back to the front of its lane: it keeps its place, and the pause holds it like everyone else. A later
    // pump admits it: its caller's context (this one) goes with it.
    entry.scope ??= captureScope();
    this.#lanes.enqueue(entry, true);
    void this.#pump();
    return true;
  }

  /** Reading an answer threw: the attempt, still in flight, ends as an attempt without an answer does. */
  #unreadable(entry: Entry, error: unknown): void {
    if (entry.state === 'running' || entry.state === 'sending') this.#release(entry, error);
    else void this.#pump();
  }

  /** The lane's queued requests that would not wait out a pause until `until` leave the queue, refused. */
  #outlast(lane: Lane, scope: 'buckets' | 'route', until: number, now: number): void {
    for (const entry of this.#lanes.outlasted(lane, until, scope === 'route'))
      this.#refuse(entry, scope, until, now);
    if (this.#lanes.queued === 0) this.#cancelTimer();
  }

  /** A request (out of its lane) that a pause would hold past its `maxPauseMs`: rejected, never sent. */
  #refuse(entry: Entry, scope: 'buckets' | 'route', until: number, now: number): void {
    this.#counters.refused++;
    this.#finish(entry);
    reject(entry, rateLimitPaused(scope, entry.lane.route, until - now, entry.attempts > 0));
  }

  #fail(entry: Entry, error: unknown): void {
    this.#counters.failed++;
    this.#finish(entry);
    reject(entry, error);
  }

  #finish(entry: Entry): void {
    entry.state = 'done';
    // Only an entry with a signal gets a listener (see `#watch`).
    if (entry.onAbort) entry.signal!.removeEventListener('abort', entry.onAbort);
    entry.onAbort = undefined;
    // Nothing it no longer needs stays linked from it (see `settle`): its request's signal neither.
    entry.signal = undefined;
    entry.input = undefined;
    entry.init = undefined;
    entry.request = undefined;
    entry.body = undefined;
    entry.attempt = undefined;
  }

  /**
   * After a pump: one timer for the earliest waiting lane, none when nothing waits. `fruitless`: the
   * clock's timer woke the pump and nothing could go.
   */
  #rearm(fruitless: boolean): void {
    if (this.#lanes.queued === 0 || this.#closed) {
      this.#cancelTimer();
      return;
    }
    if (this.#inflight >= this.#concurrency) return;
    const wake = this.#lanes.wakeAt();
    const now = this.#clock.now();
    // A wake that was due when the pump last looked, which let nothing go, is nothing time can change:
    // sleeping for it would loop without end on a virtual clock (whose sleeps never yield to timers).
    if (Number.isFinite(wake) && wake > this.#lookedAt) {
      // The estimate moved past its own deadline while requests are on the way: what frees a token now is
      // an answer (their answers hold the estimate down), and an answer pumps. Until one comes, the wait is
      // a real timer: a virtual clock's sleeps would otherwise follow one another without end and
      // without yielding, while the answers wait for the event loop.
      if (fruitless && this.#inflight > 0) this.#schedulePoll(Math.min(AWAIT_POLL_MAX_MS, wake - now));
      else this.#schedule(wake);
    }
    // Waiting for a first answer that another process (sharing the store) is expecting: poll.
    else if (this.#inflight === 0) this.#schedulePoll(AWAIT_POLL_MS);
  }

  #schedule(at: number): void {
    if (this.#timer && this.#timer.at <= at) return;
    this.#cancelTimer();
    const controller = new AbortController();
    const current = { at, cancel: () => controller.abort() };
    this.#timer = current;
    this.#clock.sleep(Math.max(0, at - this.#clock.now()), controller.signal).then(
      () => {
        if (this.#timer !== current) return;
        this.#timer = undefined;
        this.#woke = true;
        void this.#pump();
      },
      () => {},
    );
  }

  /** A real timer (see {@link AWAIT_POLL_MS}); any timer on the clock set meanwhile replaces it. */
  #schedulePoll(ms: number): void {
    if (this.#timer) return;
    const current = { at: Infinity, cancel: () => clearTimeout(handle) };
    this.#timer = current;
    const handle = setTimeout(
      () => {
        if (this.#timer !== current) return;
        this.#timer = undefined;
        this.#lanes.unblock(true);
        void this.#pump();
      },
      Math.max(0, ms),
    );
  }

  #cancelTimer(): void {
    if (!this.#timer) return;
    this.#timer.cancel();
    this.#timer = undefined;
  }
}

/** The resolve of the promise {@link grab} was last given: one executor for every request, no closure each. */
let grabbed: (response: Response | Promise<Response>) => void;
const grab = (resolve: typeof grabbed) => {
  grabbed = resolve;
};

/** Drops an answer's body: a web stream is cancelled; another (a Node stream of a partner's fetch) is left. */
function discard(response: Response): void {
  const body = response.body as { cancel?: unknown } | null;
  if (typeof body?.cancel === 'function') (body as ReadableStream).cancel().catch(() => {});
}

/** Settles a request's promise with a failure (through its `resolve`, the one function an entry keeps). */
function reject(entry: Entry, reason: unknown): void {
  settle(entry, Promise.reject(reason));
}

/** What a settled entry's `resolve` is: its promise's is let go (see {@link settle}). */
const settled = () => {};

/**
 * Settles a request's promise, and lets go of its `resolve`, which holds the promise and so the answer. An
 * entry that lived long enough to be promoted to V8's old generation (one waiting, or sent over a slow
 * network) is kept after it is done until a full collection, and its links keep what they reach alive
 * through every young one: its answer (with its body's stream) and its request's signal were kept so.
 */
function settle(entry: Entry, value: Response | Promise<Response>): void {
  const { resolve } = entry;
  entry.resolve = settled;
  resolve(value);
}

/**
 * The memory store as this package makes it answers at once, so the scheduler calls it without a promise
 * hop; a subclass with its own `take` or `observe` (possibly async) is called through them.
 */
function answersAtOnce(store: RateLimitStore): store is MemoryStore {
  return (
    store instanceof MemoryStore &&
    store.take === MemoryStore.prototype.take &&
    store.observe === MemoryStore.prototype.observe
  );
}

/** A shared store falls back to local header learning when it fails; the memory store needs no fallback. */
function storeOf(options: SchedulerOptions, events: Emitter): RateLimitStore {
  const store = options.store;
  if (!store) return new MemoryStore();
  if (store instanceof MemoryStore) return store;
  return new FailoverStore(store, {
    timeoutMs: options.storeTimeoutMs ?? 1000,
    retryMs: options.storeRetryMs ?? 1000,
    onDown: (error) => events.emit('store-down', { error }),
    onUp: () => events.emit('store-up', {}),
  });
}
