import { V1_CREDENTIAL_HEADERS, V2_SECRET_KEY_HEADER, v1CredentialKind } from '@partner-print/openapi/wire';
import { v2FieldName } from './case.ts';
import { V1_ADDRESS_FIELDS, V1_ORDER_FIELDS, V1_ORDERLINE_FIELDS } from './convert.ts';

/**
 * Line-based scan of V1 integration source: V1 endpoints, V1 credential headers, V1 snake_case request
 * and response fields, and legacy-callback handlers, each with its V2 equivalent. Pattern matching, not
 * parsing: it finds candidates for a checklist, and may list a line that is already V2 (e.g. `/orders`,
 * whose name did not change).
 */

export type AuditCategory =
  | 'base-url'
  | 'endpoint'
  | 'credentials'
  | 'callback'
  | 'field'
  | 'response'
  | 'image';

export interface AuditRule {
  id: string;
  category: AuditCategory;
  pattern: RegExp;
  /** What the checklist item is called (default: the matched text). */
  title?: string;
  /** What to use in V2. */
  v2: string;
  note?: string;
}

export interface AuditFinding {
  file: string;
  line: number;
  column: number;
  rule: string;
  category: AuditCategory;
  /** The checklist item's name: the rule's title, or the matched text. */
  title: string;
  match: string;
  v2: string;
  note?: string;
}

/** The V1 request fields conversion knows (from its rule tables), plus the V1 spelling `order_lines`. */
const REQUEST_FIELDS = [
  ...new Set([
    ...V1_ORDER_FIELDS,
    ...V1_ADDRESS_FIELDS,
    ...V1_ORDERLINE_FIELDS,
    'order_lines',
    'order_reference',
    'custom_reference',
  ]),
].filter((f) => f.includes('_'));

const FIELD_V2: Record<string, { v2: string; note?: string }> = {
  store_code: { v2: 'storeReference', note: 'V2 identifies stores by Store_ reference.' },
  partner_code: { v2: 'storeReference', note: 'Deprecated alias of store_code; V2 uses Store_ references.' },
  image_base64: { v2: 'imageReference', note: 'Upload raw bytes with POST /images first.' },
  legacy_sku: { v2: 'productReference', note: 'Resolve with the legacy SKU lookup (removed in V3).' },
  order_lines: { v2: 'orderlines' },
  order_reference: {
    v2: 'an Order_ reference (orderReference)',
    note: 'V1 codes <store_code>-<number> become Order_ references in the API. In a legacy-callback handler keep the parameter and read order_reference_v2 (Order_…) instead, with @partner-print/callback.',
  },
  custom_reference: {
    v2: 'customIdentifier',
    note: 'The callback calls the custom identifier custom_reference (a query parameter, not renamed); on orders it is customIdentifier.',
  },
};

function fieldRule(name: string): AuditRule {
  const known = FIELD_V2[name];
  return {
    id: `field:${name}`,
    category: 'field',
    pattern: new RegExp(`\\b${name}\\b`),
    title: name,
    v2: known?.v2 ?? v2FieldName(name),
    note: known?.note ?? 'V2 field names are lowerCamelCase; single resources are wrapped ({ order: … }).',
  };
}

/** V1 response fields whose V2 home is not a plain rename. */
const RESPONSE_FIELDS: Record<string, { v2: string; note: string }> = {
  logical_quantity: {
    v2: 'items[].logicalQuantity (GET /items)',
    note: 'V1 stock is split: warehouse stock is on GET /items (only for partners who store stock with the service).',
  },
  physical_quantity: {
    v2: 'items[].physicalQuantity (GET /items)',
    note: 'V1 stock is split: warehouse stock is on GET /items (only for partners who store stock with the service).',
  },
  tracking_code: {
    v2: 'GET /shipments/{shipmentReference} (tracking information)',
    note: 'Orders list their shipment references; read each shipment for tracking. The reference does not name the tracking fields.',
  },
  tracking_url: {
    v2: 'GET /shipments/{shipmentReference} (tracking information)',
    note: 'Orders list their shipment references; read each shipment for tracking. The reference does not name the tracking fields.',
  },
  tracking_number: {
    v2: 'GET /shipments/{shipmentReference} (tracking information)',
    note: 'Orders list their shipment references; read each shipment for tracking. The reference does not name the tracking fields.',
  },
};

