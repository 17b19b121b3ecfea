import { describe, expect, test } from 'vitest';
import { OPERATIONS, spec } from './index.ts';

/**
 * Every endpoint of the service reference (api-v2-reference.md, "Endpoints"), written out by hand so that a
 * missing or an extra operation in the spec fails here rather than in a consumer.
 */
const REFERENCE_ENDPOINTS = {
  uploadEvidence: 'POST /evidence',
  uploadImage: 'POST /images',
  listClaimcategories: 'GET /claimcategories',
  createPackageMissingClaim: 'POST /claim-package-missing',
  createItemIssuesClaim: 'POST /claim-item-issues',
  listClaims: 'GET /claims',
  getClaim: 'GET /claims/{claimReference}',
  retractClaim: 'POST /claims/{claimReference}/retract',
  createOrder: 'POST /orders',
  getOrder: 'GET /orders/{orderReference}',
  listOrders: 'GET /orders',
  getShipment: 'GET /shipments/{shipmentReference}',
  listItems: 'GET /items',
  listProducts: 'GET /products',
  listProductgroups: 'GET /productgroups',
  getProductMedia: 'GET /products/{productReference}/media/{filename}',
  lookupProductByLegacySku: 'GET /utilities/lookup-product-by-legacy-sku',
  lookupOrderReferenceByCustomIdentifier: 'GET /utilities/lookup-order-reference-by-custom-identifier',
  listScenes: 'GET /scenes',
  getScene: 'GET /scenes/{sceneReference}',
  listPerspectives: 'GET /perspectives',
  getPerspective: 'GET /perspectives/{perspectiveReference}',
  lookupComposition: 'GET /lookup-composition',
  getComposition: 'GET /compositions/{compositionReference}',
  createRender: 'POST /renders',
  getRender: 'GET /renders/{renderReference}',
  getRenderMedia: 'GET /renders/{renderReference}/media',
  getRenderThumbnail: 'GET /renders/{renderReference}/thumbnail',
  getRendertokens: 'GET /rendertokens',
} as const;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function specEndpoints(): Map<string, string> {
  const found = new Map<string, string>();
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as { operationId: string } | undefined;
      if (operation) found.set(`${method.toUpperCase()} ${path}`, operation.operationId);
    }
  }
  return found;
}

describe('the spec covers exactly the reference endpoints', () => {
  const inSpec = specEndpoints();
  const inReference = new Map<string, string>(
    Object.entries(REFERENCE_ENDPOINTS).map(([id, endpoint]) => [endpoint, id]),
  );

  test('no reference endpoint is missing from the spec', () => {
    const missing = [...inReference.keys()].filter((endpoint) => !inSpec.has(endpoint));
    expect(missing).toEqual([]);
  });

  test('the spec has no endpoint the reference does not list', () => {
    const extra = [...inSpec.keys()].filter((endpoint) => !inReference.has(endpoint));
    expect(extra).toEqual([]);
  });

  test('operationIds are the agreed SDK method names', () => {
    for (const [endpoint, id] of inReference) expect(inSpec.get(endpoint), endpoint).toBe(id);
  });

  test('OPERATIONS is generated from the same operations', () => {
    const fromConstant = Object.entries(OPERATIONS).map(
      ([id, { method, path }]) => [id, `${method.toUpperCase()} ${path}`] as const,
    );
    expect(Object.fromEntries(fromConstant)).toEqual(REFERENCE_ENDPOINTS);
  });

  test('the legacy callback is a webhook, not a path', () => {
    expect(Object.keys(spec.webhooks)).toEqual(['orderUpdated']);
    expect(spec.webhooks.orderUpdated).toHaveProperty('get');
  });
});
