import type { BucketObservation } from './bucket.ts';
import type { Attempt, Lane, LaneNeeds } from './lanes.ts';
import type { RateLimitFields } from './parse.ts';
import type { Throttle } from './retry-policy.ts';
import { defaultBuckets, type PolicySpec, type RateLimitDefaults } from './routes.ts';
import type { BucketRequest } from './store.ts';

const MAX_ROUTES = 1000;

export interface PolicyChange {
  name: string;
  quota: number;
  windowSeconds: number;
  previous?: PolicySpec;
}

/**
 * What the scheduler knows of the budget from answers: the live policies per budget key, and which
 * buckets each route consumes (learned from the policy list of its answers; the defaults before that).
 * It turns an answer into the observations the store applies.
 */
export class Budget {
  readonly #policies = new Map<string, Map<string, PolicySpec>>();
  readonly #learned = new Map<string, readonly string[]>();
  /** Changes whenever a policy or a route's buckets do: lanes keep their needs while it stays. */
  #version = 0;

  readonly #defaults: RateLimitDefaults;
  readonly #onPolicyChange: (change: PolicyChange) => void;

  constructor(defaults: RateLimitDefaults, onPolicyChange: (change: PolicyChange) => void) {
    this.#defaults = defaults;
    this.#onPolicyChange = onPolicyChange;
  }

  /**
   * The buckets the head request of a lane needs, with the policy to create each from, and their names.
   * Kept on the lane until a policy or a route's buckets change (read-only: shared by its requests).
   */
  bucketsFor(lane: Lane): LaneNeeds {
    if (lane.needs?.version === this.#version) return lane.needs;
    const names =
      this.#learned.get(lane.route) ?? lane.classified ?? defaultBuckets(this.#defaults, lane.route);
    const known = this.#policiesOf(lane.key);
    const buckets: BucketRequest[] = [];
    for (const name of names) {
      const p = known.get(name);
      if (p) buckets.push({ name, quota: p.quota, windowSeconds: p.windowSeconds });
    }
    // The pause the store last answered may be of buckets the lane no longer needs: its next take tells again.
    lane.pausedUntil = 0;
    lane.needs = {
      version: this.#version,
      buckets: Object.freeze(buckets),
      names: Object.freeze(buckets.map((b) => b.name)),
    };
    return lane.needs;
  }

  /**
   * The observations of one answer for the store: its policies and limits, and for a 429 the refund of
   * what the request took and the pause of the buckets it is about. Learns the route's buckets.
   */
  observe(
    lane: Lane,
    parsed: RateLimitFields,
    { taken, sentAt }: Attempt,
    status: number,
    throttle: Throttle | undefined,
    now: number,
  ): BucketObservation[] {
    // In the order the answer names its buckets (a handful: a list beats a map).
    const out: BucketObservation[] = [];
    this.#readPolicies(lane.key, parsed, out);
    for (let i = 0; i < parsed.limits.length; i++) {
      const l = parsed.limits[i];
      if (!l) continue;
      const o = observationOf(out, l.name);
      o.remaining = l.remaining;
      if (l.resetSeconds !== undefined) o.resetSeconds = l.resetSeconds;
    }
    const named = parsed.policies.length > 0 ? parsed.policies : parsed.limits;
    if (named.length > 0) this.#learn(lane.route, named);
    // An answer without rate-limit fields: stop probing, keep the estimate from the defaults.
    else if (parsed.source === undefined) for (const name of taken) observationOf(out, name).seen = true;
    if (status === 429) {
      // A refused request spent nothing.
      for (const name of taken) observationOf(out, name).refund = true;
      if (throttle?.scope === 'buckets')
        for (const name of throttle.buckets) observationOf(out, name).pauseUntil = now + throttle.pauseMs;
    }
    for (let i = 0; i < out.length; i++) {
      const o = out[i];
      if (!o) continue;
      o.sentAt = sentAt;
      o.answeredAt = now;
    }
    return out;
  }

  stats(): { policies: Record<string, PolicySpec>; routes: Record<string, readonly string[]> } {
    const policies: Record<string, PolicySpec> = {};
    for (const map of this.#policies.values()) for (const [name, p] of map) policies[name] = { ...p };
    if (this.#policies.size === 0)
      for (const [name, p] of Object.entries(this.#defaults.policies)) policies[name] = { ...p };
    return { policies, routes: Object.fromEntries(this.#learned) };
  }

  #policiesOf(key: string): Map<string, PolicySpec> {
    let map = this.#policies.get(key);
    if (!map) {
      map = new Map(Object.entries(this.#defaults.policies));
      this.#policies.set(key, map);
    }
    return map;
  }

  /** Applies the answer's policies (q, w) and reports every change from the first answer that shows it. */
  #readPolicies(key: string, parsed: RateLimitFields, out: BucketObservation[]): void {
    const known = this.#policiesOf(key);
    for (let i = 0; i < parsed.policies.length; i++) {
      const p = parsed.policies[i];
      if (!p) continue;
      const o = observationOf(out, p.name);
      o.quota = p.quota;
      if (p.windowSeconds !== undefined) o.windowSeconds = p.windowSeconds;
      const previous = known.get(p.name);
      const windowSeconds = p.windowSeconds ?? previous?.windowSeconds;
      if (windowSeconds === undefined) continue;
      if (previous?.quota === p.quota && previous.windowSeconds === windowSeconds) continue;
      known.set(p.name, { quota: p.quota, windowSeconds });
      this.#version++;
      this.#onPolicyChange({
        name: p.name,
        quota: p.quota,
        windowSeconds,
        ...(previous ? { previous } : {}),
      });
    }
  }

  /** The route's buckets are the ones the answer names. */
  #learn(route: string, named: readonly { name: string }[]): void {
    const previous = this.#learned.get(route);
    if (previous && sameNames(previous, named)) return;
    if (!previous && this.#learned.size >= MAX_ROUTES) {
      const oldest = this.#learned.keys().next().value;
      if (oldest !== undefined) this.#learned.delete(oldest);
    }
    this.#learned.set(
      route,
      named.map((n) => n.name),
    );
    this.#version++;
  }
}

function sameNames(names: readonly string[], named: readonly { name: string }[]): boolean {
  if (names.length !== named.length) return false;
  for (let i = 0; i < names.length; i++) if (names[i] !== named[i]?.name) return false;
  return true;
}

/** The observation of a bucket in the list, added at its end when the list has none yet. */
function observationOf(out: BucketObservation[], name: string): BucketObservation {
  for (let i = 0; i < out.length; i++) {
    const o = out[i];
    if (o?.name === name) return o;
  }
  const o: BucketObservation = { name };
  out.push(o);
  return o;
}
