import type { Hono } from 'hono';
import type { Ctx, Env, SandboxContext } from '../context.ts';
import { fail, isObject, iso, isoOrNull, notFound, paginate, readWrapped } from '../http.ts';
import { MAX_CLAIMLINES } from '../limits.ts';
import type { ClaimlineRecord, ClaimRecord, ShipmentRecord } from '../model.ts';
import { isReference } from '../random.ts';
import type { Organization } from '../state.ts';
import { liveUpload } from './uploads.ts';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const PACKAGE_MISSING_MIN_AGE_MS = 48 * HOUR;
export const WARRANTY_MS = 100 * DAY;
export const CLOSED_WINDOW_MS = 14 * DAY;
export const EVIDENCE_RETENTION_MS = 120 * DAY;
export const MAX_EVIDENCE = 3;
export const MAX_COMMENT = 1000;

type Invalid = { status: 400 | 404 | 422; code: string; message: string };
const invalid = (code: string, message: string, status: 400 | 404 | 422 = 422): Invalid => ({
  status,
  code,
  message,
});

export function closedAt(claim: ClaimRecord): number | null {
  return claim.decision?.decided ?? claim.retracted;
}

/** Evidence is purged about four months after the claim's decision or retraction. */
export function evidencePurged(claim: ClaimRecord, now: number): boolean {
  const closed = closedAt(claim);
  return closed !== null && now - closed >= EVIDENCE_RETENTION_MS;
}

/** An evidence upload's bytes while its claim's evidence is not purged (any organization: the URL is public). */
export function evidenceFile(ctx: SandboxContext, reference: string) {
  for (const org of ctx.world.organizations) {
    const upload = org.uploads.get(reference);
    if (upload?.kind !== 'evidence' || upload.purged) continue;
    const claim = upload.claimReference ? org.claims.get(upload.claimReference) : undefined;
    if (claim && evidencePurged(claim, ctx.clock.now())) return undefined;
    return { bytes: upload.bytes, type: upload.format === 'png' ? 'image/png' : 'image/jpeg' };
  }
  return undefined;
}

/** Claims that hold quantity of a shipment: the open (pending) ones, as the reference says. */
function countsTowardShipped(claim: ClaimRecord): boolean {
  return claim.status === 'pending';
}

function validateEvidence(
  org: Organization,
  refs: unknown,
  path: string,
  now: number,
  required: boolean,
): string[] | Invalid {
  if (refs === undefined && !required) return [];
  if (!Array.isArray(refs)) return invalid('invalid_request', `${path} must be an array`);
  if (refs.length > MAX_EVIDENCE) {
    return invalid(
      'too_many_evidence',
      `${path} holds ${refs.length} references; at most ${MAX_EVIDENCE} are allowed`,
    );
  }
  for (const [i, ref] of refs.entries()) {
    if (!isReference(ref, 'Evidence'))
      return invalid('invalid_reference', `${path}[${i}] must be an Evidence_ reference`);
    const upload = liveUpload(org, ref, 'evidence', now);
    if (!upload)
      return invalid(
        'unknown_evidence',
        `${path}[${i}]: no such evidence (unused evidence expires after 1 day)`,
      );
    // Evidence of a retracted claim is free again (a partner may refile with the same photo, and
    // uploading the same bytes returns the same reference).
    if (upload.claimReference !== null && org.claims.get(upload.claimReference)?.status !== 'retracted')
      return invalid('evidence_in_use', `${path}[${i}] is already attached to a claim`);
    if (refs.indexOf(ref) !== i)
      return invalid('evidence_in_use', `${path}[${i}] is used twice in this claim`);
  }
  return refs as string[];
}

function findShipment(org: Organization, ref: unknown, path: string): ShipmentRecord | Invalid {
  if (!isReference(ref, 'Shipment'))
    return invalid('invalid_reference', `${path} must be a Shipment_ reference`);
  const shipment = org.shipments.get(ref);
  if (!shipment)
    return invalid('unknown_shipment', 'No shipment with this reference exists in your organization');
  return shipment;
}

function checkWarranty(shipment: ShipmentRecord, now: number): Invalid | undefined {
  if (now - shipment.shipped > WARRANTY_MS) {
    return invalid('warranty_expired', 'The shipment is older than the 100-day warranty period');
  }
  return undefined;
}

