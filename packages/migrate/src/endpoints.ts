/**
 * The reference's V1 → V2 endpoint map (Versioning section) as data. The reference names the V1
 * operations but not all of their paths; `v1.pathDocumented` says whether the V1 path is from the
 * reference or a plausible pattern we match for the audit.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface V2Endpoint {
  method: HttpMethod;
  path: string;
  purpose: string;
}

export interface EndpointMapping {
  id: string;
  v1: {
    method: HttpMethod;
    /** Display form of the V1 path. */
    path: string;
    /** Matches the V1 path (relative to the `/v1` base, without query). */
    pattern: RegExp;
    pathDocumented: boolean;
  };
  /** Empty when V2 has no equivalent. */
  v2: V2Endpoint[];
  kind: 'same-name' | 'split' | 'replaced' | 'no-equivalent';
  note: string;
}

export const ENDPOINT_MAP: readonly EndpointMapping[] = [
  {
    id: 'stock',
    v1: { method: 'GET', path: '/stock', pattern: /^\/stock\/?$/, pathDocumented: true },
    v2: [
      { method: 'GET', path: '/products', purpose: 'orderable catalog entries (reference, legacyItemSKU)' },
      { method: 'GET', path: '/productgroups', purpose: 'product groups' },
      {
        method: 'GET',
        path: '/items',
        purpose: 'warehouse items: sku, logicalQuantity, physicalQuantity, linked products',
      },
    ],
    kind: 'split',
    note: 'V1 stock is split into products, productgroups and warehouse items. Items are only relevant when the partner stores stock with the service.',
  },
  {
    id: 'stock-attributes',
    v1: {
      method: 'GET',
      path: '/stock-attributes',
      pattern: /^\/stock[-_]attributes\b/,
      pathDocumented: false,
    },
    v2: [],
    kind: 'no-equivalent',
    note: 'V1 stock-attributes has no equivalent in V2.',
  },
  {
    id: 'images',
    v1: { method: 'POST', path: '/images', pattern: /^\/images\/?$/, pathDocumented: true },
    v2: [
      { method: 'POST', path: '/images', purpose: 'upload raw JPEG/PNG bytes → { image: { reference } }' },
    ],
    kind: 'same-name',
    note: 'Same name. V1 sends the image as base64 in JSON; V2 sends raw bytes with Content-Type: application/octet-stream (see uploadV1Image / createImageUploader).',
  },
  {
    id: 'create-order',
    v1: { method: 'POST', path: '/orders', pattern: /^\/orders\/?$/, pathDocumented: true },
    v2: [
      {
        method: 'POST',
        path: '/orders',
        purpose: 'create an order: { order: {...} } → { order: { reference } }',
      },
    ],
    kind: 'same-name',
    note: 'Same name. The body is wrapped in { order } and lowerCamelCase; orderline SKUs become productReference, base64 images become imageReference, partner_reference becomes customIdentifier (see convertV1Order).',
  },
  {
    id: 'cancel-all-lines',
    v1: {
      method: 'POST',
      path: '/orders/{reference}/cancel-all-lines',
      pattern: /cancel[-_]all[-_]lines/,
      pathDocumented: false,
    },
    v2: [],
    kind: 'no-equivalent',
    note: 'V1 cancel-all-lines is not available in V2.',
  },
  {
    id: 'lookup-by-partner-reference',
    v1: {
      method: 'GET',
      path: '/orders/…partner_reference…',
      pattern: /partner[-_]?reference/i,
      pathDocumented: false,
    },
    v2: [
      {
        method: 'GET',
        path: '/utilities/lookup-order-reference-by-custom-identifier',
        purpose:
          'custom identifier → order reference (parameter and response names are not in the reference)',
      },
      { method: 'GET', path: '/orders/{orderReference}', purpose: 'read the order' },
    ],
    kind: 'replaced',
    note: 'Lookup by partner reference becomes the custom-identifier lookup followed by GET /orders/{orderReference} (see createOrderReferenceResolver).',
  },
  {
    id: 'get-order',
    v1: { method: 'GET', path: '/orders/{reference}', pattern: /^\/orders\/[^/]+\/?$/, pathDocumented: true },
    v2: [
      { method: 'GET', path: '/orders/{orderReference}', purpose: 'read an order by its Order_ reference' },
    ],
    kind: 'same-name',
    note: 'Same name, but V1 takes the composite code <store_code>-<number> and V2 a typed Order_ reference, with no look-up by V1 code (the legacy callback carries both: order_reference and order_reference_v2).',
  },
  {
    id: 'render',
    v1: { method: 'POST', path: '/render', pattern: /^\/render\/?$/, pathDocumented: true },
    v2: [
      {
        method: 'POST',
        path: '/renders',
        purpose: '{ render: { compositionReference, imageReference } } → { render: { reference } }',
      },
      { method: 'GET', path: '/renders/{renderReference}', purpose: 'poll the status (every 60 seconds)' },
      {
        method: 'GET',
        path: '/renders/{renderReference}/media',
        purpose: 'download when completed (202 + Retry-After until then)',
      },
    ],
    kind: 'replaced',
    note: 'POST /render becomes POST /renders with polling; each call spends the composition tokenCost from the weekly rendertokens (see @partner-print/render).',
  },
];

/** Finds the mapping for a V1 request. `path` may be a full URL or a path with or without `/v1`. */
export function mapV1Endpoint(method: string, path: string): EndpointMapping | undefined {
  const m = method.toUpperCase();
  const full = normaliseV1Path(path);
  const p = full.replace(/[?#].*$/, '');
  // The undocumented V1 paths are matched on path and query (a partner reference may be a query
  // parameter) and before the documented ones they would otherwise fall under.
  // The two operations the reference names without method or path (stock-attributes, cancel-all-lines)
  // match whatever the method: either way the answer is that V2 has no equivalent.
  const ordered = [...ENDPOINT_MAP].sort((a, b) => specificity(b) - specificity(a));
  return ordered.find(
    (e) =>
      (e.v1.method === m || (!e.v1.pathDocumented && e.kind === 'no-equivalent')) &&
      e.v1.pattern.test(e.v1.pathDocumented ? p : full),
  );
}

function specificity(e: EndpointMapping): number {
  return e.v1.pathDocumented ? 0 : 1;
}

function normaliseV1Path(path: string): string {
  let p = path;
  try {
    if (/^[a-z]+:\/\//i.test(p)) {
      const u = new URL(p);
      p = u.pathname + u.search;
    }
  } catch {
    // Not a URL; use as is.
  }
  const i = p.indexOf('/v1/');
  if (i >= 0) p = p.slice(i + 3);
  else if (p.endsWith('/v1')) p = '/';
  return p.startsWith('/') ? p : `/${p}`;
}
