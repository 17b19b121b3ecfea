import type { ContextScope } from '@partner-print/openapi/wire';
import { Deque } from './deque.ts';
import type { BucketRequest } from './store.ts';

const MAX_IDLE_LANES = 1000;

/** A request in the scheduler; kept small (100,000 queued fit in well under 50 MB). */
export interface Entry {
  seq: number;
  input: RequestInfo | URL | undefined;
  init: RequestInit | undefined;
  request: Request | undefined;
  body: ArrayBuffer | null | undefined;
  /** Its queue: key, route and priority live there, shared by all its entries. */
  lane: Lane;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  /**
   * Its caller's promise's `resolve`, the one function kept: a failure settles it with a rejected promise
   * (`reject`), not through a second closure held by every queued request.
   */
  resolve: (response: Response | Promise<Response>) => void;
  attempts: number;
  enqueuedAt: number;
  /** Taken out of its lane: `running`, and `sending` while its fetch is awaited. */
  state: 'queued' | 'running' | 'sending' | 'done';
  /** What the current attempt took from the store (set while it runs). */
  attempt: Attempt | undefined;
  /** Retries after a 429 it may still be given (its own limit within the scheduler's). */
  maxRetries: number;
  /** When it stops waiting out pauses (its `maxPauseMs` after it was queued; infinite without one). */
  pauseLimit: number;
  /**
   * Runs its sends in the async context of the caller that queued it; undefined while the pump its own
   * caller started is the one that handles it (see the scheduler's `#queue`).
   */
  scope: ContextScope | undefined;
}

/** What an attempt took from the store, and when it was sent. */
export interface Attempt {
  ticket: number;
  taken: readonly string[];
  sentAt: number;
}

/** One queue per budget key, route, priority (and classification): FIFO within it. */
export interface Lane {
  id: string;
  key: string;
  route: string;
  classified: readonly string[] | undefined;
  priority: number;
  queue: Deque<Entry>;
  /** Live (not aborted) entries in the queue. */
  size: number;
  /** The store refused its head until then (infinite: until an answer arrives). */
  blockedUntil: number;
  /** The latest end of a pause the store reported on its buckets (a pause never ends early). */
  pausedUntil: number;
  /** The buckets its requests need, as the budget last worked them out (see `Budget.bucketsFor`). */
  needs: LaneNeeds | undefined;
  /** Its place among the lanes with entries while it has entries; -1 otherwise. */
  slot: number;
}

/** A lane's buckets with their policies, and their names; valid while the budget's version is the same. */
export interface LaneNeeds {
  version: number;
  buckets: readonly BucketRequest[];
  names: readonly string[];
}

/**
 * The scheduler's queues: one lane per budget key, route and priority, offered by priority then arrival.
 * Aborted entries stay in their deque and are skipped lazily (O(1) abort). Route pauses (a 429 without rate-limit fields) hold the lanes of one
 * route of one budget, and nothing else.
 */
export class Lanes {
  /** Live entries in all lanes. */
  queued = 0;
  readonly #lanes = new Map<string, Lane>();
  /**
   * The lanes with entries, in no particular order (callers order by priority and arrival), in the first
   * `#active` slots: an array with each lane's slot in it, as a lane joins and leaves per request, which in
   * a Set would leave a deleted entry each time and rehash it every few requests.
   */
  readonly #slots: (Lane | undefined)[] = [];
  /** How many lanes have entries. */
  #active = 0;
  /** Paused routes: until when, and whether the one request probing it after the pause is on its way. */
  readonly #routePauses = new Map<string, { until: number; probing: boolean }>();
  /** The lane {@link laneFor} gave last. */
  #last: Lane | undefined;

