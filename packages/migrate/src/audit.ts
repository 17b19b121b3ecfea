import { V2_AUTH_HEADER } from './auth.ts';
import { v2FieldName } from './case.ts';

/**
 * Line-based scan of V1 integration source: V1 endpoints, V1 credential headers and V1 snake_case
 * fields, each with its V2 equivalent. Pattern matching, not parsing: it finds candidates for a
 * checklist, and may list a line that is already V2 (e.g. `/orders`, whose name did not change).
 */

export type AuditCategory = 'base-url' | 'endpoint' | 'credentials' | 'field' | 'image';

export interface AuditRule {
  id: string;
  category: AuditCategory;
  pattern: RegExp;
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
  match: string;
  v2: string;
  note?: string;
}

/** V1 snake_case fields we know, with their V2 names (the rename table applies). */
export const SNAKE_CASE_FIELDS = [
  'partner_reference',
  'custom_reference',
  'store_reference',
  'store_code',
  'partner_code',
  'shipping_kind',
  'custom_identifier',
  'dropship_address',
  'dropship_minimal_shipping_level',
  'housenumber_addition',
  'additional_info',
  'country_code',
  'product_reference',
  'image_reference',
  'image_base64',
  'legacy_sku',
  'order_reference',
  'order_lines',
] as const;

const FIELD_V2: Record<string, { v2: string; note?: string }> = {
  store_code: { v2: 'storeReference', note: 'V2 identifies stores by Store_ reference.' },
  partner_code: { v2: 'storeReference', note: 'Deprecated alias of store_code; V2 uses Store_ references.' },
  image_base64: { v2: 'imageReference', note: 'Upload raw bytes with POST /images first.' },
  legacy_sku: { v2: 'productReference', note: 'Resolve with the legacy SKU lookup (removed in V3).' },
  order_reference: {
    v2: 'orderReference (Order_…)',
    note: 'V1 codes <store_code>-<number> become Order_ references.',
  },
  order_lines: { v2: 'orderlines' },
};

function fieldRule(name: string): AuditRule {
  const known = FIELD_V2[name];
  return {
    id: `field:${name}`,
    category: 'field',
    pattern: new RegExp(`\\b${name}\\b`),
    v2: known?.v2 ?? v2FieldName(name),
    note: known?.note ?? 'V2 field names are lowerCamelCase; single resources are wrapped ({ order: … }).',
  };
}

export const AUDIT_RULES: readonly AuditRule[] = [
  {
    id: 'base-url:v1',
    category: 'base-url',
    pattern: /\/v1(?=[/'"`?#\s]|$)/,
    v2: '{base_url} ending in /v2 (the test environment has its own base address)',
    note: 'The version is a path segment; V1 keeps working at /v1.',
  },
  {
    id: 'endpoint:stock-attributes',
    category: 'endpoint',
    pattern: /\/stock[-_]attributes\b/,
    v2: 'no equivalent',
    note: 'V1 stock-attributes has no equivalent in V2.',
  },
  {
    id: 'endpoint:stock',
    category: 'endpoint',
    pattern: /\/stock(?![-_\w])/,
    v2: 'GET /products, GET /productgroups, GET /items',
    note: 'Stock is split into products, productgroups and warehouse items.',
  },
  {
    id: 'endpoint:cancel-all-lines',
    category: 'endpoint',
    pattern: /cancel[-_]all[-_]lines/i,
    v2: 'not available in V2',
  },
  {
    id: 'endpoint:lookup-by-partner-reference',
    category: 'endpoint',
    pattern: /\/orders?[/?][^'"`\s]*partner[-_]?reference|lookup[^'"`\s]*partner[-_]?reference/i,
    v2: 'GET /utilities/lookup-order-reference-by-custom-identifier, then GET /orders/{orderReference}',
  },
  {
    id: 'endpoint:render',
    category: 'endpoint',
    pattern: /\/render(?![s\w-])/,
    v2: 'POST /renders, then poll GET /renders/{renderReference} (every 60 s) and download media',
    note: 'Each POST /renders spends the composition tokenCost of the weekly rendertokens.',
  },
  {
    id: 'endpoint:images',
    category: 'endpoint',
    pattern: /\/images(?![\w-])/,
    v2: 'POST /images with raw JPEG/PNG bytes (Content-Type: application/octet-stream)',
    note: 'Same name; the body is raw bytes, not base64 JSON.',
  },
  {
    id: 'endpoint:orders',
    category: 'endpoint',
    pattern: /\/orders(?![\w-])/,
    v2: 'POST /orders with { order: {...} }; GET /orders/{orderReference} with an Order_ reference',
    note: 'Same names; bodies are wrapped and lowerCamelCase, SKUs become productReference.',
  },
  {
    id: 'credentials:partner-code',
    category: 'credentials',
    pattern: /(?<![\w-])(x-(partner|store)[-_]code|(partner|store)-code)(?![\w-])/i,
    v2: `${V2_AUTH_HEADER}: <secret key>`,
    note: 'V1 authenticates with a partner-code header and an API-key header; V2 with one secret key generated in the dashboard.',
  },
  {
    id: 'credentials:api-key',
    category: 'credentials',
    pattern: /(?<![\w-])(x-(partner[-_])?api[-_]?key|(partner-)?api-key|x-partner[-_]key)(?![\w-])/i,
    v2: `${V2_AUTH_HEADER}: <secret key>`,
    note: 'The V1 API key does not work against V2.',
  },
  {
    id: 'field:sku',
    category: 'field',
    pattern: /(['"`]sku['"`]\s*[:=,\]]|\bsku\s*[:=](?!=))/,
    v2: 'productReference',
    note: 'Resolve legacy SKUs with GET /utilities/lookup-product-by-legacy-sku (removed in V3) or `partner-print-migrate skus`.',
  },
  {
    id: 'image:base64',
    category: 'image',
    pattern: /\bbase64\b|\bbtoa\(|b64encode|base64_encode|Convert\.ToBase64String/i,
    v2: 'POST /images with raw bytes → imageReference',
    note: 'V1 sends images as base64 in JSON; V2 takes raw JPEG/PNG bytes.',
  },
  ...SNAKE_CASE_FIELDS.map(fieldRule),
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
) {
  const out: AuditFinding[] = [];
  let endpointFound = false;
  for (const rule of rules) {
    // The specific endpoint rules come first; one endpoint finding per line is enough.
    if (rule.category === 'endpoint' && endpointFound) continue;
    // The generic snake_case rule only reports lines no known field rule has reported.
    if (rule.id === GENERIC_FIELD && out.some((f) => f.category === 'field')) continue;
    const m = rule.pattern.exec(text);
    if (!m) continue;
    if (rule.category === 'endpoint') endpointFound = true;
    out.push({
      file,
      line,
      column: m.index + 1,
      rule: rule.id,
      category: rule.category,
      match: m[0],
      v2: rule.id === GENERIC_FIELD ? `${v2FieldName(m[0])} (${rule.v2})` : rule.v2,
      ...(rule.note ? { note: rule.note } : {}),
    });
  }
  return out;
}
