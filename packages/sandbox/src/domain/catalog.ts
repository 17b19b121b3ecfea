import { png } from '../media.ts';
import type { CompositionRecord, PerspectiveRecord, ProductRecord, SceneRecord } from '../model.ts';
import type { Organization } from '../state.ts';
import { ok, type Result, refused } from './result.ts';

function seedOf(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h >>> 0;
}

/** A product's media file: a 320×320 PNG rendered on first request and kept. */
export function productMedia(
  org: Organization,
  product: ProductRecord,
  filename: string,
): Result<Uint8Array> {
  if (!product.media.includes(filename)) {
    return refused('not_found', 'The product has no media file with this name', 404);
  }
  const key = `${product.reference}/${filename}`;
  let bytes = org.productMedia.get(key);
  if (!bytes) {
    bytes = png(320, 320, seedOf(key));
    org.productMedia.set(key, bytes);
  }
  return ok(bytes);
}

export function productsOf(org: Organization, productgroup: string | undefined): ProductRecord[] {
  return [...org.products.values()].filter((p) => !productgroup || p.productgroupReference === productgroup);
}

export function scenesOf(org: Organization, productgroup: string | undefined): SceneRecord[] {
  return [...org.scenes.values()].filter(
    (s) => !productgroup || s.compatibleProductgroups.includes(productgroup),
  );
}

/**
 * Perspectives of a scene (its own, plus product perspectives of `productRef` when the scene allows them), of a
 * product, or all.
 */
export function perspectivesOf(
  org: Organization,
  sceneRef: string | undefined,
  productRef: string | undefined,
): PerspectiveRecord[] {
  const scene = sceneRef ? org.scenes.get(sceneRef) : undefined;
  return [...org.perspectives.values()].filter((p) => {
    const ofScene = sceneRef ? (scene?.perspectives.includes(p.reference) ?? false) : p.scenes !== null;
    const ofProduct = productRef ? (p.products?.includes(productRef) ?? false) : p.products !== null;
    if (sceneRef && productRef) return ofScene || (ofProduct && (scene?.allowsProductPerspectives ?? false));
    if (sceneRef) return ofScene;
    if (productRef) return ofProduct;
    return true;
  });
}

/** GET /lookup-composition: 404 when the combination does not exist, 410 when it is no longer available. */
export function lookupComposition(
  org: Organization,
  sceneReference: string,
  productReference: string,
  perspectiveReference: string,
): Result<CompositionRecord> {
  const comp = org.compositionsByTriple.get(`${sceneReference}|${productReference}|${perspectiveReference}`);
  if (!comp)
    return refused('not_found', 'This scene, product and perspective combination does not exist', 404);
  if (!comp.available) {
    return refused('composition_unavailable', 'This combination exists but is no longer available', 410);
  }
  return ok(comp);
}
