import type { SandboxContext } from '../context.ts';
import { MAX_CLAIMLINES } from '../limits.ts';
import type { ClaimlineDecision, ClaimlineRecord, ClaimRecord, ShipmentRecord } from '../model.ts';
import { isReference } from '../random.ts';
import type { Organization } from '../state.ts';
import { characters, isRecord } from './input.ts';
import { markReplaced } from './orders.ts';
import { ok, type Result, refused } from './result.ts';
import { closedAt, liveUpload } from './uploads.ts';

export const HOUR = 3_600_000;
export const DAY: number = 24 * HOUR;
export const PACKAGE_MISSING_MIN_AGE_MS: number = 48 * HOUR;
export const WARRANTY_MS: number = 100 * DAY;
export const CLOSED_WINDOW_MS: number = 14 * DAY;
export const MAX_EVIDENCE = 3;
export const MAX_COMMENT = 1000;

export type ClaimKind = ClaimRecord['kind'];

/** An evidence upload's bytes until it is deleted or purged (any organization: the URL is public). */
export function evidenceFile(
  ctx: SandboxContext,
  reference: string,
):
  | {
      bytes: Uint8Array;
      type: string;
    }
  | undefined {
  const now = ctx.clock.now();
  for (const org of ctx.world.organizations) {
    // Deleted (unused for a day) or purged evidence has no file.
    const upload = liveUpload(org, reference, 'evidence', now);
    if (!upload) continue;
    return { bytes: upload.bytes, type: upload.format === 'png' ? 'image/png' : 'image/jpeg' };
  }
  return undefined;
}

/** Claims that hold quantity of a shipment: the open (pending) ones, as the reference says. */
function countsTowardShipped(claim: ClaimRecord): boolean {
  return claim.status === 'pending';
}

function checkEvidenceReference(org: Organization, ref: unknown, path: string, now: number): Result<string> {
  if (!isReference(ref, 'Evidence'))
    return refused('invalid_reference', `${path} must be an Evidence_ reference`);
  const upload = liveUpload(org, ref, 'evidence', now);
  if (!upload)
    return refused('unknown_evidence', `${path}: no such evidence (unused evidence expires after 1 day)`);
  // Evidence of a retracted claim is free again (a partner may refile with the same photo, and
  // uploading the same bytes returns the same reference).
  if (upload.claimReference !== null && org.claims.get(upload.claimReference)?.status !== 'retracted') {
    return refused('evidence_in_use', `${path} is already attached to a claim`);
  }
  return ok(ref);
}

function checkEvidence(
  org: Organization,
  refs: unknown,
  path: string,
  now: number,
  required: boolean,
): Result<string[]> {
  if (refs === undefined && !required) return ok([]);
  if (!Array.isArray(refs)) return refused('invalid_request', `${path} must be an array`);
  if (refs.length > MAX_EVIDENCE) {
    return refused(
      'too_many_evidence',
      `${path} holds ${refs.length} references; at most ${MAX_EVIDENCE} are allowed`,
    );
  }
  const out: string[] = [];
  for (const [i, ref] of refs.entries()) {
    const checked = checkEvidenceReference(org, ref, `${path}[${i}]`, now);
    if (checked.kind === 'refused') return checked;
    if (out.includes(checked.value))
      return refused('evidence_in_use', `${path}[${i}] is used twice in this claim`);
    out.push(checked.value);
  }
  return ok(out);
}

function findShipment(org: Organization, ref: unknown, path: string): Result<ShipmentRecord> {
  if (!isReference(ref, 'Shipment'))
    return refused('invalid_reference', `${path} must be a Shipment_ reference`);
  const shipment = org.shipments.get(ref);
  if (!shipment)
    return refused('unknown_shipment', 'No shipment with this reference exists in your organization');
  return ok(shipment);
}

function withinWarranty(shipment: ShipmentRecord, now: number): Result<ShipmentRecord> {
  if (now - shipment.shipped > WARRANTY_MS) {
    return refused('warranty_expired', 'The shipment is older than the 100-day warranty period');
  }
  return ok(shipment);
}

function createdBy(org: Organization): string {
  return `api@${org.id === 'A' ? 'acme-prints' : 'blue-harbor-goods'}.example`;
}

