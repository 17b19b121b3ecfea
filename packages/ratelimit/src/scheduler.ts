import type { BucketObservation } from './bucket.ts';
import { type Clock, systemClock } from './clock.ts';
import { Deque } from './deque.ts';
import { type ParameterNames, type ParsedRateLimitHeaders, parseRateLimitHeaders } from './parse.ts';
import {
  defaultBuckets,
  type PolicySpec,
  type RateLimitDefaults,
  REFERENCE_DEFAULTS,
  routeKey,
} from './routes.ts';
import { type BucketRequest, type BucketSnapshot, MemoryStore, type RateLimitStore } from './store.ts';

export type FetchLike = (input: Request) => Promise<Response>;

/** What `classify` and `key` see of a request before it is sent. */
export interface RequestInfoLite {
  method: string;
  url: string;
  headers: Headers;
  /** `METHOD /path/template`, e.g. `GET /renders/*\/media`. */
  route: string;
}

/** Per-request options, passed as `init.rateLimit` to the scheduler's `fetch`. */
export interface RateLimitRequestOptions {
  /** Higher runs first; default 0. Integers from -10 to 10. */
  priority?: number;
}

export type SchedulerRequestInit = RequestInit & { rateLimit?: RateLimitRequestOptions };

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
  key?: string | ((request: RequestInfoLite) => string | Promise<string>);
  /** Requests in flight at most. Default 16. */
  concurrency?: number;
  /** Retries after a 429, each after the bucket's pause. Default 3; at most 10. */
  maxRetries?: number;
  /** A 429 whose Retry-After exceeds this (ms) is returned instead of retried. Default 120000. */
  maxRetryAfterMs?: number;
  /** Names the buckets a request consumes until responses have taught the route's buckets. */
  classify?: (request: RequestInfoLite) => readonly string[] | undefined;
  /** Policies before the first headers; the reference's by default. */
  defaults?: RateLimitDefaults;
  /** Request header carrying a priority (removed before sending). Default `x-ratelimit-priority`. */
  priorityHeader?: string | false;
  parameterNames?: Partial<ParameterNames>;
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
  /** Policies known per name (from headers, else defaults). */
  policies: Record<string, PolicySpec>;
  /** Route → buckets, as learned from responses. */
  routes: Record<string, readonly string[]>;
}

export interface SchedulerEvents {
  queued: { route: string; priority: number; queued: number };
  admitted: { route: string; buckets: readonly string[]; waitedMs: number; attempt: number };
  throttled: { route: string; buckets: readonly string[]; retryAfterSeconds: number; attempt: number };
  retried: { route: string; attempt: number; delayMs: number };
  'policy-changed': { name: string; quota: number; windowSeconds: number; previous?: PolicySpec };
}

export type SchedulerEvent = keyof SchedulerEvents;

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

/** A request in the scheduler; kept small (100,000 queued fit in well under 50 MB). */
interface Entry {
  seq: number;
  input: RequestInfo | URL | undefined;
  init: RequestInit | undefined;
  request: Request | undefined;
  body: ArrayBuffer | null | undefined;
  /** Its queue: key, route and priority live there, shared by all its entries. */
  lane: Lane;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  resolve: (response: Response) => void;
  reject: (reason: unknown) => void;
  attempts: number;
  enqueuedAt: number;
  state: 'queued' | 'running' | 'done';
}

interface Lane {
  id: string;
  key: string;
  route: string;
  classified: readonly string[] | undefined;
  priority: number;
  queue: Deque<Entry>;
  /** Live (not aborted) entries in the queue. */
  size: number;
  blockedUntil: number;
}

const MIN_PRIORITY = -10;
const MAX_PRIORITY = 10;
const MAX_ROUTES = 1000;
const AWAIT_POLL_MS = 250;
const MAX_PAUSE_MS = 3_600_000;
const encoder = new TextEncoder();

