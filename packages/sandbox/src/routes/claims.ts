import type { Hono } from 'hono';
import type { Ctx, Env, SandboxContext } from '../context.ts';
import {
  CLOSED_WINDOW_MS,
  type ClaimKind,
  createClaim,
  retractClaim,
  visibleClaims,
} from '../domain/claims.ts';
import { evidencePurged } from '../domain/uploads.ts';
import { fail, iso, isoOrNull, notFound, paginate, readWrapped, refuse } from '../http.ts';
import type { ClaimRecord } from '../model.ts';
import type { Organization } from '../state.ts';
import { parseDateOrDateTime } from '../timestamps.ts';

function evidenceUrl(org: Organization, ctx: SandboxContext, ref: string): string {
  const ext = org.uploads.get(ref)?.format === 'png' ? 'png' : 'jpg';
  return `${ctx.filesUrl}/evidence/${ref}.${ext}`;
}

function categoryRef(org: Organization, ref: string) {
  const c = org.claimcategories.get(ref)!;
  return { reference: c.reference, name: c.name };
}

function claimDetail(org: Organization, ctx: SandboxContext, claim: ClaimRecord) {
  const order = org.orders.get(claim.orderReference)!;
  const purged = evidencePurged(claim, ctx.clock.now());
  const urls = (refs: string[]) => (purged ? [] : refs.map((r) => evidenceUrl(org, ctx, r)));
  const decision = claim.decision;
  return {
    reference: claim.reference,
    orderReference: claim.orderReference,
    shipmentReference: claim.shipmentReference,
    status: claim.status,
    comment: claim.comment,
    createdBy: claim.createdBy,
    created: iso(claim.created),
    retracted: isoOrNull(claim.retracted),
    decision: decision && { ...decision, decided: iso(decision.decided) },
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

async function create(c: Ctx, ctx: SandboxContext, kind: ClaimKind) {
  const input = await readWrapped(c, 'claim');
  if (input instanceof Response) return input;
  const claim = createClaim(ctx, c.get('org'), kind, input);
  if (claim.kind === 'refused') return refuse(c, claim);
  return c.json({ claim: { reference: claim.value.reference } }, 200);
}

function listClaims(c: Ctx, ctx: SandboxContext) {
  const org = c.get('org');
  const closedAfter = c.req.query('closedAfter');
  const after =
    closedAfter === undefined ? ctx.clock.now() - CLOSED_WINDOW_MS : parseDateOrDateTime(closedAfter);
  if (Number.isNaN(after)) {
    return fail(c, 400, 'invalid_parameter', 'closedAfter must be an RFC 3339 date or date-time');
  }
  const result = paginate(c, 'claims', visibleClaims(org, after), (claim) => claim.seq, ctx.pageSize);
  if (result instanceof Response) return result;
  return c.json({ claims: result.page.map((claim) => listEntry(org, claim)), nextCursor: result.nextCursor });
}

export function claimRoutes(app: Hono<Env>, ctx: SandboxContext): void {
  app.get('/claimcategories', (c) => {
    const categories = [...c.get('org').claimcategories.values()];
    const result = paginate(
      c,
      'claimcategories',
      categories,
      (cat) => -categories.indexOf(cat),
      ctx.pageSize,
    );
    if (result instanceof Response) return result;
    return c.json({
      claimcategories: result.page.map(({ reference, name, evidenceRequired }) => ({
        reference,
        name,
        evidenceRequired,
      })),
      nextCursor: result.nextCursor,
    });
  });

  app.post('/claim-package-missing', (c) => create(c, ctx, 'package-missing'));
  app.post('/claim-item-issues', (c) => create(c, ctx, 'item-issues'));
  app.get('/claims', (c) => listClaims(c, ctx));

  app.get('/claims/:claimReference', (c) => {
    const org = c.get('org');
    const claim = org.claims.get(c.req.param('claimReference'));
    if (!claim) return notFound(c, 'claim');
    return c.json({ claim: claimDetail(org, ctx, claim) });
  });

  app.post('/claims/:claimReference/retract', (c) => {
    const claim = c.get('org').claims.get(c.req.param('claimReference'));
    if (!claim) return notFound(c, 'claim');
    const retracted = retractClaim(ctx, claim);
    if (retracted.kind === 'refused') return refuse(c, retracted);
    return c.body(null, 204);
  });
}
