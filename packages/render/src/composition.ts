import {
  GoneError,
  NotFoundError,
  type PartnerPrintError,
  type PartnerPrintErrorInit,
} from '@partner-print/client/errors';
import { isUnreservedReference, type ReferencePrefix } from '@partner-print/openapi/wire';
import { productgroupOf } from './catalog.ts';
import { findIncompatibility } from './compatibility.ts';
import { bounded, type CallContext, settle } from './context.ts';
import {
  CompositionNotFoundError,
  type CompositionQuery,
  CompositionUnavailableError,
  IncompatibleCompositionError,
  type ReferenceQuery,
} from './errors.ts';
import type { ClientState } from './state.ts';
import type { Composition, Perspective, Scene } from './types.ts';

function checked<P extends ReferencePrefix>(prefix: P, field: string, value: unknown) {
  if (!isUnreservedReference(prefix, value))
    throw new TypeError(`${field} must be a ${prefix}_… reference (${prefix}_ and 26 characters)`);
  return value;
}

/** The three references of a query, checked: a TypeError before any request when one is malformed. */
export function referenceQuery(query: CompositionQuery): ReferenceQuery {
  return {
    sceneReference: checked('Scene', 'sceneReference', query.sceneReference),
    productReference: checked('Product', 'productReference', query.productReference),
    perspectiveReference: checked('Perspective', 'perspectiveReference', query.perspectiveReference),
  };
}

const catalogKey = (q: CompositionQuery) =>
  `lookup:${q.sceneReference}|${q.productReference}|${q.perspectiveReference}`;

/** The product's productgroup from GET /products (remembering every product seen on the way). */
async function productgroupReference(
  state: ClientState,
  productReference: string,
  ctx: CallContext,
): Promise<string | undefined> {
  const now = ctx.clock.now();
  return state.catalog.load(`productgroup:${productReference}`, now, ctx.catalogTtlMs, async () => {
    let found: string | undefined;
    await state.api.scanProducts((product) => {
      const reference = product.reference;
      if (typeof reference !== 'string') return false;
      const group = productgroupOf(product);
      if (reference === productReference) {
        found = group;
        return true;
      }
      state.catalog.put(`productgroup:${reference}`, now, ctx.catalogTtlMs, group);
      return false;
    });
    return found;
  });
}

/** The HTTP facts of a client error, for an error of this package that wraps it. */
function inherit(error: PartnerPrintError): PartnerPrintErrorInit {
  const { status, code, operation, method, path, retryAfter, rateLimit, requestId } = error;
  return { status, code, operation, method, path, retryAfter, rateLimit, requestId, cause: error };
}

/**
 * Step 1 and 2: the composition for scene + product + perspective, checked for compatibility. The lookup
 * and the reads behind the checks run side by side; on a 404 the checks explain why.
 */
export async function resolveComposition(
  state: ClientState,
  query: ReferenceQuery,
  ctx: CallContext,
): Promise<Composition> {
  const now = ctx.clock.now();
  const ttl = ctx.catalogTtlMs;
  const { api, catalog } = state;
  const lookup = settle(catalog.load(catalogKey(query), now, ttl, () => api.lookupComposition(query)));
  const checks = ctx.checkCompatibility;
  const scene = checks
    ? settle(
        catalog.load(`scene:${query.sceneReference}`, now, ttl, () => api.getScene(query.sceneReference)),
      )
    : undefined;
  const perspective = checks
    ? settle(
        catalog.load(`perspective:${query.perspectiveReference}`, now, ttl, () =>
          api.getPerspective(query.perspectiveReference),
        ),
      )
    : undefined;
  const group = checks ? settle(productgroupReference(state, query.productReference, ctx)) : undefined;

  const [l, s, p, g] = await bounded(
    ctx,
    'looking up the composition',
    Promise.all([lookup, scene, perspective, group]),
  );
  const facts = {
    scene: s?.ok ? (s.value as Scene) : undefined,
    perspective: p?.ok ? (p.value as Perspective) : undefined,
    productgroupReference: g?.ok ? g.value : undefined,
  };

  if (!l.ok) {
    if (l.error instanceof NotFoundError) {
      const incompatibility = findIncompatibility(query, facts, 'diagnose');
      const init = inherit(l.error);
      throw incompatibility
        ? new IncompatibleCompositionError(query, incompatibility, init)
        : new CompositionNotFoundError(query, init);
    }
    if (l.error instanceof GoneError) throw new CompositionUnavailableError(query, inherit(l.error));
    throw l.error;
  }
  const composition = l.value;
  ctx.emit({ type: 'composition', composition });
  if (!checks) return composition;

  if (!s!.ok) throw s!.error;
  if (!p!.ok) throw p!.error;
  if (g && !(g.ok && g.value)) {
    ctx.emit({
      type: 'warning',
      code: 'productgroup-unknown',
      message: g.ok
        ? `The productgroup of product ${query.productReference} could not be determined from GET /products; the productgroup check was skipped.`
        : `GET /products failed (${(g.error as Error)?.message ?? g.error}); the productgroup check was skipped.`,
    });
  }
  const incompatibility = findIncompatibility(query, facts, 'blocking');
  if (incompatibility) throw new IncompatibleCompositionError(query, incompatibility);
  ctx.emit({ type: 'checked' });
  return composition;
}