function createdBy(org: Organization): string {
  return `api@${org.id === 'A' ? 'acme-prints' : 'blue-harbor-goods'}.example`;
}

function store(org: Organization, claim: ClaimRecord) {
  org.claims.set(claim.reference, claim);
  org.claimList.push(claim);
  for (const ref of [...claim.evidenceReferences, ...claim.claimlines.flatMap((l) => l.evidenceReferences)]) {
    const upload = org.uploads.get(ref);
    if (upload) upload.claimReference = claim.reference;
  }
}

function packageMissing(
  org: Organization,
  ctx: SandboxContext,
  input: Record<string, unknown>,
): ClaimRecord | Invalid {
  const now = ctx.clock.now();
  const shipment = findShipment(org, input.shipmentReference, 'claim.shipmentReference');
  if ('status' in shipment) return shipment;
  const evidence = validateEvidence(org, input.evidenceReferences, 'claim.evidenceReferences', now, true);
  if ('status' in evidence) return evidence;
  if (now - shipment.shipped < PACKAGE_MISSING_MIN_AGE_MS) {
    return invalid('shipment_too_recent', 'A package-missing claim needs a shipment at least 48 hours old');
  }
  const expired = checkWarranty(shipment, now);
  if (expired) return expired;
  const existing = [...org.claims.values()].some(
    (c) => c.shipmentReference === shipment.reference && c.status !== 'retracted',
  );
  if (existing) return invalid('claim_exists', 'The shipment already has a claim');
  const order = org.orders.get(shipment.orderReference)!;
  if (order.replaced) return invalid('order_replaced', 'The order already has a replacement');
  const category = [...org.claimcategories.values()].find((c) => c.packageMissing)!;
  return {
    reference: ctx.world.refs.next('Claim'),
    seq: ++ctx.world.seq,
    kind: 'package-missing',
    orderReference: order.reference,
    shipmentReference: shipment.reference,
    status: 'pending',
    comment: '',
    createdBy: createdBy(org),
    created: now,
    retracted: null,
    decision: null,
    evidenceReferences: evidence,
    claimlines: shipment.lines.map((l) => ({
      orderlineIndex: l.orderlineIndex,
      quantity: l.quantity,
      claimcategoryReference: category.reference,
      evidenceReferences: [],
      decision: null,
    })),
  };
}

