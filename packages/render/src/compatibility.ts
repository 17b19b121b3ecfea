import { referenceOf } from './catalog.ts';
import type { CompositionQuery, Incompatibility } from './errors.ts';
import type { Perspective, Scene } from './types.ts';

export interface CompatibilityFacts {
  scene?: Scene | undefined;
  perspective?: Perspective | undefined;
  /** The product's productgroup; undefined when it could not be determined. */
  productgroupReference?: string | undefined;
}

const list = (refs: (string | undefined)[]) => {
  const known = refs.filter((r): r is string => !!r);
  return known.length ? known.join(', ') : 'none';
};

/** A product perspective lists products and has `scenes: null`. */
export const isProductPerspective = (p: Perspective): boolean => p.products != null && p.scenes == null;

/**
 * What makes scene + product + perspective impossible to render, from the scene, perspective and product
 * facts. `blocking` keeps to the two rules the reference states (product perspectives need a scene that
 * allows them; the product's productgroup must be compatible with the scene). Otherwise it also looks at
 * which scene or product a perspective belongs to — used only to explain a 404 from lookup-composition.
 */
export function findIncompatibility(
  query: CompositionQuery,
  facts: CompatibilityFacts,
  mode: 'blocking' | 'diagnose' = 'blocking',
): Incompatibility | undefined {
  const { scene, perspective, productgroupReference } = facts;
  const { sceneReference, productReference, perspectiveReference } = query;

  if (
    scene &&
    perspective &&
    isProductPerspective(perspective) &&
    scene.allowsProductPerspectives === false
  ) {
    return {
      reason: 'product-perspective-not-allowed',
      message:
        `perspective ${perspectiveReference} is a product perspective, but scene ${sceneReference} does not allow ` +
        `product perspectives (allowsProductPerspectives is false). Use one of the scene's own perspectives: ` +
        `${list((scene.perspectives ?? []).map(referenceOf))}.`,
    };
  }

  if (scene && productgroupReference && Array.isArray(scene.compatibleProductgroups)) {
    const compatible = scene.compatibleProductgroups.map(referenceOf);
    if (!compatible.includes(productgroupReference)) {
      return {
        reason: 'productgroup-not-compatible',
        message:
          `product ${productReference} belongs to productgroup ${productgroupReference}, which is not among the ` +
          `compatible productgroups of scene ${sceneReference} (${list(compatible)}). Scenes for this product: ` +
          `GET /scenes?productgroupReference=${productgroupReference}.`,
      };
    }
  }

  if (mode === 'blocking' || !perspective) return undefined;

  if (!isProductPerspective(perspective) && Array.isArray(perspective.scenes)) {
    const ofPerspective = perspective.scenes.map(referenceOf);
    const ofScene = (scene?.perspectives ?? []).map(referenceOf);
    if (!ofPerspective.includes(sceneReference) && !ofScene.includes(perspectiveReference)) {
      return {
        reason: 'perspective-not-for-scene',
        message:
          `perspective ${perspectiveReference} belongs to scene(s) ${list(ofPerspective)}, not to scene ${sceneReference}.` +
          (scene ? ` The scene's own perspectives: ${list(ofScene)}.` : ''),
      };
    }
  }

  if (isProductPerspective(perspective) && Array.isArray(perspective.products)) {
    const products = perspective.products.map(referenceOf);
    if (products.every((r) => r !== undefined) && !products.includes(productReference)) {
      return {
        reason: 'perspective-not-for-product',
        message: `perspective ${perspectiveReference} is a product perspective of ${list(products)}, not of product ${productReference}.`,
      };
    }
  }
  return undefined;
}
