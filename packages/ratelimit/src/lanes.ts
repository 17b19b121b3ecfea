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
  /**
   * Runs its sends in the async context of the caller that queued it; undefined while the pump its own
   * caller started is the one that handles it (see the scheduler's `queue`).
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
  /** The buckets its requests need, as the budget last worked them out (see `Budget.bucketsFor`). */
  needs: LaneNeeds | undefined;
  /** Its place in its priority level while it has entries; -1 otherwise. */
  slot: number;
}

/** A lane's buckets with their policies, and their names; valid while the budget's version is the same. */
export interface LaneNeeds {
  version: number;
  buckets: readonly BucketRequest[];
  names: readonly string[];
}

/**
 * The scheduler's queues: lanes grouped by priority, highest first. Aborted entries stay in their deque
 * and are skipped lazily (O(1) abort). Route pauses (a 429 without rate-limit fields) hold the lanes of one
 * route of one budget, and nothing else.
 */
export class Lanes {
  /** Live entries in all lanes. */
  queued = 0;
  private readonly lanes = new Map<string, Lane>();
  private readonly levels: Level[] = [];
  /** Paused routes: until when, and whether the one request probing it after the pause is on its way. */
  private readonly routePauses = new Map<string, { until: number; probing: boolean }>();
  /** The lane {@link laneFor} gave last. */
  private last: Lane | undefined;
  /** The last lane that got its first entry (the one with entries, when only one has). */
  private sole: Lane | undefined;

  laneFor(key: string, route: string, priority: number, classified: readonly string[] | undefined): Lane {
    // Requests come in runs of one lane: the last one is checked first (no id to build and hash).
    const last = this.last;
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
    let lane = this.lanes.get(id);
    if (!lane) {
      // Empty lanes are kept for reuse (a lane per request would cost an allocation each); past a
      // thousand, the empty ones go.
      if (this.lanes.size >= MAX_IDLE_LANES) this.sweep();
      lane = {
        id,
        key,
        route,
        classified,
        priority,
        queue: new Deque(),
        size: 0,
        blockedUntil: 0,
        needs: undefined,
        slot: -1,
      };
      this.lanes.set(id, lane);
    }
    this.last = lane;
    return lane;
  }

  /** Whether a request queued in this lane now would go at once (nothing queued, nothing blocked). */
  idle(lane: Lane): boolean {
    return this.queued === 0 && lane.blockedUntil === 0 && this.routePausedUntil(lane) === 0;
  }

