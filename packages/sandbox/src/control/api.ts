import type { CallbackDeliverer, Delivery } from '../callbacks.ts';
import type { RenderOutcome, RenderOutcomeInput, SandboxContext } from '../context.ts';
import type { ActiveFault, FaultSpec, Faults } from '../faults.ts';
import type { ClaimlineDecision, ShipmentlineRecord, ShipmentRecord } from '../model.ts';
import { type Policies, type RateLimitOption, resolvePolicies } from '../ratelimit.ts';
import { shippedQuantities, touch } from '../routes/orders.ts';
import { finishRender, settleRender } from '../routes/rendering.ts';
import type { Organization } from '../state.ts';
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

export interface ShipOptions {
  /** Lines to ship; every unshipped quantity when omitted. orderlineIndex counts from 0. */
  lines?: ShipmentlineRecord[];
  carrier?: string;
  trackingCode?: string;
  trackingUrl?: string;
}

export interface ClaimDecisionInput {
  /**
   * Shorthand for every claimline: award its whole quantity as replacement or refund, or reject it.
   * Ignored when `claimlines` is given.
   */
  outcome?: 'replacement' | 'refund' | 'rejection';
  /** Per claimline (in claim order); each line's three quantities must add up to its claimed quantity. */
  claimlines?: Array<Partial<ClaimlineDecision>>;
  refundShippingCosts?: boolean;
  comment?: string;
}

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
  ship(orderReference: string, options?: ShipOptions): { shipmentReference: string };
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
  reset(): void;
}

function owner<K extends 'orders' | 'claims' | 'renders' | 'stores' | 'uploads'>(
  ctx: SandboxContext,
  map: K,
  reference: string,
): [Organization, NonNullable<ReturnType<Organization[K]['get']>>] {
  for (const org of ctx.world.organizations) {
    const record = org[map].get(reference);
    if (record) return [org, record as NonNullable<ReturnType<Organization[K]['get']>>];
  }
  throw new ControlError(404, 'not_found', `No ${map.slice(0, -1)} ${reference} in the sandbox`);
}