function itemIssues(
  org: Organization,
  ctx: SandboxContext,
  input: Record<string, unknown>,
): ClaimRecord | Invalid {
  const now = ctx.clock.now();
  const shipment = findShipment(org, input.shipmentReference, 'claim.shipmentReference');
  if ('status' in shipment) return shipment;
  if (!isReference(input.orderReference, 'Order')) {
    return invalid('invalid_reference', 'claim.orderReference must be an Order_ reference');
  }
  const order = org.orders.get(input.orderReference);
  if (!order) return invalid('unknown_order', 'No order with this reference exists in your organization');
  if (shipment.orderReference !== order.reference) {
    return invalid('shipment_order_mismatch', 'The shipment does not belong to this order');
  }
  const comment = input.comment ?? '';
  if (typeof comment !== 'string') return invalid('invalid_request', 'claim.comment must be a string');
  if (comment.length > MAX_COMMENT) {
    return invalid(
      'comment_too_long',
      `claim.comment holds ${comment.length} characters; at most ${MAX_COMMENT}`,
    );
  }
  const lines = input.claimlines;
  if (!Array.isArray(lines) || lines.length === 0) {
    return invalid('missing_claimlines', 'claim.claimlines must hold at least one claimline');
  }
  if (lines.length > MAX_CLAIMLINES) {
    return invalid(
      'too_many_claimlines',
      `claim.claimlines holds ${lines.length} claimlines; the sandbox accepts at most ${MAX_CLAIMLINES}`,
    );
  }
  const expired = checkWarranty(shipment, now);
  if (expired) return expired;

  const shippedHere = new Map<number, number>();
  for (const l of shipment.lines)
    shippedHere.set(l.orderlineIndex, (shippedHere.get(l.orderlineIndex) ?? 0) + l.quantity);
  const claimed = new Map<number, number>();
  for (const other of org.claims.values()) {
    if (other.shipmentReference !== shipment.reference || !countsTowardShipped(other)) continue;
    for (const l of other.claimlines)
      claimed.set(l.orderlineIndex, (claimed.get(l.orderlineIndex) ?? 0) + l.quantity);
  }
  const claimlines: ClaimlineRecord[] = [];
  const seen = new Set<string>();
  for (const [i, line] of lines.entries()) {
    const path = `claim.claimlines[${i}]`;
    if (!isObject(line)) return invalid('invalid_request', `${path} must be an object`);
    const { orderlineIndex, quantity, claimcategoryReference } = line;
    if (
      typeof orderlineIndex !== 'number' ||
      !Number.isInteger(orderlineIndex) ||
      !shippedHere.has(orderlineIndex)
    ) {
      return invalid(
        'invalid_orderline',
        `${path}.orderlineIndex does not name an orderline (counted from 0) of this shipment`,
      );
    }
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1) {
      return invalid('invalid_quantity', `${path}.quantity must be a positive integer`);
    }
    if (!isReference(claimcategoryReference, 'Claimcategory')) {
      return invalid(
        'invalid_reference',
        `${path}.claimcategoryReference must be a Claimcategory_ reference`,
      );
    }
    const category = org.claimcategories.get(claimcategoryReference);
    if (!category) return invalid('unknown_claimcategory', `${path}: no such claim category`);
    if (category.packageMissing) {
      return invalid(
        'invalid_claimcategory',
        `${path}: "${category.name}" is not a valid category for item issues; use POST /claim-package-missing`,
      );
    }
    const evidence = validateEvidence(org, line.evidenceReferences, `${path}.evidenceReferences`, now, false);
    if ('status' in evidence) return evidence;
    for (const ref of evidence) {
      if (seen.has(ref)) return invalid('evidence_in_use', `${path}: ${ref} is used twice in this claim`);
      seen.add(ref);
    }
    if (category.evidenceRequired && evidence.length === 0) {
      return invalid(
        'evidence_required',
        `${path}: the category "${category.name}" needs at least 1 evidence reference`,
      );
    }
    const total = (claimed.get(orderlineIndex) ?? 0) + quantity;
    if (total > shippedHere.get(orderlineIndex)!) {
      return invalid(
        'quantity_exceeds_shipped',
        `${path}.quantity: ${total} claimed (open claims included) exceeds the ${shippedHere.get(orderlineIndex)} shipped`,
      );
    }
    claimed.set(orderlineIndex, total);
    claimlines.push({
      orderlineIndex,
      quantity,
      claimcategoryReference,
      evidenceReferences: evidence,
      decision: null,
    });
  }
  return {
    reference: ctx.world.refs.next('Claim'),
    seq: ++ctx.world.seq,
    kind: 'item-issues',
    orderReference: order.reference,
    shipmentReference: shipment.reference,
    status: 'pending',
    comment,
    createdBy: createdBy(org),
    created: now,
    retracted: null,
    decision: null,
    evidenceReferences: [],
    claimlines,
  };
}

export function evidenceUrl(org: Organization, ctx: SandboxContext, ref: string): string {
  const ext = org.uploads.get(ref)?.format === 'png' ? 'png' : 'jpg';
  return `${ctx.filesUrl}/evidence/${ref}.${ext}`;
}

function categoryRef(org: Organization, ref: string) {
  const c = org.claimcategories.get(ref)!;
  return { reference: c.reference, name: c.name };
}