  laneFor(key: string, route: string, priority: number, classified: readonly string[] | undefined): Lane {
    // Requests come in runs of one lane: the last one is checked first (no id to build and hash).
    const last = this.#last;
    if (
      last &&
      last.key === key &&
      last.route === route &&
      last.priority === priority &&
      last.classified === undefined &&
      classified === undefined
    )
      return last;
    const id = `${key}\n${priority}\n${route}${classified ? `\n${classified.join(',')}` : ''}`;
    let lane = this.#lanes.get(id);
    if (!lane) {
      // Empty lanes are kept for reuse (a lane per request would cost an allocation each); past a
      // thousand, the empty ones go.
      if (this.#lanes.size >= MAX_IDLE_LANES) this.#sweep();
      lane = {
        id,
        key,
        route,
        classified,
        priority,
        queue: new Deque(),
        size: 0,
        blockedUntil: 0,
        pausedUntil: 0,
        needs: undefined,
        slot: -1,
      };
      this.#lanes.set(id, lane);
    }
    this.#last = lane;
    return lane;
  }

  /** Whether a request queued in this lane now would go at once (nothing queued, nothing blocked). */
  idle(lane: Lane): boolean {
    return this.queued === 0 && lane.blockedUntil === 0 && this.#routePausedUntil(lane) === 0;
  }

  /** Queues an entry at the back, or at the front (a retry keeps its place). */
  enqueue(entry: Entry, front: boolean): void {
    const lane = this.#revive(entry.lane);
    entry.lane = lane;
    if (lane.size === 0 && lane.slot === -1) {
      lane.slot = this.#active;
      this.#slots[this.#active++] = lane;
    }
    entry.state = 'queued';
    if (front) lane.queue.unshift(entry);
    else lane.queue.push(entry);
    lane.size++;
    this.queued++;
  }

  /** First live entry of a lane. */
  head(lane: Lane): Entry | undefined {
    let e = lane.queue.peek();
    while (e && e.state !== 'queued') {
      lane.queue.shift();
      e = lane.queue.peek();
    }
    return e;
  }

  /** Takes the head entry out of its lane to run it. */
  take(lane: Lane, entry: Entry): void {
    const pause =
      this.#routePauses.size > 0 ? this.#routePauses.get(`${lane.key}\n${lane.route}`) : undefined;
    if (pause) pause.probing = true;
    // Another entry (a retry, at the front) may have come in while the store answered: only the entry
    // itself leaves; one behind others is skipped when it reaches the head, as it no longer waits.
    if (lane.queue.peek() === entry) lane.queue.shift();
    this.#forget(lane);
    entry.state = 'running';
  }

  /** Removes a queued entry (aborted): it stays in the deque until it reaches the head. */
  remove(entry: Entry): void {
    entry.state = 'done';
    this.#forget(entry.lane);
  }

  /** A pause known to hold the lane past `now`: on its buckets or its route, and its end; undefined when none. */
  pauseOf(lane: Lane, now: number): { scope: 'buckets' | 'route'; until: number } | undefined {
    const route =
      this.#routePauses.size > 0 ? this.#routePauses.get(`${lane.key}\n${lane.route}`) : undefined;
    if (route && !route.probing && route.until > now && route.until >= lane.pausedUntil)
      return { scope: 'route', until: route.until };
    return lane.pausedUntil > now ? { scope: 'buckets', until: lane.pausedUntil } : undefined;
  }

  /**
   * Takes out the queued entries that stop waiting out pauses before `until`: of `lane`, or with `route` of
   * every lane of its budget key and route (a route's pause holds them all).
   */
  outlasted(lane: Lane, until: number, route: boolean): Entry[] {
    const out: Entry[] = [];
    for (let i = 0; i < this.#active; i++) {
      const l = this.#slots[i];
      if (l === lane || (route && l?.key === lane.key && l.route === lane.route))
        for (const entry of l!.queue)
          if (entry.state === 'queued' && entry.pauseLimit < until) out.push(entry);
    }
    for (const entry of out) this.remove(entry);
    return out;
  }

  /** Lanes whose head may go now, by priority then arrival. */
  candidates(now: number): Lane[] {
    const only = this.#active === 1 ? this.#slots[0] : undefined;
    if (only) {
      // The common case: one waiting lane.
      return only.blockedUntil > now || this.#routePausedUntil(only) > now ? [] : [only];
    }
    const out: { lane: Lane; seq: number }[] = [];
    for (let i = 0; i < this.#active; i++) {
      const lane = this.#slots[i];
      if (!lane || lane.blockedUntil > now || this.#routePausedUntil(lane) > now) continue;
      const e = this.head(lane);
      if (e) out.push({ lane, seq: e.seq });
    }
    out.sort((a, b) => b.lane.priority - a.lane.priority || a.seq - b.seq);
    return out.map((c) => c.lane);
  }

  /** When the earliest waiting lane may go (infinite when all wait for an answer). */
  wakeAt(): number {
    let wake = Infinity;
    for (let i = 0; i < this.#active; i++) {
      const lane = this.#slots[i];
      if (lane) wake = Math.min(wake, Math.max(lane.blockedUntil, this.#routePausedUntil(lane)));
    }
    return wake;
  }

  /** Something changed (an answer, a refill): every lane may try again. */
  unblock(onlyAwaiting = false): void {
    for (let i = 0; i < this.#active; i++) {
      const lane = this.#slots[i];
      if (lane && (!onlyAwaiting || lane.blockedUntil === Infinity)) lane.blockedUntil = 0;
    }
  }

  /** Pauses a route; after the pause one request probes it, the rest wait for its answer. */
  pauseRoute(key: string, route: string, until: number): void {
    const id = `${key}\n${route}`;
    const pause = this.#routePauses.get(id);
    if (pause) pause.probing = false;
    if (!pause) this.#routePauses.set(id, { until, probing: false });
    else if (pause.until < until) pause.until = until;
  }

  /** An answer other than a route-wide 429 (or a failure) ends the route's pause. */
  routeAnswered(key: string, route: string): void {
    if (this.#routePauses.size > 0) this.#routePauses.delete(`${key}\n${route}`);
  }

  /** Takes every queued entry out (close). */
  drain(): Entry[] {
    const out: Entry[] = [];
    for (const lane of this.#lanes.values()) {
      for (const entry of lane.queue) if (entry.state === 'queued') out.push(entry);
      lane.size = 0;
      this.#dropIfEmpty(lane);
    }
    this.#lanes.clear();
    this.#last = undefined;
    this.queued = 0;
    return out;
  }

  /** Until when a lane's route holds it: its pause, or for ever while the probe after it is out. */
  #routePausedUntil(lane: Lane): number {
    if (this.#routePauses.size === 0) return 0;
    const pause = this.#routePauses.get(`${lane.key}\n${lane.route}`);
    if (!pause) return 0;
    return pause.probing ? Infinity : pause.until;
  }

  #forget(lane: Lane): void {
    lane.size--;
    this.queued--;
    this.#dropIfEmpty(lane);
  }

  /** A lane swept while its entry was in flight comes back for a retry. */
  #revive(lane: Lane): Lane {
    const current = this.#lanes.get(lane.id);
    if (current) return current;
    this.#lanes.set(lane.id, lane);
    return lane;
  }

  /** An empty lane leaves the lanes with entries (its slot goes to the last one). */
  #dropIfEmpty(lane: Lane): void {
    if (lane.size > 0) return;
    // Aborted entries left in the deque go with it.
    while (lane.queue.length > 0) lane.queue.shift();
    const slot = lane.slot;
    if (slot === -1 || this.#slots[slot] !== lane) return;
    const last = this.#slots[--this.#active];
    this.#slots[this.#active] = undefined;
    lane.slot = -1;
    if (last && last !== lane) {
      this.#slots[slot] = last;
      last.slot = slot;
    }
  }

  #sweep(): void {
    for (const [id, lane] of this.#lanes) if (lane.size === 0) this.#lanes.delete(id);
    this.#last = undefined;
  }
}