export function createScheduler(options: SchedulerOptions = {}): Scheduler {
  const baseFetch = (options.fetch ?? globalThis.fetch) as FetchLike;
  const clock = options.clock ?? systemClock;
  const store = options.store ?? new MemoryStore();
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 16));
  const maxRetries = Math.min(10, Math.max(0, Math.floor(options.maxRetries ?? 3)));
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 120_000;
  const defaults = options.defaults ?? REFERENCE_DEFAULTS;
  const priorityHeader =
    options.priorityHeader === false ? undefined : (options.priorityHeader ?? 'x-ratelimit-priority');

  /** Policies per budget key, live from headers or from the defaults. */
  const policies = new Map<string, Map<string, PolicySpec>>();
  /** Route → buckets it consumes, learned from responses (same API for every key). */
  const learned = new Map<string, readonly string[]>();
  const lanes = new Map<string, Lane>();
  /** Non-empty lanes per priority, highest priority first. */
  const levels: { priority: number; lanes: Set<Lane> }[] = [];
  const listeners = new Map<SchedulerEvent, Set<(payload: never) => void>>();
  const counters = { admitted: 0, completed: 0, failed: 0, throttled: 0, retried: 0, aborted: 0 };

  let seq = 0;
  let queued = 0;
  let inflight = 0;
  let closed: { reason: unknown } | undefined;
  let pumping = false;
  let pumpAgain = false;
  let timer: { at: number; controller: AbortController } | undefined;

  function emit<E extends SchedulerEvent>(event: E, payload: SchedulerEvents[E]): void {
    const set = listeners.get(event);
    if (!set) return;
    for (const fn of set) {
      try {
        (fn as (p: SchedulerEvents[E]) => void)(payload);
      } catch {
        // A listener's failure must not break scheduling.
      }
    }
  }

  function policiesOf(key: string): Map<string, PolicySpec> {
    let map = policies.get(key);
    if (!map) {
      map = new Map(Object.entries(defaults.policies));
      policies.set(key, map);
    }
    return map;
  }

  function bucketsFor(entry: Entry): BucketRequest[] {
    const { route, classified, key } = entry.lane;
    const names = learned.get(route) ?? classified ?? defaultBuckets(defaults, route);
    const known = policiesOf(key);
    const out: BucketRequest[] = [];
    for (const name of names) {
      const p = known.get(name);
      if (p) out.push({ name, quota: p.quota, windowSeconds: p.windowSeconds });
    }
    return out;
  }

  function levelFor(priority: number): Set<Lane> {
    let level = levels.find((l) => l.priority === priority);
    if (!level) {
      level = { priority, lanes: new Set() };
      levels.push(level);
      levels.sort((a, b) => b.priority - a.priority);
    }
    return level.lanes;
  }

  function laneFor(
    key: string,
    route: string,
    priority: number,
    classified: readonly string[] | undefined,
  ): Lane {
    const id = `${key}\n${priority}\n${route}${classified ? `\n${classified.join(',')}` : ''}`;
    let lane = lanes.get(id);
    if (!lane) {
      lane = { id, key, route, classified, priority, queue: new Deque(), size: 0, blockedUntil: 0 };
      lanes.set(id, lane);
      levelFor(priority).add(lane);
    }
    return lane;
  }

  /** A lane dropped while its entry was in flight comes back for a retry. */
  function revive(lane: Lane): Lane {
    const current = lanes.get(lane.id);
    if (current) return current;
    lanes.set(lane.id, lane);
    levelFor(lane.priority).add(lane);
    return lane;
  }

  function dropLaneIfEmpty(lane: Lane): void {
    if (lane.size > 0 || lanes.get(lane.id) !== lane) return;
    lanes.delete(lane.id);
    levelFor(lane.priority).delete(lane);
  }

  function enqueue(entry: Entry, front: boolean): void {
    const lane = revive(entry.lane);
    entry.lane = lane;
    entry.state = 'queued';
    if (front) lane.queue.unshift(entry);
    else lane.queue.push(entry);
    lane.size++;
    queued++;
  }

  /** First live entry of a lane; aborted entries are skipped lazily (O(1) abort). */
  function head(lane: Lane): Entry | undefined {
    let e = lane.queue.peek();
    while (e && e.state !== 'queued') {
      lane.queue.shift();
      e = lane.queue.peek();
    }
    return e;
  }

  function unblockAll(): void {
    for (const lane of lanes.values()) lane.blockedUntil = 0;
  }

  /** The one timer: wakes the queue when the earliest blocked lane may go. */
  function schedule(at: number): void {
    if (timer && timer.at <= at) return;
    cancelTimer();
    const controller = new AbortController();
    const current = { at, controller };
    timer = current;
    clock.sleep(Math.max(0, at - clock.now()), controller.signal).then(
      () => {
        if (timer !== current) return;
        timer = undefined;
        void pump();
      },
      () => {},
    );
  }

  /**
   * Polls while another process's first request to a bucket is awaited. This waits on something outside
   * the (possibly virtual) clock, so it uses a real timer: a virtual sleep returns at once and would spin.
   */
  function schedulePoll(): void {
    if (timer) return;
    const controller = new AbortController();
    const current = { at: Number.POSITIVE_INFINITY, controller };
    timer = current;
    const handle = setTimeout(() => {
      if (timer !== current) return;
      timer = undefined;
      for (const lane of lanes.values())
        if (lane.blockedUntil === Number.POSITIVE_INFINITY) lane.blockedUntil = 0;
      void pump();
    }, AWAIT_POLL_MS);
    controller.signal.addEventListener('abort', () => clearTimeout(handle), { once: true });
  }

  function cancelTimer(): void {
    if (!timer) return;
    timer.controller.abort();
    timer = undefined;
  }

  function candidates(now: number): Lane[] {
    const out: { lane: Lane; seq: number; priority: number }[] = [];
    for (const level of levels) {
      for (const lane of level.lanes) {
        if (lane.blockedUntil > now) continue;
        const e = head(lane);
        if (e) out.push({ lane, seq: e.seq, priority: level.priority });
      }
    }
    out.sort((a, b) => b.priority - a.priority || a.seq - b.seq);
    return out.map((c) => c.lane);
  }

  async function pump(): Promise<void> {
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    try {
      do {
        pumpAgain = false;
        await pumpOnce();
      } while (pumpAgain);
    } finally {
      pumping = false;
    }
  }

  async function pumpOnce(): Promise<void> {
    while (inflight < concurrency && queued > 0 && !closed) {
      const now = clock.now();
      let admitted = false;
      for (const lane of candidates(now)) {
        const entry = head(lane);
        if (!entry) continue;
        const buckets = bucketsFor(entry);
        let result: Awaited<ReturnType<RateLimitStore['take']>>;
        try {
          result = await store.take(lane.key, buckets, now);
        } catch (error) {
          // A failing store must not strand the queue: fail this request, carry on.
          takeFromLane(lane, entry);
          finish(entry);
          counters.failed++;
          entry.reject(error);
          admitted = true;
          break;
        }
        // The entry may have been aborted while the store answered.
        if (entry.state !== 'queued') {
          if (result.ok) {
            const names = buckets.map((b) => b.name);
            void store.observe(lane.key, result.ticket, names, [], now).catch(() => {});
          }
          admitted = true;
          break;
        }
        if (!result.ok) {
          lane.blockedUntil = result.retryAt;
          continue;
        }
        takeFromLane(lane, entry);
        dispatch(
          entry,
          result.ticket,
          buckets.map((b) => b.name),
          now,
        );
        admitted = true;
        break;
      }
      if (!admitted) break;
    }
    if (queued === 0 || closed) {
      cancelTimer();
      return;
    }
    if (inflight >= concurrency) return;
    let wake = Number.POSITIVE_INFINITY;
    for (const lane of lanes.values()) if (lane.size > 0) wake = Math.min(wake, lane.blockedUntil);
    if (Number.isFinite(wake)) schedule(wake);
    // Waiting for a first response that another process (sharing the store) is expecting: poll.
    else if (inflight === 0) schedulePoll();
  }

  function takeFromLane(lane: Lane, entry: Entry): void {
    lane.queue.shift();
    lane.size--;
    queued--;
    entry.state = 'running';
    dropLaneIfEmpty(lane);
  }

  function finish(entry: Entry): void {
    entry.state = 'done';
    if (entry.signal && entry.onAbort) entry.signal.removeEventListener('abort', entry.onAbort);
    entry.onAbort = undefined;
    entry.input = undefined;
    entry.init = undefined;
    entry.request = undefined;
    entry.body = undefined;
  }

  async function attemptRequest(entry: Entry): Promise<Request> {
    if (!entry.request) {
      const { input, init } = entry;
      // A Request passed alone is sent as it is: copying it (and its abort signal) cost more than the
      // rest of the scheduler's work per request. Only the priority header is removed, from a copy.
      const request =
        input instanceof Request && !init && !(priorityHeader && input.headers.has(priorityHeader))
          ? input
          : new Request(input as RequestInfo | URL, init);
      entry.input = undefined;
      entry.init = undefined;
      if (priorityHeader && request !== input) request.headers.delete(priorityHeader);
      // A retry needs a fresh body: read it once, send a copy per attempt.
      entry.body = request.body && maxRetries > 0 ? await request.arrayBuffer() : null;
      entry.request = request;
      if (!entry.body) return request;
    }
    if (entry.body) return new Request(entry.request, { body: entry.body.slice(0) });
    // Without a body, the same Request can be sent again.
    return entry.request;
  }

  function dispatch(entry: Entry, ticket: number, taken: readonly string[], now: number): void {
    inflight++;
    counters.admitted++;
    entry.attempts++;
    emit('admitted', {
      route: entry.lane.route,
      buckets: taken,
      waitedMs: now - entry.enqueuedAt,
      attempt: entry.attempts,
    });
    void run(entry, ticket, taken);
  }

  async function run(entry: Entry, ticket: number, taken: readonly string[]): Promise<void> {
    let response: Response;
    try {
      response = await baseFetch(await attemptRequest(entry));
    } catch (error) {
      inflight--;
      counters.failed++;
      finish(entry);
      entry.reject(error);
      await store.observe(entry.lane.key, ticket, taken, [], clock.now()).catch(() => {});
      void pump();
      return;
    }
    const now = clock.now();
    const parsed = parseRateLimitHeaders(response.headers, { now, parameterNames: options.parameterNames });
    const { observations, names } = toObservations(entry, parsed);
    let retryAfterSeconds: number | undefined;
    let paused: string[] = [];
    if (response.status === 429) {
      for (const name of taken) {
        const o = observations.find((x) => x.name === name);
        if (o) o.refund = true;
        else observations.push({ name, refund: true });
      }
      paused = throttledBuckets(parsed, taken);
      if (paused.length > 0) {
        retryAfterSeconds = parsed.retryAfterSeconds ?? maxReset(parsed, paused) ?? 1;
        // An absurd Retry-After (misconfiguration, hostile intermediary) must not stop the queue for good.
        const pauseUntil = now + Math.min(retryAfterSeconds * 1000, MAX_PAUSE_MS);
        for (const name of paused) {
          const o = observations.find((x) => x.name === name);
          if (o) o.pauseUntil = pauseUntil;
          else observations.push({ name, pauseUntil });
        }
      }
    }
    if (names.length > 0) learn(entry.lane.route, names);
    else if (parsed.source === undefined) {
      for (const name of taken) {
        const o = observations.find((x) => x.name === name);
        if (o) o.seen = true;
        else observations.push({ name, seen: true });
      }
    }
    try {
      await store.observe(entry.lane.key, ticket, taken, observations, now);
    } catch {
      // The estimate stays as it was; the next response corrects it.
    }
    inflight--;
    unblockAll();
    if (response.status === 429) {
      counters.throttled++;
      emit('throttled', {
        route: entry.lane.route,
        buckets: paused,
        retryAfterSeconds: retryAfterSeconds ?? parsed.retryAfterSeconds ?? 0,
        attempt: entry.attempts,
      });
      const delayMs = (retryAfterSeconds ?? 0) * 1000;
      if (
        paused.length > 0 &&
        entry.attempts <= maxRetries &&
        delayMs <= maxRetryAfterMs &&
        entry.state === 'running' &&
        !entry.signal?.aborted &&
        !closed
      ) {
        counters.retried++;
        emit('retried', { route: entry.lane.route, attempt: entry.attempts, delayMs });
        void response.body?.cancel().catch(() => {});
        // Back to the front of its queue: it keeps its place, and the pause holds it like everyone else.
        enqueue(entry, true);
        void pump();
        return;
      }
    }
    counters.completed++;
    finish(entry);
    entry.resolve(response);
    void pump();
  }

  function toObservations(
    entry: Entry,
    parsed: ParsedRateLimitHeaders,
  ): { observations: BucketObservation[]; names: string[] } {
    const known = policiesOf(entry.lane.key);
    const byName = new Map<string, BucketObservation>();
    for (const p of parsed.policies) {
      const o: BucketObservation = { name: p.name, quota: p.quota };
      if (p.windowSeconds !== undefined) o.windowSeconds = p.windowSeconds;
      byName.set(p.name, o);
      const previous = known.get(p.name);
      const windowSeconds = p.windowSeconds ?? previous?.windowSeconds;
      if (
        windowSeconds !== undefined &&
        (previous?.quota !== p.quota || previous.windowSeconds !== windowSeconds)
      ) {
        known.set(p.name, { quota: p.quota, windowSeconds });
        emit('policy-changed', {
          name: p.name,
          quota: p.quota,
          windowSeconds,
          ...(previous ? { previous } : {}),
        });
      }
    }
    for (const l of parsed.limits) {
      const o = byName.get(l.name) ?? { name: l.name };
      o.remaining = l.remaining;
      if (l.resetSeconds !== undefined) o.resetSeconds = l.resetSeconds;
      byName.set(l.name, o);
    }
    const names =
      parsed.policies.length > 0 ? parsed.policies.map((p) => p.name) : parsed.limits.map((l) => l.name);
    return { observations: [...byName.values()], names };
  }

  function learn(route: string, names: readonly string[]): void {
    const previous = learned.get(route);
    if (previous && previous.length === names.length && previous.every((n, i) => n === names[i])) return;
    if (!previous && learned.size >= MAX_ROUTES) {
      const oldest = learned.keys().next().value;
      if (oldest !== undefined) learned.delete(oldest);
    }
    learned.set(route, [...names]);
  }

  // The last secret seen and its hash, so a run of requests with one key hashes once and stays in order.
  // The secret is only referenced here (the caller holds it anyway); it never reaches the store, stats,
  // events or errors.
  let lastSecret: string | undefined;
  let lastKey: string | Promise<string> | undefined;

  function keyOf(info: RequestInfoLite): string | Promise<string> {
    const option = options.key;
    if (typeof option === 'string') return option;
    if (typeof option === 'function') return option(info);
    const secret = info.headers.get('x-service-secret-key');
    if (!secret) return 'anonymous';
    if (secret === lastSecret && lastKey !== undefined) return lastKey;
    const key = crypto.subtle.digest('SHA-256', encoder.encode(secret)).then((digest) => {
      let hex = 'sha256:';
      for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
      if (lastSecret === secret) lastKey = hex;
      return hex;
    });
    lastSecret = secret;
    lastKey = key;
    return key;
  }

  function priorityOf(init: SchedulerRequestInit | undefined, headers: Headers): number {
    let p = init?.rateLimit?.priority;
    if (p === undefined && priorityHeader) {
      const raw = headers.get(priorityHeader);
      if (raw !== null && raw.trim() !== '') p = Number(raw);
    }
    if (p === undefined || !Number.isFinite(p)) return 0;
    return Math.min(MAX_PRIORITY, Math.max(MIN_PRIORITY, Math.round(p)));
  }

  function schedulerFetch(input: RequestInfo | URL, init?: SchedulerRequestInit): Promise<Response> {
    try {
      if (closed) throw closed.reason;
      const isRequest = typeof Request !== 'undefined' && input instanceof Request;
      const method = (init?.method ?? (isRequest ? input.method : 'GET')).toUpperCase();
      const url = isRequest ? input.url : String(input);
      const headers =
        init?.headers !== undefined ? new Headers(init.headers) : isRequest ? input.headers : new Headers();
      const signal = init?.signal ?? (isRequest ? input.signal : undefined) ?? undefined;
      signal?.throwIfAborted();
      const route = routeKey(method, url);
      const info: RequestInfoLite = { method, url, headers, route };
      const order = ++seq;
      const key = keyOf(info);
      const classified = options.classify?.(info);
      const priority = priorityOf(init, headers);
      let requestInit: RequestInit | undefined = init;
      if (init && 'rateLimit' in init) {
        const { rateLimit: _ignored, ...rest } = init;
        requestInit = rest;
      }
      const admit = (k: string): Promise<Response> => {
        // `closed` or the signal may have changed while the key was hashed.
        const closedMeanwhile = closed as { reason: unknown } | undefined;
        if (closedMeanwhile) throw closedMeanwhile.reason;
        signal?.throwIfAborted();
        return queueRequest(laneFor(k, route, priority, classified), order, input, requestInit, signal);
      };
      return typeof key === 'string' ? admit(key) : key.then(admit);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  function queueRequest(
    lane: Lane,
    order: number,
    input: RequestInfo | URL,
    init: RequestInit | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    return new Promise<Response>((resolve, reject) => {
      const entry: Entry = {
        seq: order,
        input,
        init,
        request: undefined,
        body: undefined,
        lane,
        signal,
        onAbort: undefined,
        resolve,
        reject,
        attempts: 0,
        enqueuedAt: clock.now(),
        state: 'queued',
      };
      if (signal) {
        entry.onAbort = () => {
          if (entry.state !== 'queued') return; // in flight: the fetch itself sees the signal
          entry.state = 'done';
          entry.lane.size--;
          queued--;
          dropLaneIfEmpty(entry.lane);
          counters.aborted++;
          finish(entry);
          reject(signal.reason);
          if (queued === 0) cancelTimer();
        };
        signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      enqueue(entry, false);
      if (listeners.has('queued')) emit('queued', { route: lane.route, priority: lane.priority, queued });
      void pump();
    });
  }

  return {
    fetch: schedulerFetch,
    stats() {
      const known: Record<string, PolicySpec> = {};
      for (const map of policies.values()) for (const [name, p] of map) known[name] = { ...p };
      if (policies.size === 0)
        for (const [name, p] of Object.entries(defaults.policies)) known[name] = { ...p };
      return {
        queued,
        inflight,
        ...counters,
        policies: known,
        routes: Object.fromEntries(learned),
      };
    },
    snapshot: (key) => store.snapshot(key, clock.now()),
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener as (payload: never) => void);
    },
    close(reason = new Error('Scheduler closed')) {
      if (closed) return;
      closed = { reason };
      cancelTimer();
      for (const lane of [...lanes.values()]) {
        for (const entry of lane.queue) {
          if (entry.state !== 'queued') continue;
          entry.state = 'done';
          finish(entry);
          entry.reject(reason);
        }
        lane.size = 0;
        dropLaneIfEmpty(lane);
      }
      queued = 0;
    },
  };
}

/** Buckets a 429 is about: those the response reports empty; all the request took when it reports none. */
function throttledBuckets(parsed: ParsedRateLimitHeaders, taken: readonly string[]): string[] {
  if (parsed.limits.length === 0) return [...taken];
  // Buckets with tokens left mean this 429 is not a rate limit (e.g. the weekly rendertoken limit).
  return parsed.limits.filter((l) => l.remaining === 0).map((l) => l.name);
}

function maxReset(parsed: ParsedRateLimitHeaders, names: readonly string[]): number | undefined {
  let max: number | undefined;
  for (const l of parsed.limits) {
    if (names.includes(l.name) && l.resetSeconds !== undefined) max = Math.max(max ?? 0, l.resetSeconds);
  }
  return max;
}
