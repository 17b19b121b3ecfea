import { describe, expect, it } from 'vitest';
import { productgroupOf, referenceOf } from './catalog.ts';
import { findIncompatibility } from './compatibility.ts';
import type { Perspective, Scene } from './types.ts';

const query = {
  sceneReference: 'Scene_S',
  productReference: 'Product_P',
  perspectiveReference: 'Perspective_V',
};
const scene = (over: Partial<Scene> = {}): Scene => ({
  reference: 'Scene_S',
  allowsProductPerspectives: true,
  compatibleProductgroups: [{ reference: 'Productgroup_G' }],
  perspectives: [{ reference: 'Perspective_V' }],
  ...over,
});
const scenePerspective = (over: Partial<Perspective> = {}): Perspective => ({
  reference: 'Perspective_V',
  scenes: [{ reference: 'Scene_S' }],
  products: null,
  ...over,
});
const productPerspective = (products: unknown[] = [{ reference: 'Product_P' }]): Perspective => ({
  reference: 'Perspective_V',
  scenes: null,
  products,
});

describe('findIncompatibility', () => {
  it('accepts a compatible combination', () => {
    const facts = {
      scene: scene(),
      perspective: scenePerspective(),
      productgroupReference: 'Productgroup_G',
    };
    expect(findIncompatibility(query, facts)).toBeUndefined();
    expect(findIncompatibility(query, facts, 'diagnose')).toBeUndefined();
  });

  it('refuses a product perspective on a scene that does not allow them, naming the scene perspectives', () => {
    const found = findIncompatibility(query, {
      scene: scene({ allowsProductPerspectives: false, perspectives: [{ reference: 'Perspective_A' }] }),
      perspective: productPerspective(),
    });
    expect(found?.reason).toBe('product-perspective-not-allowed');
    expect(found?.message).toContain('Perspective_A');
  });

  it('refuses a productgroup the scene does not list', () => {
    const found = findIncompatibility(query, {
      scene: scene(),
      perspective: scenePerspective(),
      productgroupReference: 'Productgroup_X',
    });
    expect(found?.reason).toBe('productgroup-not-compatible');
    expect(found?.message).toContain('GET /scenes?productgroupReference=Productgroup_X');
  });

  it('skips the productgroup rule when the productgroup is unknown', () => {
    expect(findIncompatibility(query, { scene: scene(), perspective: scenePerspective() })).toBeUndefined();
  });

  it('explains, only when diagnosing, a perspective of another scene or product', () => {
    const otherScene = { scene: scene({ perspectives: [] }), perspective: scenePerspective({ scenes: [] }) };
    expect(findIncompatibility(query, otherScene)).toBeUndefined();
    expect(findIncompatibility(query, otherScene, 'diagnose')?.reason).toBe('perspective-not-for-scene');
    const otherProduct = { scene: scene(), perspective: productPerspective([{ reference: 'Product_Q' }]) };
    expect(findIncompatibility(query, otherProduct)).toBeUndefined();
    expect(findIncompatibility(query, otherProduct, 'diagnose')?.reason).toBe('perspective-not-for-product');
    // Entries of an unknown shape prove nothing.
    expect(findIncompatibility(query, { perspective: productPerspective([42]) }, 'diagnose')).toBeUndefined();
  });
});

describe('reading undocumented product fields', () => {
  it('finds the productgroup link in its likely shapes', () => {
    expect(productgroupOf({ productgroup: { reference: 'Productgroup_A' } })).toBe('Productgroup_A');
    expect(productgroupOf({ productgroupReference: 'Productgroup_B' })).toBe('Productgroup_B');
    expect(productgroupOf({ productgroup: 'Productgroup_C' })).toBe('Productgroup_C');
    expect(productgroupOf({ productgroup: null })).toBeUndefined();
    expect(productgroupOf({})).toBeUndefined();
  });

  it('reads references from links or strings', () => {
    expect(referenceOf({ reference: 'X' })).toBe('X');
    expect(referenceOf('Y')).toBe('Y');
    expect(referenceOf(3)).toBeUndefined();
  });
});
