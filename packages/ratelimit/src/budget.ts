import type { BucketObservation } from './bucket.ts';
import type { Lane } from './lanes.ts';
import type { ParsedRateLimitHeaders } from './parse.ts';
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
  private readonly policies = new Map<string, Map<string, PolicySpec>>();
  private readonly learned = new Map<string, readonly string[]>();

  constructor(
    private readonly defaults: RateLimitDefaults,
    private readonly onPolicyChange: (change: PolicyChange) => void,
  ) {}

  /** The buckets the head request of a lane needs, with the policy to create each from. */
  bucketsFor(lane: Lane): BucketRequest[] {
    const names =
      this.learned.get(lane.route) ?? lane.classified ?? defaultBuckets(this.defaults, lane.route);
    const known = this.policiesOf(lane.key);
    const out: BucketRequest[] = [];
    for (const name of names) {
      const p = known.get(name);
      if (p) out.push({ name, quota: p.quota, windowSeconds: p.windowSeconds });
    }
    return out;
  }

  /**
   * The observations of one answer for the store: its policies and limits, and for a 429 the refund of
   * what the request took and the pause of the buckets it is about. Learns the route's buckets.
   */
  observe(
    lane: Lane,
    parsed: ParsedRateLimitHeaders,
    taken: readonly string[],
    throttle: { status: number; throttle?: Throttle; now: number; sentAt: number },
  ): BucketObservation[] {
    const byName = new Map<string, BucketObservation>();
    const at = (name: string): BucketObservation => {
      let o = byName.get(name);
      if (!o) {
        o = { name };
        byName.set(name, o);
      }
      return o;
    };
    this.readPolicies(lane.key, parsed, at);
    for (const l of parsed.limits) {
      const o = at(l.name);
      o.remaining = l.remaining;
      if (l.resetSeconds !== undefined) o.resetSeconds = l.resetSeconds;
    }
    const names =
      parsed.policies.length > 0 ? parsed.policies.map((p) => p.name) : parsed.limits.map((l) => l.name);
    if (names.length > 0) this.learn(lane.route, names);
    // An answer without rate-limit fields: stop probing, keep the estimate from the defaults.
    else if (parsed.source === undefined) for (const name of taken) at(name).seen = true;
    if (throttle.status === 429) {
      // A refused request spent nothing.
      for (const name of taken) at(name).refund = true;
      const t = throttle.throttle;
      if (t?.scope === 'buckets')
        for (const name of t.buckets) at(name).pauseUntil = throttle.now + t.pauseMs;
    }
    const out = [...byName.values()];
    for (const o of out) {
      o.sentAt = throttle.sentAt;
      o.answeredAt = throttle.now;
    }
    return out;
  }

  stats(): { policies: Record<string, PolicySpec>; routes: Record<string, readonly string[]> } {
    const policies: Record<string, PolicySpec> = {};
    for (const map of this.policies.values()) for (const [name, p] of map) policies[name] = { ...p };
    if (this.policies.size === 0)
      for (const [name, p] of Object.entries(this.defaults.policies)) policies[name] = { ...p };
    return { policies, routes: Object.fromEntries(this.learned) };
  }

  private policiesOf(key: string): Map<string, PolicySpec> {
    let map = this.policies.get(key);
    if (!map) {
      map = new Map(Object.entries(this.defaults.policies));
      this.policies.set(key, map);
    }
    return map;
  }

  /** Applies the answer's policies (q, w) and reports every change from the first answer that shows it. */
  private readPolicies(
    key: string,
    parsed: ParsedRateLimitHeaders,
    at: (name: string) => BucketObservation,
  ): void {
    const known = this.policiesOf(key);
    for (const p of parsed.policies) {
      const o = at(p.name);
      o.quota = p.quota;
      if (p.windowSeconds !== undefined) o.windowSeconds = p.windowSeconds;
      const previous = known.get(p.name);
      const windowSeconds = p.windowSeconds ?? previous?.windowSeconds;
      if (windowSeconds === undefined) continue;
      if (previous?.quota === p.quota && previous.windowSeconds === windowSeconds) continue;
      known.set(p.name, { quota: p.quota, windowSeconds });
      this.onPolicyChange({ name: p.name, quota: p.quota, windowSeconds, ...(previous ? { previous } : {}) });
    }
  }

  private learn(route: string, names: readonly string[]): void {
    const previous = this.learned.get(route);
    if (previous && previous.length === names.length && previous.every((n, i) => n === names[i])) return;
    if (!previous && this.learned.size >= MAX_ROUTES) {
      const oldest = this.learned.keys().next().value;
      if (oldest !== undefined) this.learned.delete(oldest);
    }
    this.learned.set(route, [...names]);
  }
}