const responseRules: AuditRule[] = Object.entries(RESPONSE_FIELDS).map(([name, r]) => ({
  id: `response:${name}`,
  category: 'response',
  pattern: new RegExp(`\\b${name}\\b`),
  title: name,
  ...r,
}));

/** A line that reads a request's query string (where a callback handler finds its parameters). */
const QUERY = String.raw`(?:\$_GET|request\.GET|\.query\b|searchParams|request\.args|\.query_params|getParameter|QueryString)`;

const CALLBACK_NOTE =
  'The legacy order-updated callback keeps its snake_case query parameters for V1 and V2 orders; @partner-print/callback parses and checks the query and fetches the current order.';

const callbackRules: AuditRule[] = [
  {
    id: 'callback:order-reference',
    category: 'callback',
    pattern: new RegExp(String.raw`${QUERY}\W[^\n]{0,40}?\border_reference\b`),
    title: 'order_reference (callback parameter)',
    v2: 'order_reference_v2 (Order_…), then GET /orders/{orderReference}; or createOrderUpdatedHandler from @partner-print/callback',
    note: `order_reference stays the V1 code <store_code>-<number>; do not rename it to orderReference. ${CALLBACK_NOTE}`,
  },
  {
    id: 'callback:deprecated-alias',
    category: 'callback',
    pattern: new RegExp(
      String.raw`${QUERY}\W[^\n]{0,40}?\b(?:via_partner_code|partner_code|partner_reference)\b`,
    ),
    title: 'partner_reference / partner_code (callback parameters)',
    v2: 'custom_reference, store_code, via_store_code (same query, not renamed)',
    note: `Deprecated aliases in the callback query. ${CALLBACK_NOTE}`,
  },
];