function newClaim(
  ctx: SandboxContext,
  org: Organization,
  fields: Pick<
    ClaimRecord,
    'kind' | 'orderReference' | 'shipmentReference' | 'comment' | 'evidenceReferences' | 'claimlines'
  >,
): ClaimRecord {
  return {
    reference: ctx.world.refs.next('Claim'),
    seq: ++ctx.world.seq,
    status: 'pending',
    createdBy: createdBy(org),
    created: ctx.clock.now(),
    retracted: null,
    decision: null,
    ...fields,
  };
}

function packageMissing(
  ctx: SandboxContext,
  org: Organization,
  input: Record<string, unknown>,
): Result<ClaimRecord> {
  const now = ctx.clock.now();
  const shipment = findShipment(org, input.shipmentReference, 'claim.shipmentReference');
  if (shipment.kind === 'refused') return shipment;
  const evidence = checkEvidence(org, input.evidenceReferences, 'claim.evidenceReferences', now, true);
  if (evidence.kind === 'refused') return evidence;
  if (now - shipment.value.shipped < PACKAGE_MISSING_MIN_AGE_MS) {
    return refused('shipment_too_recent', 'A package-missing claim needs a shipment at least 48 hours old');
  }
  const inWarranty = withinWarranty(shipment.value, now);
  if (inWarranty.kind === 'refused') return inWarranty;
  const existing = [...org.claims.values()].some(
    (c) => c.shipmentReference === shipment.value.reference && c.status !== 'retracted',
  );
  if (existing) return refused('claim_exists', 'The shipment already has a claim');
  const order = org.orders.get(shipment.value.orderReference)!;
  if (order.replaced) return refused('order_replaced', 'The order already has a replacement');
  const category = [...org.claimcategories.values()].find((c) => c.packageMissing)!;
  return ok(
    newClaim(ctx, org, {
      kind: 'package-missing',
      orderReference: order.reference,
      shipmentReference: shipment.value.reference,
      comment: '',
      evidenceReferences: evidence.value,
      claimlines: shipment.value.lines.map((l) => ({
        orderlineIndex: l.orderlineIndex,
        quantity: l.quantity,
        claimcategoryReference: category.reference,
        evidenceReferences: [],
        decision: null,
      })),
    }),
  );
}

/** Quantities per orderline: shipped in this shipment, and held by its open claims. */
function quantities(org: Organization, shipment: ShipmentRecord) {
  const shipped = new Map<number, number>();
  for (const l of shipment.lines)
    shipped.set(l.orderlineIndex, (shipped.get(l.orderlineIndex) ?? 0) + l.quantity);
  const claimed = new Map<number, number>();
  for (const other of org.claims.values()) {
    if (other.shipmentReference !== shipment.reference || !countsTowardShipped(other)) continue;
    for (const l of other.claimlines)
      claimed.set(l.orderlineIndex, (claimed.get(l.orderlineIndex) ?? 0) + l.quantity);
  }
  return { shipped, claimed };
}

interface ClaimlineScope {
  org: Organization;
  now: number;
  shipped: Map<number, number>;
  /** Open claims plus the lines of this request read so far. */
  claimed: Map<number, number>;
  /** Evidence used by this request's lines so far. */
  seen: Set<string>;
}

function checkCategory(org: Organization, ref: unknown, path: string) {
  if (!isReference(ref, 'Claimcategory')) {
    return refused('invalid_reference', `${path}.claimcategoryReference must be a Claimcategory_ reference`);
  }
  const category = org.claimcategories.get(ref);
  if (!category) return refused('unknown_claimcategory', `${path}: no such claim category`);
  if (category.packageMissing) {
    return refused(
      'invalid_claimcategory',
      `${path}: "${category.name}" is not a valid category for item issues; use POST /claim-package-missing`,
    );
  }
  return ok(category);
}

function checkLineEvidence(
  scope: ClaimlineScope,
  line: Record<string, unknown>,
  path: string,
  required: boolean,
  name: string,
) {
  const evidence = checkEvidence(
    scope.org,
    line.evidenceReferences,
    `${path}.evidenceReferences`,
    scope.now,
    // Required, as in the spec: the reference does not show that a claimline may leave it out.
    true,
  );
  if (evidence.kind === 'refused') return evidence;
  for (const ref of evidence.value) {
    if (scope.seen.has(ref)) return refused('evidence_in_use', `${path}: ${ref} is used twice in this claim`);
    scope.seen.add(ref);
  }
  if (required && evidence.value.length === 0) {
    return refused(
      'evidence_required',
      `${path}: the category "${name}" needs at least 1 evidence reference`,
    );
  }
  return evidence;
}

