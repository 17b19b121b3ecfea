import type { CallbackDeliverer, Delivery } from '../callbacks.ts';
import type { RenderOutcome, RenderOutcomeInput, SandboxContext } from '../context.ts';
import { type DecisionInput, decideClaim } from '../domain/claims.ts';
import { type ShipInput, shipOrder } from '../domain/orders.ts';
import { finishRenderNow } from '../domain/renders.ts';
import type { Result } from '../domain/result.ts';
import type { ActiveFault, FaultSpec, Faults } from '../faults.ts';
import type { Ref } from '../random.ts';
import { type Policies, type RateLimitOption, resolvePolicies } from '../ratelimit.ts';
import type { Organization } from '../state.ts';
import type { VirtualClock } from '../virtual-clock.ts';
import { ControlError, invalidInput } from './error.ts';
import {
  parseAdvanceMs,
  parseCallbackUrl,
  parseDecision,
  parseFaultSpec,
  parseOrganization,
  parseRateLimits,
  parseReference,
  parseRenderProcessingMs,
  parseRendertokenLimit,
  parseShipOptions,
} from './input.ts';

export { ControlError } from './error.ts';

export type ShipOptions = ShipInput;
export type ClaimDecisionInput = DecisionInput;

export interface UploadInfo {
  reference: string;
  kind: 'image' | 'evidence';
  format: 'jpeg' | 'png';
  width: number;
  height: number;
  originalWidth: number;
  originalHeight: number;
  downsized: boolean;
  size: number;
  uploaded: string;
  claimReference: string | null;
}

/** The typed control API: what support, the warehouse and time do to the sandbox. */
export interface SandboxControl {
  /** Current sandbox time (ms since the epoch). */
  now(): number;
  /** Advances the virtual clock and waits for the callback deliveries that became due. */
  advance(ms: number): Promise<void>;
  /** Ships all or part of an order; returns the new shipment's reference. Triggers a callback. */
  ship(orderReference: string, options?: ShipOptions): { shipmentReference: Ref<'Shipment'> };
  /** Records support's decision on a pending claim. A replacement marks the order replaced. */
  decideClaim(claimReference: string, decision: ClaimDecisionInput): void;
  completeRender(renderReference: string): void;
  failRender(renderReference: string): void;
  /** Decides how renders finish when their processing time has passed (default: completed). */
  setRenderOutcome(outcome: RenderOutcome | ((input: RenderOutcomeInput) => RenderOutcome)): void;
  setRenderProcessingMs(ms: number): void;
  setRendertokenLimit(limit: number, organization?: 'A' | 'B'): void;
  /** Sets a store's "API Callback URL"; an empty string disables callbacks. */
  setCallbackUrl(storeReference: string, url: string): void;
  setRateLimits(rateLimits: RateLimitOption): void;
  rateLimits(): Policies | false;
  injectFault(fault: FaultSpec): { id: number };
  clearFaults(): void;
  faults(): ActiveFault[];
  deliveries(): Delivery[];
  /** Attempts the callback deliveries that are due now and waits for every attempt in flight. */
  runDueDeliveries(): Promise<void>;
  upload(reference: string): UploadInfo;
  /** Back to the seed: state, clock, buckets, faults and delivery log. */
  reset(): Promise<void>;
}

export interface ControlDeps {
  ctx: SandboxContext;
  faults: Faults;
  deliverer: CallbackDeliverer;
  /** The virtual clock behind `ctx.clock`; undefined on real time. */
  virtual: VirtualClock | undefined;
  reset(): void;
}

/** The control API is not scoped to an organization: a reference is looked up in all of them. */
function owner<T>(
  ctx: SandboxContext,
  records: (org: Organization) => ReadonlyMap<string, T>,
  what: string,
  reference: unknown,
): [Organization, T] {
  const ref = parseReference(reference, `${what}Reference`);
  for (const org of ctx.world.organizations) {
    const record = records(org).get(ref);
    if (record) return [org, record];
  }
  throw new ControlError(404, 'not_found', `No ${what} ${ref} in the sandbox`);
}

/** A domain refusal, thrown as the control API's error. */
function unwrap<T>(result: Result<T>): T {
  if (result.kind === 'refused') {
    const status =
      result.status === 409 || result.status === 404 || result.status === 400 ? result.status : 422;
    throw new ControlError(status, result.code, result.message);
  }
  return result.value;
}

