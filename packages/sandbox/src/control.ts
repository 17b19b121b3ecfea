import { Hono } from 'hono';
import type { CallbackDeliverer, Delivery } from './callbacks.ts';
import type { RenderOutcome, RenderOutcomeInput, SandboxContext } from './context.ts';
import type { ActiveFault, FaultSpec, Faults } from './faults.ts';
import type { ClaimlineDecision, ShipmentlineRecord, ShipmentRecord } from './model.ts';
import { type Policies, type RateLimitOption, resolvePolicies } from './ratelimit.ts';
import { shippedQuantities, touch } from './routes/orders.ts';
import { finishRender, settleRender } from './routes/rendering.ts';
import type { Organization } from './state.ts';

export class ControlError extends Error {
  constructor(
    readonly status: 404 | 409 | 422,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ControlError';
  }
}

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
      ctx.clock.advance(ms);
      await deliverer.runDue();
    },
    ship(orderReference, options = {}) {
      const [org, order] = owner(ctx, 'orders', orderReference);
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
    decideClaim(claimReference, decision) {
      const [org, claim] = owner(ctx, 'claims', claimReference);
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
      const [org, render] = owner(ctx, 'renders', ref);
      settleRender(org, ctx, render);
      if (render.status !== 'pending')
        throw new ControlError(409, 'render_not_pending', `The render is ${render.status}`);
      finishRender(org, render, 'completed', ctx.clock.now());
    },
    failRender(ref) {
      const [org, render] = owner(ctx, 'renders', ref);
      settleRender(org, ctx, render);
      if (render.status !== 'pending')
        throw new ControlError(409, 'render_not_pending', `The render is ${render.status}`);
      finishRender(org, render, 'failed', ctx.clock.now());
    },
    setRenderOutcome(outcome) {
      ctx.renderOutcome = typeof outcome === 'function' ? outcome : () => outcome;
    },
    setRenderProcessingMs(ms) {
      ctx.renderProcessingMs = ms;
    },
    setRendertokenLimit(limit, organization) {
      for (const org of ctx.world.organizations) {
        if (!organization || org.id === organization) org.rendertokenLimit = limit;
      }
    },
    setCallbackUrl(storeReference, url) {
      if (url) new URL(url);
      const [, store] = owner(ctx, 'stores', storeReference);
      store.callbackUrl = url;
    },
    setRateLimits(rateLimits) {
      ctx.limiter.setPolicies(resolvePolicies(rateLimits));
    },
    rateLimits: () => ctx.limiter.getPolicies(),
    injectFault(fault) {
      return { id: faults.add(fault).id };
    },
    clearFaults: () => faults.clear(),
    faults: () => faults.list(),
    deliveries: () => deliverer.deliveries(),
    runDueDeliveries: () => deliverer.runDue(),
    upload(reference) {
      const [, u] = owner(ctx, 'uploads', reference);
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

/** The control API over HTTP, mounted at `/_sandbox`. */
export function controlApp(control: SandboxControl, info: () => unknown): Hono {
  const app = new Hono({ strict: false });
  // biome-ignore lint/suspicious/noExplicitAny: control bodies are checked by the control methods
  const body = async (c: { req: { json(): Promise<unknown> } }): Promise<any> =>
    c.req.json().catch(() => ({}));
  app.onError((err, c) => {
    if (err instanceof ControlError) return c.json({ code: err.code, message: err.message }, err.status);
    return c.json({ code: 'invalid_request', message: err.message }, 400);
  });
  app.get('/', (c) => c.json(info()));
  app.get('/clock', (c) => c.json({ now: new Date(control.now()).toISOString(), epochMs: control.now() }));
  app.post('/clock/advance', async (c) => {
    const b = (await body(c)) as { ms?: number; seconds?: number };
    await control.advance(b.ms ?? (b.seconds ?? 0) * 1000);
    return c.json({ now: new Date(control.now()).toISOString(), epochMs: control.now() });
  });
  app.post('/shipments', async (c) => {
    const b = (await body(c)) as ShipOptions & { orderReference: string };
    return c.json(control.ship(b.orderReference, b), 201);
  });
  app.post('/claims/:ref/decision', async (c) => {
    control.decideClaim(c.req.param('ref'), await body(c));
    return c.body(null, 204);
  });
  app.post('/renders/:ref/complete', (c) => {
    control.completeRender(c.req.param('ref'));
    return c.body(null, 204);
  });
  app.post('/renders/:ref/fail', (c) => {
    control.failRender(c.req.param('ref'));
    return c.body(null, 204);
  });
  app.put('/stores/:ref/callback-url', async (c) => {
    const b = (await body(c)) as { url?: string };
    control.setCallbackUrl(c.req.param('ref'), b.url ?? '');
    return c.body(null, 204);
  });
  app.get('/rate-limits', (c) => c.json({ rateLimits: control.rateLimits() }));
  app.put('/rate-limits', async (c) => {
    const b = (await body(c)) as { rateLimits?: RateLimitOption };
    control.setRateLimits(b.rateLimits ?? {});
    return c.json({ rateLimits: control.rateLimits() });
  });
  app.put('/rendertokens', async (c) => {
    const b = (await body(c)) as { limit: number; organization?: 'A' | 'B' };
    control.setRendertokenLimit(b.limit, b.organization);
    return c.body(null, 204);
  });
  app.post('/faults', async (c) => c.json(control.injectFault((await body(c)) as FaultSpec), 201));
  app.get('/faults', (c) => c.json({ faults: control.faults().map(({ pattern: _p, ...f }) => f) }));
  app.delete('/faults', (c) => {
    control.clearFaults();
    return c.body(null, 204);
  });
  app.get('/deliveries', (c) => c.json({ deliveries: control.deliveries() }));
  app.post('/deliveries/run', async (c) => {
    await control.runDueDeliveries();
    return c.json({ deliveries: control.deliveries() });
  });
  app.get('/uploads/:ref', (c) => c.json({ upload: control.upload(c.req.param('ref')) }));
  app.post('/reset', async (c) => {
    await control.reset();
    return c.body(null, 204);
  });
  app.notFound((c) =>
    c.json({ code: 'not_found', message: `No control endpoint ${c.req.method} ${c.req.path}` }, 404),
  );
  return app;
}