export function claimDetail(org: Organization, ctx: SandboxContext, claim: ClaimRecord) {
  const order = org.orders.get(claim.orderReference)!;
  const purged = evidencePurged(claim, ctx.clock.now());
  const urls = (refs: string[]) => (purged ? [] : refs.map((r) => evidenceUrl(org, ctx, r)));
  return {
    reference: claim.reference,
    orderReference: claim.orderReference,
    shipmentReference: claim.shipmentReference,
    status: claim.status,
    comment: claim.comment,
    createdBy: claim.createdBy,
    created: iso(claim.created),
    retracted: isoOrNull(claim.retracted),
    decision: claim.decision
      ? {
          decided: iso(claim.decision.decided),
          refundShippingCosts: claim.decision.refundShippingCosts,
          comment: claim.decision.comment,
        }
      : null,
    evidenceUrls: urls(claim.evidenceReferences),
    claimlines: claim.claimlines.map((l) => {
      const orderline = order.orderlines[l.orderlineIndex]!;
      return {
        productReference: orderline.productReference,
        orderlineIndex: l.orderlineIndex,
        quantity: l.quantity,
        imageReference: orderline.imageReference,
        claimcategory: categoryRef(org, l.claimcategoryReference),
        decision: l.decision,
        evidenceUrls: urls(l.evidenceReferences),
      };
    }),
  };
}

function listEntry(org: Organization, claim: ClaimRecord) {
  const categories = [...new Set(claim.claimlines.map((l) => l.claimcategoryReference))];
  return {
    reference: claim.reference,
    orderReference: claim.orderReference,
    status: claim.status,
    claimcategories: categories.map((ref) => categoryRef(org, ref)),
    created: iso(claim.created),
    retracted: isoOrNull(claim.retracted),
    decided: isoOrNull(claim.decision?.decided ?? null),
  };
}

async function create(c: Ctx, ctx: SandboxContext, kind: 'package-missing' | 'item-issues') {
  const input = await readWrapped(c, 'claim');
  if (input instanceof Response) return input;
  const org = c.get('org');
  const claim = kind === 'package-missing' ? packageMissing(org, ctx, input) : itemIssues(org, ctx, input);
  if ('status' in claim && typeof claim.status === 'number') {
    const e = claim as Invalid;
    return fail(c, e.status, e.code, e.message);
  }
  store(org, claim as ClaimRecord);
  return c.json({ claim: { reference: (claim as ClaimRecord).reference } }, 200);
}

export function claimRoutes(app: Hono<Env>, ctx: SandboxContext) {
  app.get('/claimcategories', (c) => {
    const categories = [...c.get('org').claimcategories.values()].map((cat) => ({
      reference: cat.reference,
      name: cat.name,
      evidenceRequired: cat.evidenceRequired,
    }));
    return c.json({ claimcategories: categories, nextCursor: null });
  });

  app.post('/claim-package-missing', (c) => create(c, ctx, 'package-missing'));
  app.post('/claim-item-issues', (c) => create(c, ctx, 'item-issues'));

  app.get('/claims', (c) => {
    const org = c.get('org');
    const now = ctx.clock.now();
    let after = now - CLOSED_WINDOW_MS;
    const closedAfter = c.req.query('closedAfter');
    if (closedAfter !== undefined) {
      const parsed = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(closedAfter)
        ? Date.parse(closedAfter)
        : Number.NaN;
      if (Number.isNaN(parsed)) {
        return fail(c, 400, 'invalid_parameter', 'closedAfter must be an ISO 8601 date or timestamp');
      }
      after = parsed;
    }
    const visible = org.claimList
      .filter((claim) => {
        const closed = closedAt(claim);
        return closed === null || closed >= after;
      })
      .reverse();
    const result = paginate(c, 'claims', visible, (claim) => claim.seq, ctx.pageSize);
    if (result instanceof Response) return result;
    return c.json({
      claims: result.page.map((claim) => listEntry(org, claim)),
      nextCursor: result.nextCursor,
    });
  });

  app.get('/claims/:claimReference', (c) => {
    const org = c.get('org');
    const claim = org.claims.get(c.req.param('claimReference'));
    if (!claim) return notFound(c, 'claim');
    return c.json({ claim: claimDetail(org, ctx, claim) });
  });

  app.post('/claims/:claimReference/retract', (c) => {
    const org = c.get('org');
    const claim = org.claims.get(c.req.param('claimReference'));
    if (!claim) return notFound(c, 'claim');
    if (claim.status !== 'pending') {
      return fail(
        c,
        409,
        'claim_not_pending',
        `The claim is ${claim.status}; only pending claims can be retracted`,
      );
    }
    claim.status = 'retracted';
    claim.retracted = ctx.clock.now();
    return c.body(null, 204);
  });
}