function checkClaimline(scope: ClaimlineScope, line: unknown, i: number): Result<ClaimlineRecord> {
  const path = `claim.claimlines[${i}]`;
  if (!isRecord(line)) return refused('invalid_request', `${path} must be an object`);
  const { orderlineIndex, quantity } = line;
  if (
    typeof orderlineIndex !== 'number' ||
    !Number.isInteger(orderlineIndex) ||
    !scope.shipped.has(orderlineIndex)
  ) {
    return refused(
      'invalid_orderline',
      `${path}.orderlineIndex does not name an orderline (counted from 0) of this shipment`,
    );
  }
  if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1) {
    return refused('invalid_quantity', `${path}.quantity must be a positive integer`);
  }
  const category = checkCategory(scope.org, line.claimcategoryReference, path);
  if (category.kind === 'refused') return category;
  const { reference, evidenceRequired, name } = category.value;
  const evidence = checkLineEvidence(scope, line, path, evidenceRequired, name);
  if (evidence.kind === 'refused') return evidence;
  const total = (scope.claimed.get(orderlineIndex) ?? 0) + quantity;
  const shipped = scope.shipped.get(orderlineIndex)!;
  if (total > shipped) {
    return refused(
      'quantity_exceeds_shipped',
      `${path}.quantity: ${total} claimed (open claims included) exceeds the ${shipped} shipped`,
    );
  }
  scope.claimed.set(orderlineIndex, total);
  return ok({
    orderlineIndex,
    quantity,
    claimcategoryReference: reference,
    evidenceReferences: evidence.value,
    decision: null,
  });
}

function checkComment(value: unknown): Result<string> {
  // Left out is no comment; null is refused like any other non-string (the spec types it as a string).
  const comment = value === undefined ? '' : value;
  if (typeof comment !== 'string') return refused('invalid_request', 'claim.comment must be a string');
  const length = characters(comment);
  if (length > MAX_COMMENT) {
    return refused('comment_too_long', `claim.comment holds ${length} characters; at most ${MAX_COMMENT}`);
  }
  return ok(comment);
}

function checkClaimlines(scope: ClaimlineScope, lines: unknown[]): Result<ClaimlineRecord[]> {
  const out: ClaimlineRecord[] = [];
  for (const [i, line] of lines.entries()) {
    const checked = checkClaimline(scope, line, i);
    if (checked.kind === 'refused') return checked;
    out.push(checked.value);
  }
  return ok(out);
}

function itemIssues(
  ctx: SandboxContext,
  org: Organization,
  input: Record<string, unknown>,
): Result<ClaimRecord> {
  const now = ctx.clock.now();
  const shipment = findShipment(org, input.shipmentReference, 'claim.shipmentReference');
  if (shipment.kind === 'refused') return shipment;
  if (!isReference(input.orderReference, 'Order')) {
    return refused('invalid_reference', 'claim.orderReference must be an Order_ reference');
  }
  const order = org.orders.get(input.orderReference);
  if (!order) return refused('unknown_order', 'No order with this reference exists in your organization');
  if (shipment.value.orderReference !== order.reference) {
    return refused('shipment_order_mismatch', 'The shipment does not belong to this order');
  }
  const comment = checkComment(input.comment);
  if (comment.kind === 'refused') return comment;
  const lines = input.claimlines;
  if (lines !== undefined && !Array.isArray(lines)) {
    return refused('invalid_request', 'claim.claimlines must be an array of claimlines');
  }
  if (!lines || lines.length === 0) {
    return refused('missing_claimlines', 'claim.claimlines must hold at least one claimline');
  }
  if (lines.length > MAX_CLAIMLINES) {
    return refused(
      'too_many_claimlines',
      `claim.claimlines holds ${lines.length} claimlines; the sandbox accepts at most ${MAX_CLAIMLINES}`,
    );
  }
  const inWarranty = withinWarranty(shipment.value, now);
  if (inWarranty.kind === 'refused') return inWarranty;
  const scope = { org, now, seen: new Set<string>(), ...quantities(org, shipment.value) };
  const claimlines = checkClaimlines(scope, lines);
  if (claimlines.kind === 'refused') return claimlines;
  return ok(
    newClaim(ctx, org, {
      kind: 'item-issues',
      orderReference: order.reference,
      shipmentReference: shipment.value.reference,
      comment: comment.value,
      evidenceReferences: [],
      claimlines: claimlines.value,
    }),
  );
}

