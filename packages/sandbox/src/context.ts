import type { Context } from 'hono';
import type { SandboxClock } from './clock.ts';
import type { LateCommits } from './domain/late-commits.ts';
import type { Faults } from './faults.ts';
import type { OrderRecord } from './model.ts';
import type { RateLimiter } from './ratelimit.ts';
import type { Organization, World } from './state.ts';

export type OrderChange = 'created' | 'shipped' | 'replaced';

export interface RenderOutcomeInput {
  renderReference: string;
  compositionReference: string;
  imageReference: string;
  organization: string;
}
export type RenderOutcome = 'completed' | 'failed';

/** What every route needs: the current world (replaced on reset), the clock and the hooks. */
export interface SandboxContext {
  world: World;
  readonly clock: SandboxClock;
  readonly limiter: RateLimiter;
  readonly faults: Faults;
  readonly lateCommits: LateCommits;
  readonly pageSize: number;
  readonly jitter: number;
  readonly random: () => number;
  renderProcessingMs: number;
  renderOutcome: (input: RenderOutcomeInput) => RenderOutcome;
  /** Public base of evidence files (evidenceUrls point here). */
  readonly filesUrl: string;
  orderChanged(org: Organization, order: OrderRecord, change: OrderChange): void;
}

/** Set by the fault layer for one request of a `late-commit` fault. */
export interface LateCommitBinding {
  delayMs: number;
  /** Called once a valid order's commit is scheduled, with the commit (it rejects when reset drops it). */
  onScheduled(committed: Promise<unknown>): void;
}

export interface Env {
  Variables: { org: Organization };
  Bindings: { lateCommit?: LateCommitBinding };
}

export type Ctx = Context<Env>;