/** V1 credential header spellings from the one list in the wire module (header forms: with a hyphen). */
function credentialPattern(kind: 'partner-code' | 'api-key'): RegExp {
  const names = V1_CREDENTIAL_HEADERS.filter((n) => v1CredentialKind(n) === kind && n.includes('-'));
  const alternatives = names
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![\\w-])(?:${alternatives.join('|')})(?![\\w-])`, 'i');
}

export const AUDIT_RULES: readonly AuditRule[] = [
  {
    id: 'base-url:v1',
    category: 'base-url',
    pattern: /\/v1(?=[/'"`?#\s]|$)/,
    title: '/v1',
    v2: '{base_url} ending in /v2 (the test environment has its own base address)',
    note: 'The version is a path segment; V1 keeps working at /v1.',
  },
  {
    id: 'endpoint:stock-attributes',
    category: 'endpoint',
    pattern: /\/stock[-_]attributes\b/,
    title: '/stock-attributes',
    v2: 'no equivalent',
    note: 'V1 stock-attributes has no equivalent in V2.',
  },
  {
    id: 'endpoint:stock',
    category: 'endpoint',
    pattern: /\/stock(?![-_\w])/,
    title: '/stock',
    v2: 'GET /products, GET /productgroups, GET /items',
    note: 'Stock is split into products, productgroups and warehouse items.',
  },
  {
    id: 'endpoint:cancel-all-lines',
    category: 'endpoint',
    pattern: /cancel[-_]all[-_]lines/i,
    title: 'cancel-all-lines',
    v2: 'not available in V2',
  },
  {
    id: 'endpoint:lookup-by-partner-reference',
    category: 'endpoint',
    pattern: /\/orders?[/?][^'"`\s]*partner[-_]?reference|lookup[^'"`\s]*partner[-_]?reference/i,
    title: 'order lookup by partner reference',
    v2: 'GET /utilities/lookup-order-reference-by-custom-identifier, then GET /orders/{orderReference}',
  },
  {
    id: 'endpoint:render',
    category: 'endpoint',
    pattern: /\/render(?![s\w-])/,
    title: '/render',
    v2: 'POST /renders, then poll GET /renders/{renderReference} (every 60 s) and download media',
    note: 'Each POST /renders spends the composition tokenCost of the weekly rendertokens.',
  },
  {
    id: 'endpoint:images',
    category: 'endpoint',
    pattern: /\/images(?![\w-])/,
    title: '/images',
    v2: 'POST /images with raw JPEG/PNG bytes (Content-Type: application/octet-stream)',
    note: 'Same name; the body is raw bytes, not base64 JSON.',
  },
  {
    id: 'endpoint:orders',
    category: 'endpoint',
    pattern: /\/orders(?![\w-])/,
    title: '/orders',
    v2: 'POST /orders with { order: {...} }; GET /orders/{orderReference} with an Order_ reference',
    note: 'Same names; bodies are wrapped and lowerCamelCase, SKUs become productReference.',
  },
  {
    id: 'credentials:partner-code',
    category: 'credentials',
    pattern: credentialPattern('partner-code'),
    v2: `${V2_SECRET_KEY_HEADER}: <secret key>`,
    note: 'V1 authenticates with a partner-code header and an API-key header; V2 with one secret key generated in the dashboard.',
  },
  {
    id: 'credentials:api-key',
    category: 'credentials',
    pattern: credentialPattern('api-key'),
    v2: `${V2_SECRET_KEY_HEADER}: <secret key>`,
    note: 'The V1 API key does not work against V2.',
  },
  ...callbackRules,
  {
    id: 'field:sku',
    category: 'field',
    pattern: /(['"`]sku['"`]\s*[:=,\]]|\bsku\s*[:=](?!=))/,
    title: 'sku',
    v2: 'productReference',
    note: 'Resolve legacy SKUs with GET /utilities/lookup-product-by-legacy-sku (removed in V3) or `partner-print-migrate skus`.',
  },
  {
    id: 'image:base64',
    category: 'image',
    pattern: /\bbase64\b|\bbtoa\(|b64encode|base64_encode|Convert\.ToBase64String/i,
    title: 'base64 image',
    v2: 'POST /images with raw bytes → imageReference',
    note: 'V1 sends images as base64 in JSON; V2 takes raw JPEG/PNG bytes.',
  },
  ...REQUEST_FIELDS.map(fieldRule),
  ...responseRules,
  {
    // Any other quoted snake_case key (`"gift_wrap": …`, `'created_at' =>`): V1 fields we do not know.
    id: 'field:snake_case',
    category: 'field',
    pattern: /(?<=['"])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?=['"]\s*(?::|=>|=))/,
    v2: 'the lowerCamelCase name, if V2 has the field',
    note: 'Not a field this package knows; check the V2 reference (convertV1Order reports such fields as unknown).',
  },
];

const GENERIC_FIELD = 'field:snake_case';

/** Scans one file's text. */
export function auditSource(
  text: string,
  file: string,
  rules: readonly AuditRule[] = AUDIT_RULES,
): AuditFinding[] {
  const out: AuditFinding[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) out.push(...auditLine(lines[i]!, file, i + 1, rules));
  return out;
}

/** Scans one line (1-based `line`). Each rule reports at most once per line. */
export function auditLine(
  text: string,
  file: string,
  line: number,
  rules: readonly AuditRule[] = AUDIT_RULES,
): AuditFinding[] {
  const out: AuditFinding[] = [];
  let endpointFound = false;
  for (const rule of rules) {
    // The specific endpoint rules come first; one endpoint finding per line is enough.
    if (rule.category === 'endpoint' && endpointFound) continue;
    // The generic snake_case rule only reports lines no known field or response rule has reported.
    if (rule.id === GENERIC_FIELD && out.some((f) => f.category === 'field' || f.category === 'response'))
      continue;
    // A callback handler's parameters keep their names: no rename advice on its lines.
    if (rule.category === 'field' && out.some((f) => f.category === 'callback')) continue;
    const m = rule.pattern.exec(text);
    if (!m) continue;
    if (rule.category === 'endpoint') endpointFound = true;
    out.push({
      file,
      line,
      column: m.index + 1,
      rule: rule.id,
      category: rule.category,
      title: rule.title ?? m[0],
      match: m[0],
      v2: rule.id === GENERIC_FIELD ? `${v2FieldName(m[0])} (${rule.v2})` : rule.v2,
      ...(rule.note ? { note: rule.note } : {}),
    });
  }
  return out;
}