export function createControl(deps: ControlDeps): SandboxControl {
  const { ctx, faults, deliverer } = deps;
  const control: SandboxControl = {
    now: () => ctx.clock.now(),
    async advance(ms) {
      if (ctx.clock.kind === 'real') {
        throw new ControlError(409, 'real_clock', 'The sandbox runs on real time; it cannot be advanced');
      }
      ctx.clock.advance(parseAdvanceMs(ms, ctx.clock.now()));
      await deliverer.runDue();
    },
    ship(orderReference, shipOptions) {
      const options = parseShipOptions(shipOptions);
      const [org, order] = owner(ctx, 'orders', parseReference(orderReference, 'orderReference'));
      const shipped = shippedQuantities(org, order);
      const lines =
        options.lines ??
        order.orderlines
          .map((l, i) => ({ orderlineIndex: i, quantity: l.quantity - shipped[i]! }))
          .filter((l) => l.quantity > 0);
      if (lines.length === 0)
        throw new ControlError(409, 'nothing_to_ship', 'Every orderline is already shipped');
      // Counted per orderline as the lines are read, so one orderline given twice cannot ship more than ordered.
      const shipping = new Map<number, number>();
      for (const l of lines) {
        const line = order.orderlines[l.orderlineIndex];
        if (!line) throw new ControlError(422, 'invalid_orderline', `No orderline ${l.orderlineIndex}`);
        const before = shipping.get(l.orderlineIndex) ?? 0;
        if (
          !Number.isInteger(l.quantity) ||
          l.quantity < 1 ||
          before + l.quantity > line.quantity - shipped[l.orderlineIndex]!
        ) {
          throw new ControlError(
            422,
            'invalid_quantity',
            `Orderline ${l.orderlineIndex}: cannot ship ${l.quantity}`,
          );
        }
        shipping.set(l.orderlineIndex, before + l.quantity);
      }
      const now = ctx.clock.now();
      const reference = ctx.world.refs.next('Shipment');
      const code = `3S${reference.slice(-12).toUpperCase()}`;
      const shipment: ShipmentRecord = {
        reference,
        orderReference,
        shipped: now,
        carrier: options.carrier ?? 'PostNL',
        trackingCode: options.trackingCode ?? code,
        trackingUrl: options.trackingUrl ?? `https://tracking.example.com/${options.trackingCode ?? code}`,
        lines: lines.map((l) => ({ orderlineIndex: l.orderlineIndex, quantity: l.quantity })),
      };
      org.shipments.set(reference, shipment);
      order.shipmentReferences.push(reference);
      touch(order, now);
      ctx.orderChanged(org, order, 'shipped');
      return { shipmentReference: reference };
    },
    decideClaim(claimReference, decisionInput) {
      const decision = parseDecision(decisionInput);
      const [org, claim] = owner(ctx, 'claims', parseReference(claimReference, 'claimReference'));
      if (claim.status !== 'pending') {
        throw new ControlError(409, 'claim_not_pending', `The claim is ${claim.status}`);
      }
      const lines = claim.claimlines.map((l, i): ClaimlineDecision => {
        const given = decision.claimlines?.[i];
        if (given) {
          const d = {
            replacementQuantity: given.replacementQuantity ?? 0,
            refundQuantity: given.refundQuantity ?? 0,
            rejectionQuantity: given.rejectionQuantity ?? 0,
            comment: given.comment ?? '',
          };
          if (d.replacementQuantity + d.refundQuantity + d.rejectionQuantity !== l.quantity) {
            throw new ControlError(
              422,
              'invalid_decision',
              `Claimline ${i}: quantities must add up to ${l.quantity}`,
            );
          }
          return d;
        }
        if (decision.claimlines)
          throw new ControlError(422, 'invalid_decision', `Claimline ${i} has no decision`);
        const outcome = decision.outcome ?? 'rejection';
        return {
          replacementQuantity: outcome === 'replacement' ? l.quantity : 0,
          refundQuantity: outcome === 'refund' ? l.quantity : 0,
          rejectionQuantity: outcome === 'rejection' ? l.quantity : 0,
          comment: '',
        };
      });
      const now = ctx.clock.now();
      lines.forEach((d, i) => {
        claim.claimlines[i]!.decision = d;
      });
      const awarded = lines.some((d) => d.replacementQuantity + d.refundQuantity > 0);
      claim.status = awarded ? 'resolved' : 'rejected';
      claim.decision = {
        decided: now,
        refundShippingCosts: decision.refundShippingCosts ?? false,
        comment: decision.comment ?? '',
      };
      if (lines.some((d) => d.replacementQuantity > 0)) {
        const order = org.orders.get(claim.orderReference)!;
        if (!order.replaced) {
          order.replaced = true;
          touch(order, now);
          ctx.orderChanged(org, order, 'replaced');
        }
      }
    },
    completeRender(ref) {
      const [org, render] = owner(ctx, 'renders', parseReference(ref, 'renderReference'));
      settleRender(org, ctx, render);
      if (render.status !== 'pending')
        throw new ControlError(409, 'render_not_pending', `The render is ${render.status}`);
      finishRender(org, render, 'completed', ctx.clock.now());
    },
    failRender(ref) {
      const [org, render] = owner(ctx, 'renders', parseReference(ref, 'renderReference'));
      settleRender(org, ctx, render);
      if (render.status !== 'pending')
        throw new ControlError(409, 'render_not_pending', `The render is ${render.status}`);
      finishRender(org, render, 'failed', ctx.clock.now());
    },
    setRenderOutcome(outcome) {
      if (typeof outcome === 'function') {
        ctx.renderOutcome = outcome;
        return;
      }
      if (outcome !== 'completed' && outcome !== 'failed') {
        throw invalidInput('outcome must be "completed", "failed" or a function');
      }
      ctx.renderOutcome = () => outcome;
    },
    setRenderProcessingMs(ms) {
      ctx.renderProcessingMs = parseRenderProcessingMs(ms);
    },
    setRendertokenLimit(limitInput, organizationInput) {
      const limit = parseRendertokenLimit(limitInput);
      const organization = parseOrganization(organizationInput);
      for (const org of ctx.world.organizations) {
        if (!organization || org.id === organization) org.rendertokenLimit = limit;
      }
    },
    setCallbackUrl(storeReference, urlInput) {
      const url = parseCallbackUrl(urlInput);
      const [, store] = owner(ctx, 'stores', parseReference(storeReference, 'storeReference'));
      store.callbackUrl = url;
    },
    setRateLimits(rateLimits) {
      ctx.limiter.setPolicies(resolvePolicies(parseRateLimits(rateLimits)));
    },
    rateLimits: () => ctx.limiter.getPolicies(),
    injectFault(fault) {
      const spec = parseFaultSpec(fault);
      try {
        return { id: faults.add(spec).id };
      } catch (e) {
        throw invalidInput(e instanceof Error ? e.message : 'invalid fault');
      }
    },
    clearFaults: () => faults.clear(),
    faults: () => faults.list(),
    deliveries: () => deliverer.deliveries(),
    runDueDeliveries: () => deliverer.runDue(),
    upload(reference) {
      const [, u] = owner(ctx, 'uploads', parseReference(reference));
      return {
        reference: u.reference,
        kind: u.kind,
        format: u.format,
        width: u.width,
        height: u.height,
        originalWidth: u.originalWidth,
        originalHeight: u.originalHeight,
        downsized: u.downsized,
        size: u.size,
        uploaded: new Date(u.uploaded).toISOString(),
        claimReference: u.claimReference,
      };
    },
    async reset() {
      await deliverer.idle();
      deps.reset();
    },
  };
  return control;
}
