import { serializeList } from './structured-fields.ts';

export type PolicyName = 'default' | 'uploads' | 'downloads';
export interface Policy {
  /** Quota: tokens in a full bucket. */
  q: number;
  /** Window in seconds: the time to refill an empty bucket. */
  w: number;
}
export type Policies = Record<PolicyName, Policy>;
export type RateLimitOption = Partial<Record<PolicyName, Partial<Policy>>> | false;

export const DEFAULT_POLICIES: Policies = {
  default: { q: 3000, w: 60 },
  uploads: { q: 5000, w: 86_400 },
  downloads: { q: 100_000, w: 86_400 },
};

export function resolvePolicies(
  option: RateLimitOption | undefined,
  base: Policies = DEFAULT_POLICIES,
): Policies | false {
  if (option === false) return false as const;
  const out = { ...base };
  for (const name of Object.keys(base) as PolicyName[]) {
    const patch = option?.[name];
    if (patch) out[name] = { q: patch.q ?? base[name].q, w: patch.w ?? base[name].w };
  }
  for (const [name, p] of Object.entries(out)) {
    if (!(Number.isInteger(p.q) && p.q > 0 && p.w > 0))
      throw new RangeError(`invalid rate-limit policy ${name}`);
  }
  return out;
}

interface Bucket {
  tokens: number;
  updated: number;
}

export interface RateDecision {
  ok: boolean;
  /** Seconds until the request could succeed (only when !ok). */
  retryAfter: number;
  headers: [string, string][];
}

/** Token buckets per organization, refilled continuously at q/w tokens per second. */
export class RateLimiter {
  private buckets = new Map<string, Bucket>();
  private headerCache = new Map<string, string>();

  constructor(
    private policies: Policies | false,
    private readonly now: () => number,
  ) {}

  setPolicies(policies: Policies | false): void {
    this.policies = policies;
    this.buckets.clear();
    this.headerCache.clear();
  }

  getPolicies(): false | Policies {
    return this.policies;
  }

  reset(): void {
    this.buckets.clear();
  }

  private bucket(org: string, name: PolicyName, policy: Policy, now: number): Bucket {
    const key = `${org}\u0000${name}`;
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: policy.q, updated: now };
      this.buckets.set(key, b);
    } else if (now > b.updated) {
      b.tokens = Math.min(policy.q, b.tokens + ((now - b.updated) / 1000) * (policy.q / policy.w));
      b.updated = now;
    }
    return b;
  }

  private policyHeader(names: readonly PolicyName[], policies: Policies): string {
    const key = names.join(',');
    let value = this.headerCache.get(key);
    if (value === undefined) {
      value = serializeList(
        names.map((n) => ({
          value: n,
          params: [
            ['q', policies[n].q],
            ['w', policies[n].w],
          ] as const,
        })),
      );
      this.headerCache.set(key, value);
    }
    return value;
  }

  /** Takes one token from every named bucket, or none when any of them is empty. */
  take(org: string, names: readonly PolicyName[]): RateDecision {
    const policies = this.policies;
    if (!policies) return { ok: true, retryAfter: 0, headers: [] };
    const now = this.now();
    const buckets = names.map((n) => this.bucket(org, n, policies[n], now));
    const ok = buckets.every((b) => b.tokens >= 1);
    if (ok) for (const b of buckets) b.tokens -= 1;
    let retryAfter = 0;
    const state = names.map((n, i) => {
      const b = buckets[i]!;
      const p = policies[n];
      const r = Math.floor(b.tokens);
      // Seconds until the next whole token; 0 while tokens remain.
      const t = r >= 1 ? 0 : Math.max(1, Math.ceil(((1 - (b.tokens - r)) * p.w) / p.q));
      if (r < 1) retryAfter = Math.max(retryAfter, t);
      return { value: n, params: [['r', r] as const, ['t', t] as const] };
    });
    return {
      ok,
      retryAfter,
      headers: [
        ['X-RateLimit-Policy', this.policyHeader(names, policies)],
        ['X-RateLimit', serializeList(state)],
      ],
    };
  }
}