  /** Queues an entry at the back, or at the front (a retry keeps its place). */
  enqueue(entry: Entry, front: boolean): void {
    const lane = this.revive(entry.lane);
    entry.lane = lane;
    if (lane.size === 0) {
      this.levelFor(lane.priority).add(lane);
      this.sole = lane;
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
    const pause = this.routePauses.size > 0 ? this.routePauses.get(`${lane.key}\n${lane.route}`) : undefined;
    if (pause) pause.probing = true;
    // Another entry (a retry, at the front) may have come in while the store answered: only the entry
    // itself leaves; one behind others is skipped when it reaches the head, as it no longer waits.
    if (lane.queue.peek() === entry) lane.queue.shift();
    this.forget(lane);
    entry.state = 'running';
  }

  /** Removes a queued entry (aborted): it stays in the deque until it reaches the head. */
  remove(entry: Entry): void {
    entry.state = 'done';
    this.forget(entry.lane);
  }

  /** Lanes whose head may go now, by priority then arrival. */
  candidates(now: number): Lane[] {
    const only = this.active === 1 ? this.soleLane() : undefined;
    if (only) {
      // The common case: one waiting lane.
      return only.blockedUntil > now || this.routePausedUntil(only) > now ? [] : [only];
    }
    const out: { lane: Lane; seq: number; priority: number }[] = [];
    for (const level of this.levels) {
      for (let i = 0; i < level.size; i++) {
        const lane = level.at(i);
        if (!lane || lane.blockedUntil > now || this.routePausedUntil(lane) > now) continue;
        const e = this.head(lane);
        if (e) out.push({ lane, seq: e.seq, priority: level.priority });
      }
    }
    out.sort((a, b) => b.priority - a.priority || a.seq - b.seq);
    return out.map((c) => c.lane);
  }

  /** When the earliest waiting lane may go (infinite when all wait for an answer). */
  wakeAt(): number {
    let wake = Number.POSITIVE_INFINITY;
    if (this.active === 0) return wake;
    for (const level of this.levels) {
      for (let i = 0; i < level.size; i++) {
        const lane = level.at(i);
        if (lane) wake = Math.min(wake, Math.max(lane.blockedUntil, this.routePausedUntil(lane)));
      }
    }
    return wake;
  }

  /** Something changed (an answer, a refill): every lane may try again. */
  unblock(onlyAwaiting = false): void {
    if (this.active === 0) return;
    for (const level of this.levels) {
      for (let i = 0; i < level.size; i++) {
        const lane = level.at(i);
        if (lane && (!onlyAwaiting || lane.blockedUntil === Number.POSITIVE_INFINITY)) lane.blockedUntil = 0;
      }
    }
  }

  /** Pauses a route; after the pause one request probes it, the rest wait for its answer. */
  pauseRoute(key: string, route: string, until: number): void {
    const id = `${key}\n${route}`;
    const pause = this.routePauses.get(id);
    if (pause) pause.probing = false;
    if (!pause) this.routePauses.set(id, { until, probing: false });
    else if (pause.until < until) pause.until = until;
  }

  /** An answer other than a route-wide 429 (or a failure) ends the route's pause. */
  routeAnswered(key: string, route: string): void {
    if (this.routePauses.size > 0) this.routePauses.delete(`${key}\n${route}`);
  }

  /** Takes every queued entry out (close). */
  drain(): Entry[] {
    const out: Entry[] = [];
    for (const lane of [...this.lanes.values()]) {
      for (const entry of lane.queue) if (entry.state === 'queued') out.push(entry);
      lane.size = 0;
      this.dropIfEmpty(lane);
      this.lanes.delete(lane.id);
    }
    this.last = undefined;
    this.queued = 0;
    return out;
  }

  /** Until when a lane's route holds it: its pause, or for ever while the probe after it is out. */
  private routePausedUntil(lane: Lane): number {
    if (this.routePauses.size === 0) return 0;
    const pause = this.routePauses.get(`${lane.key}\n${lane.route}`);
    if (!pause) return 0;
    return pause.probing ? Number.POSITIVE_INFINITY : pause.until;
  }

  private forget(lane: Lane): void {
    lane.size--;
    this.queued--;
    this.dropIfEmpty(lane);
  }

  private levelFor(priority: number): Level {
    let level = this.levelOf(priority);
    if (!level) {
      level = new Level(priority);
      this.levels.push(level);
      this.levels.sort((a, b) => b.priority - a.priority);
    }
    return level;
  }

  /** A lane swept while its entry was in flight comes back for a retry. */
  private revive(lane: Lane): Lane {
    const current = this.lanes.get(lane.id);
    if (current) return current;
    this.lanes.set(lane.id, lane);
    return lane;
  }

  /** An empty lane leaves its priority level (the level only lists lanes with entries). */
  private dropIfEmpty(lane: Lane): void {
    if (lane.size > 0) return;
    // Aborted entries left in the deque go with it.
    while (lane.queue.length > 0) lane.queue.shift();
    this.levelOf(lane.priority)?.delete(lane);
    if (this.sole === lane) this.sole = undefined;
  }

  /** Lanes with entries, in every priority level (a handful of levels). */
  private get active(): number {
    let n = 0;
    for (let i = 0; i < this.levels.length; i++) n += this.levels[i]?.size ?? 0;
    return n;
  }

  /** The one lane with entries (when {@link active} is 1). */
  private soleLane(): Lane | undefined {
    for (const level of this.levels) if (!this.sole && level.size > 0) this.sole = level.at(0);
    return this.sole;
  }

  private levelOf(priority: number): Level | undefined {
    for (let i = 0; i < this.levels.length; i++) {
      const level = this.levels[i];
      if (level?.priority === priority) return level;
    }
    return undefined;
  }

  private sweep(): void {
    for (const [id, lane] of this.lanes) if (lane.size === 0) this.lanes.delete(id);
    this.last = undefined;
  }
}

/**
 * The lanes with entries of one priority, in no particular order (callers order by priority and arrival).
 * An array with each lane's slot in it: a lane joins and leaves per request, which in a Set would leave a
 * deleted entry each time and rehash it every few requests.
 */
class Level {
  size = 0;
  private readonly lanes: (Lane | undefined)[] = [];

  constructor(readonly priority: number) {}

  /** The i-th lane, for 0 ≤ i < size. */
  at(i: number): Lane | undefined {
    return this.lanes[i];
  }

  add(lane: Lane): void {
    if (lane.slot !== -1) return;
    lane.slot = this.size;
    this.lanes[this.size++] = lane;
  }

  /** Removes a lane (its place goes to the last one), if it is here. */
  delete(lane: Lane): void {
    const slot = lane.slot;
    if (slot === -1 || this.lanes[slot] !== lane) return;
    const last = this.lanes[--this.size];
    this.lanes[this.size] = undefined;
    lane.slot = -1;
    if (last && last !== lane) {
      this.lanes[slot] = last;
      last.slot = slot;
    }
  }
}