function store(org: Organization, claim: ClaimRecord) {
  org.claims.set(claim.reference, claim);
  org.claimList.push(claim);
  for (const ref of [...claim.evidenceReferences, ...claim.claimlines.flatMap((l) => l.evidenceReferences)]) {
    const upload = org.uploads.get(ref);
    if (upload) upload.claimReference = claim.reference;
  }
}

/** POST /claim-package-missing and POST /claim-item-issues: checks the rules, then files the claim. */
export function createClaim(
  ctx: SandboxContext,
  org: Organization,
  kind: ClaimKind,
  input: Record<string, unknown>,
): Result<ClaimRecord> {
  const claim = kind === 'package-missing' ? packageMissing(ctx, org, input) : itemIssues(ctx, org, input);
  if (claim.kind === 'ok') store(org, claim.value);
  return claim;
}

export function retractClaim(ctx: SandboxContext, claim: ClaimRecord): Result<ClaimRecord> {
  if (claim.status !== 'pending') {
    return refused(
      'claim_not_pending',
      `The claim is ${claim.status}; only pending claims can be retracted`,
      409,
    );
  }
  claim.status = 'retracted';
  claim.retracted = ctx.clock.now();
  return ok(claim);
}

/** Pending claims plus claims closed at or after `after`, newest first. */
export function visibleClaims(org: Organization, after: number): ClaimRecord[] {
  return org.claimList
    .filter((claim) => {
      const closed = closedAt(claim);
      return closed === null || closed >= after;
    })
    .reverse();
}

export interface DecisionInput {
  /** Every claimline's whole quantity as replacement, refund or rejection; ignored when `claimlines` is given. */
  outcome?: 'replacement' | 'refund' | 'rejection';
  /** Per claimline (in claim order); each line's three quantities must add up to its claimed quantity. */
  claimlines?: Array<Partial<ClaimlineDecision>>;
  refundShippingCosts?: boolean;
  comment?: string;
}

function lineDecision(line: ClaimlineRecord, i: number, decision: DecisionInput): Result<ClaimlineDecision> {
  const given = decision.claimlines?.[i];
  if (!given) {
    if (decision.claimlines) return refused('invalid_decision', `Claimline ${i} has no decision`);
    const outcome = decision.outcome ?? 'rejection';
    return ok({
      replacementQuantity: outcome === 'replacement' ? line.quantity : 0,
      refundQuantity: outcome === 'refund' ? line.quantity : 0,
      rejectionQuantity: outcome === 'rejection' ? line.quantity : 0,
      comment: '',
    });
  }
  const d = {
    replacementQuantity: given.replacementQuantity ?? 0,
    refundQuantity: given.refundQuantity ?? 0,
    rejectionQuantity: given.rejectionQuantity ?? 0,
    comment: given.comment ?? '',
  };
  if (d.replacementQuantity + d.refundQuantity + d.rejectionQuantity !== line.quantity) {
    return refused('invalid_decision', `Claimline ${i}: quantities must add up to ${line.quantity}`);
  }
  return ok(d);
}

/** Support's decision on a pending claim: resolved when anything is awarded, else rejected. */
export function decideClaim(
  ctx: SandboxContext,
  org: Organization,
  claim: ClaimRecord,
  decision: DecisionInput,
): Result<ClaimRecord> {
  if (claim.status !== 'pending') return refused('claim_not_pending', `The claim is ${claim.status}`, 409);
  const lines: ClaimlineDecision[] = [];
  for (const [i, line] of claim.claimlines.entries()) {
    const d = lineDecision(line, i, decision);
    if (d.kind === 'refused') return d;
    lines.push(d.value);
  }
  lines.forEach((d, i) => {
    claim.claimlines[i]!.decision = d;
  });
  claim.status = lines.some((d) => d.replacementQuantity + d.refundQuantity > 0) ? 'resolved' : 'rejected';
  claim.decision = {
    decided: ctx.clock.now(),
    refundShippingCosts: decision.refundShippingCosts ?? false,
    comment: decision.comment ?? '',
  };
  if (lines.some((d) => d.replacementQuantity > 0))
    markReplaced(ctx, org, org.orders.get(claim.orderReference)!);
  return ok(claim);
}