/** Methods are arrow properties, so `sandbox.control.advance` can be passed around unbound. */
class Control implements SandboxControl {
  private readonly ctx: SandboxContext;

  constructor(private readonly deps: ControlDeps) {
    this.ctx = deps.ctx;
  }

  readonly now = () => {
    return this.ctx.clock.now();
  };

  readonly advance = async (ms: number) => {
    const { virtual } = this.deps;
    if (!virtual) {
      throw new ControlError(409, 'real_clock', 'The sandbox runs on real time; it cannot be advanced');
    }
    // In turn: each sleeper woken in the range runs at its own time and may sleep again within it.
    await virtual.advanceInTurn(parseAdvanceMs(ms, virtual.now()));
    await this.deps.deliverer.runDue();
  };

  readonly ship = (orderReference: string, options?: ShipOptions) => {
    const input = parseShipOptions(options);
    const [org, order] = owner(this.ctx, (o) => o.orders, 'order', orderReference);
    return { shipmentReference: unwrap(shipOrder(this.ctx, org, order, input)).reference };
  };

  readonly decideClaim = (claimReference: string, decision: ClaimDecisionInput) => {
    const input = parseDecision(decision);
    const [org, claim] = owner(this.ctx, (o) => o.claims, 'claim', claimReference);
    unwrap(decideClaim(this.ctx, org, claim, input));
  };

  readonly completeRender = (renderReference: string) => {
    const [org, render] = owner(this.ctx, (o) => o.renders, 'render', renderReference);
    unwrap(finishRenderNow(this.ctx, org, render, 'completed'));
  };

  readonly failRender = (renderReference: string) => {
    const [org, render] = owner(this.ctx, (o) => o.renders, 'render', renderReference);
    unwrap(finishRenderNow(this.ctx, org, render, 'failed'));
  };

  readonly setRenderOutcome = (outcome: RenderOutcome | ((input: RenderOutcomeInput) => RenderOutcome)) => {
    if (typeof outcome === 'function') {
      this.ctx.renderOutcome = outcome;
      return;
    }
    if (outcome !== 'completed' && outcome !== 'failed') {
      throw invalidInput('outcome must be "completed", "failed" or a function');
    }
    this.ctx.renderOutcome = () => outcome;
  };

  readonly setRenderProcessingMs = (ms: number) => {
    this.ctx.renderProcessingMs = parseRenderProcessingMs(ms);
  };

  readonly setRendertokenLimit = (limit: number, organization?: 'A' | 'B') => {
    const checked = parseRendertokenLimit(limit);
    const which = parseOrganization(organization);
    for (const org of this.ctx.world.organizations) {
      if (!which || org.id === which) org.rendertokenLimit = checked;
    }
  };

  readonly setCallbackUrl = (storeReference: string, url: string) => {
    const checked = parseCallbackUrl(url);
    const [, store] = owner(this.ctx, (o) => o.stores, 'store', storeReference);
    store.callbackUrl = checked;
  };

  readonly setRateLimits = (rateLimits: RateLimitOption) => {
    this.ctx.limiter.setPolicies(resolvePolicies(parseRateLimits(rateLimits)));
  };

  readonly rateLimits = () => {
    return this.ctx.limiter.getPolicies();
  };

  readonly injectFault = (fault: FaultSpec) => {
    const spec = parseFaultSpec(fault);
    try {
      return { id: this.deps.faults.add(spec).id };
    } catch (e) {
      throw invalidInput(e instanceof Error ? e.message : 'invalid fault');
    }
  };

  readonly clearFaults = () => {
    this.deps.faults.clear();
  };

  readonly faults = () => {
    return this.deps.faults.list();
  };

  readonly deliveries = () => {
    return this.deps.deliverer.deliveries();
  };

  readonly runDueDeliveries = () => {
    return this.deps.deliverer.runDue();
  };

  readonly upload = (reference: string): UploadInfo => {
    const [, u] = owner(this.ctx, (o) => o.uploads, 'upload', reference);
    const { kind, format, width, height, originalWidth, originalHeight, downsized, size, claimReference } = u;
    return {
      reference: u.reference,
      ...{ kind, format, width, height, originalWidth, originalHeight, downsized, size },
      uploaded: new Date(u.uploaded).toISOString(),
      claimReference,
    };
  };

  readonly reset = async () => {
    await this.deps.deliverer.idle();
    this.deps.reset();
  };
}

export function createControl(deps: ControlDeps): SandboxControl {
  return new Control(deps);
}
