import {
  GoneError,
  NotFoundError,
  PartnerPrintError,
  type PartnerPrintErrorInit,
  RendertokenLimitError,
  TimeoutError,
} from '@partner-print/client/errors';
import type { Reference } from '@partner-print/openapi/wire';
import type { Render } from './types.ts';

export interface CompositionQuery {
  sceneReference: string;
  productReference: string;
  perspectiveReference: string;
}

/** A query whose references have been checked (what the API calls take). */
export interface ReferenceQuery extends CompositionQuery {
  sceneReference: Reference<'Scene'>;
  productReference: Reference<'Product'>;
  perspectiveReference: Reference<'Perspective'>;
}

// The fields are `declare`d and set in the constructors: no class field is emitted for them (the same own
// properties, in the same order).

const describe = (q: CompositionQuery) =>
  `scene ${q.sceneReference}, product ${q.productReference} and perspective ${q.perspectiveReference}`;

/** No composition combines this scene, product and perspective (GET /lookup-composition answered 404). */
export class CompositionNotFoundError extends NotFoundError {
  override name = 'CompositionNotFoundError';
  declare readonly query: CompositionQuery;

  constructor(query: CompositionQuery, init: PartnerPrintErrorInit & { message?: string } = {}) {
    const { message, ...rest } = init;
    super(
      message ??
        `No composition exists for ${describe(query)}. Check the references (they differ between the test and production environments) and list the perspectives with GET /perspectives?sceneReference=….`,
      { operation: 'lookupComposition', ...rest },
    );
    this.query = query;
  }
}

/** GET /lookup-composition answered 410: the combination existed but a catalog object in it is deprecated. */
export class CompositionUnavailableError extends GoneError {
  override name = 'CompositionUnavailableError';
  declare readonly query: CompositionQuery;

  constructor(query: CompositionQuery, init: PartnerPrintErrorInit = {}) {
    super(
      `The composition for ${describe(query)} is no longer available: the catalog object is deprecated. Choose another scene, product or perspective.`,
      { status: 410, operation: 'lookupComposition', ...init },
    );
    this.query = query;
  }
}

/**
 * Why a composition cannot be rendered:
 * - `product-perspective-not-allowed`: a product perspective with a scene whose `allowsProductPerspectives` is false;
 * - `productgroup-not-compatible`: the product's productgroup is not among the scene's `compatibleProductgroups`;
 * - `perspective-not-for-scene`: a scene perspective that does not belong to this scene;
 * - `perspective-not-for-product`: a product perspective that does not belong to this product.
 */
export type IncompatibilityReason =
  /** A product perspective with a scene whose `allowsProductPerspectives` is false. */
  | 'product-perspective-not-allowed'
  /** The product's productgroup is not among the scene's `compatibleProductgroups`. */
  | 'productgroup-not-compatible'
  /** A scene perspective that does not belong to this scene. */
  | 'perspective-not-for-scene'
  /** A product perspective that does not belong to this product. */
  | 'perspective-not-for-product';

export interface Incompatibility {
  reason: IncompatibilityReason;
  message: string;
}

/**
 * The scene, product and perspective cannot be rendered together, and the checks say why (a product
 * perspective on a scene that does not allow them, an incompatible productgroup…). A kind of
 * CompositionNotFoundError: `status` is 404 when the lookup said so too, undefined when the checks caught
 * it before any token was spent.
 */
export class IncompatibleCompositionError extends CompositionNotFoundError {
  override name = 'IncompatibleCompositionError';
  declare readonly reason: IncompatibilityReason;

  constructor(query: CompositionQuery, incompatibility: Incompatibility, init: PartnerPrintErrorInit = {}) {
    super(query, {
      ...init,
      code: incompatibility.reason,
      message: `Cannot render ${describe(query)}: ${incompatibility.message}`,
    });
    this.reason = incompatibility.reason;
  }
}

/**
 * The preflight found fewer remaining rendertokens than the composition costs, so nothing was sent.
 * A `RendertokenLimitError` like the service's own 429 `rendertoken_limit_exceeded`.
 */
export class InsufficientRendertokensError extends RendertokenLimitError {
  override name = 'InsufficientRendertokensError';
  declare readonly required: number;
  declare readonly remaining: number;
  declare readonly limit: number;

  constructor(info: { required: number; remaining: number; limit: number; resetsAt: Date; now: number }) {
    const weekly =
      info.limit < info.required
        ? ` The weekly limit of ${info.limit} is below the cost, so waiting for the reset cannot help.`
        : '';
    super(
      `This render costs ${info.required} rendertokens but ${info.remaining} of ${info.limit} remain this week; they reset at ${info.resetsAt.toISOString()}.${weekly}`,
      {
        code: 'rendertoken_limit_exceeded',
        operation: 'getRendertokens',
        resetsAt: info.resetsAt,
        retryAfter: Math.max(0, Math.ceil((info.resetsAt.getTime() - info.now) / 1000)),
      },
    );
    this.required = info.required;
    this.remaining = info.remaining;
    this.limit = info.limit;
  }
}

/** The render finished with status `failed`. The tokens were spent; rendering again costs them again. */
export class RenderFailedError extends PartnerPrintError {
  static override readonly defaultCode: string = 'render_failed';
  override name = 'RenderFailedError';
  declare readonly render: Render;

  constructor(render: Render) {
    super(
      `Render ${render.reference} (composition ${render.compositionReference}, image ${render.imageReference}) failed.`,
      { operation: 'getRender' },
    );
    this.render = render;
  }
}

/** `timeoutMs` passed before the render was ready; the render itself goes on in the service. */
export class RenderTimeoutError extends TimeoutError {
  override name = 'RenderTimeoutError';
  declare readonly renderReference: string | undefined;

  constructor(message: string, renderReference?: string) {
    // `code` is 'timeout', as for every timeout of the SDK; the wait was on the render's state.
    super(message, { code: 'timeout', operation: 'getRender' });
    this.renderReference = renderReference;
  }
}
