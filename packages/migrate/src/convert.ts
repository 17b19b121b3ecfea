import type { Address, OrderlineRequest, OrderRequest } from '@partner-print/openapi';
import { InvalidImageError } from './image.ts';

/**
 * V1 order → V2 order request.
 *
 * The reference does not give V1 request shapes. We accept exactly these V1 fields (snake_case forms of
 * the V2 order fields, plus `sku`, a base64 image and `partner_reference`); everything else is reported
 * as `unknown` and left out of the V2 request:
 *
 * | V1 field | V2 field | action |
 * |---|---|---|
 * | store_reference | storeReference | mapped |
 * | store_code, partner_code | storeReference (via the `storeReference` option) | converted |
 * | shipping_kind | shippingKind | mapped |
 * | custom_identifier | customIdentifier | mapped |
 * | partner_reference | customIdentifier | renamed |
 * | dropship_address.{company, firstname, lastname, streetname, housenumber, housenumber_addition, additional_info, state, zipcode, city, country_code, phonenumber, email} | dropshipAddress.{…camelCase} | mapped |
 * | dropship_minimal_shipping_level | dropshipMinimalShippingLevel | mapped |
 * | orderlines[].product_reference | orderlines[].productReference | mapped |
 * | orderlines[].sku, orderlines[].legacy_sku | orderlines[].productReference (via `resolveSku`) | converted |
 * | orderlines[].image_reference | orderlines[].imageReference | mapped |
 * | orderlines[].image, orderlines[].image_base64 (base64 or data URL) | orderlines[].imageReference (via `uploadImage`) | converted |
 * | orderlines[].quantity | orderlines[].quantity | mapped (a numeric string is converted) |
 *
 * A V1 body wrapped as `{ order: {...} }` is unwrapped (reported as `converted`).
 */

/** The spec's address: which fields are required is not documented, so all are optional. */
export type V2Address = Address;

/** The spec's orderline, without the deprecated `legacySku` that conversion never writes. */
export type V2Orderline = Omit<OrderlineRequest, 'legacySku'>;

/**
 * The order as conversion builds it, before it is known to be complete. When conversion succeeds
 * (`ok: true`) it is a valid {@link V2OrderRequest}: a dropship order then has its address.
 */
export interface V2OrderDraft {
  storeReference: string;
  shippingKind: 'dropship' | 'combined';
  customIdentifier?: string;
  dropshipAddress?: V2Address;
  dropshipMinimalShippingLevel?: string;
  orderlines: V2Orderline[];
}

/** The V2 order request as the spec types it: dropship (with an address) or combined (without). */
export type V2OrderRequest = OrderRequest;

export type ReportAction = 'mapped' | 'renamed' | 'dropped' | 'unknown' | 'converted';

export interface ReportEntry {
  /** Path of the V1 field, e.g. `orderlines[0].sku`. */
  path: string;
  action: ReportAction;
  /** The V1 value (long strings and images are summarised). */
  from: unknown;
  /** Path of the V2 field it went to (`null` when dropped or unknown). */
  to: string | null;
  /** The V2 value, for converted fields. */
  value?: unknown;
  note?: string;
}

export interface ConversionError {
  path: string;
  code:
    | 'unknown_sku'
    | 'invalid_image'
    | 'upload_failed'
    | 'lookup_failed'
    | 'invalid_value'
    | 'missing_field';
  message: string;
}

interface ConversionOutcome {
  report: ReportEntry[];
  errors: ConversionError[];
}

/** The V2 request body is `{ order }`: complete when `ok`, a draft with `errors` otherwise. */
export type ConversionResult =
  | (ConversionOutcome & { ok: true; order: V2OrderRequest })
  | (ConversionOutcome & { ok: false; order: V2OrderDraft });

/** What `resolveSku` may return: a product reference, or a resolution object (see createSkuResolver). */
export type SkuResolutionLike =
  | string
  | { status: 'resolved'; productReference: string; note?: string }
  | { status: 'unknown' | 'invalid' | 'error'; note?: string; productReference?: undefined };

export interface ConvertOptions {
  /** Legacy SKU → product reference. Throw, or return `{ status: 'unknown' }`, for an unknown SKU. */
  resolveSku?: (sku: string) => Promise<SkuResolutionLike>;
  /** Base64 V1 image → `Image_…` reference (see createImageUploader().uploadBase64). */
  uploadImage?: (base64: string) => Promise<string>;
  /** Store code → store reference, or one store reference for every order lacking `store_reference`. */
  storeReference?: string | ((storeCode: string) => string | undefined | Promise<string | undefined>);
  /**
   * The store reference for an order with neither `store_reference` nor a store code, when
   * `storeReference` is a function (a string `storeReference` is its own default).
   */
  defaultStoreReference?: string;
  /** Used when the V1 order has neither `custom_identifier` nor `partner_reference`. */
  customIdentifier?: string;
}

const ADDRESS_FIELDS = [
  'company',
  'firstname',
  'lastname',
  'streetname',
  'housenumber',
  'housenumber_addition',
  'additional_info',
  'state',
  'zipcode',
  'city',
  'country_code',
  'phonenumber',
  'email',
] as const;

const ORDER_FIELDS = new Set([
  'store_reference',
  'store_code',
  'partner_code',
  'shipping_kind',
  'custom_identifier',
  'partner_reference',
  'dropship_address',
  'dropship_minimal_shipping_level',
  'orderlines',
]);

const ORDERLINE_FIELDS = new Set([
  'product_reference',
  'sku',
  'legacy_sku',
  'image_reference',
  'image',
  'image_base64',
  'quantity',
]);

/** Summarises a value for the report: base64 images and long strings are shortened. */
export function summarise(value: unknown, image = false): unknown {
  if (typeof value === 'string') {
    if (image) return `<base64 image, ${value.length} characters>`;
    if (value.length > 120) return `${value.slice(0, 117)}…`;
    return value;
  }
  if (Array.isArray(value)) return `<array of ${value.length}>`;
  if (value !== null && typeof value === 'object') return `<object with ${Object.keys(value).length} fields>`;
  return value;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export async function convertV1Order(
  v1Order: unknown,
  options: ConvertOptions = {},
): Promise<ConversionResult> {
  const report: ReportEntry[] = [];
  const errors: ConversionError[] = [];
  const order = { orderlines: [] } as unknown as V2OrderDraft;
  const fail = (path: string, code: ConversionError['code'], message: string) =>
    errors.push({ path, code, message });

  let src: unknown = v1Order;
  if (isRecord(src) && Object.keys(src).length === 1 && isRecord(src.order)) {
    report.push({
      path: 'order',
      action: 'converted',
      from: summarise(src.order),
      to: null,
      note: 'A wrapped { order } body was unwrapped; V1 bodies are top-level.',
    });
    src = src.order;
  }
  if (!isRecord(src)) {
    fail('', 'invalid_value', 'A V1 order must be a JSON object.');
    return { order, report, errors, ok: false };
  }

  const str = (path: string, v: unknown): v is string => {
    if (typeof v === 'string' && v.length > 0) return true;
    fail(path, 'invalid_value', `${path} must be a non-empty string.`);
    report.push({ path, action: 'dropped', from: summarise(v), to: null, note: 'Not a non-empty string.' });
    return false;
  };

  // Unknown top-level fields first, so the report lists them whatever else happens.
  for (const [k, v] of Object.entries(src)) {
    if (!ORDER_FIELDS.has(k)) {
      report.push({
        path: k,
        action: 'unknown',
        from: summarise(v),
        to: null,
        note: 'Not an accepted V1 order field; left out of the V2 request.',
      });
    }
  }

  // Store.
  if ('store_reference' in src) {
    if (str('store_reference', src.store_reference)) {
      order.storeReference = src.store_reference;
      report.push({
        path: 'store_reference',
        action: 'mapped',
        from: src.store_reference,
        to: 'storeReference',
      });
    }
  }
  for (const key of ['store_code', 'partner_code'] as const) {
    if (!(key in src)) continue;
    const code = src[key];
    if (order.storeReference) {
      report.push({
        path: key,
        action: 'dropped',
        from: summarise(code),
        to: null,
        note: 'store_reference is already set; V2 identifies stores by Store_ reference only.',
      });
      continue;
    }
    if (!str(key, code)) continue;
    const sr = options.storeReference;
    const ref = typeof sr === 'function' ? await sr(code) : sr;
    if (ref) {
      order.storeReference = ref;
      report.push({
        path: key,
        action: 'converted',
        from: code,
        to: 'storeReference',
        value: ref,
        note: `V1 store code → V2 store reference${key === 'partner_code' ? ' (partner_code is the deprecated alias of store_code)' : ''}.`,
      });
    } else {
      fail(key, 'missing_field', `No store reference known for store code ${code}; pass a store map.`);
      report.push({
        path: key,
        action: 'dropped',
        from: code,
        to: null,
        note: 'No store reference for this code.',
      });
    }
  }
  const fallback =
    typeof options.storeReference === 'string' ? options.storeReference : options.defaultStoreReference;
  if (!order.storeReference && fallback) {
    order.storeReference = fallback;
    report.push({
      path: '(default)',
      action: 'converted',
      from: null,
      to: 'storeReference',
      value: fallback,
      note: 'No store in the V1 order; the default store reference was used.',
    });
  }
  if (!order.storeReference && !errors.some((e) => e.path === 'store_code' || e.path === 'partner_code')) {
    fail(
      'store_reference',
      'missing_field',
      'The order has no store_reference (or store_code with a store map).',
    );
  }

  // Shipping kind.
  if ('shipping_kind' in src) {
    const sk = src.shipping_kind;
    if (sk === 'dropship' || sk === 'combined') {
      order.shippingKind = sk;
      report.push({ path: 'shipping_kind', action: 'mapped', from: sk, to: 'shippingKind' });
    } else {
      fail('shipping_kind', 'invalid_value', 'shipping_kind must be "dropship" or "combined".');
      report.push({
        path: 'shipping_kind',
        action: 'dropped',
        from: summarise(sk),
        to: null,
        note: 'Invalid value.',
      });
    }
  } else {
    fail('shipping_kind', 'missing_field', 'The order has no shipping_kind ("dropship" or "combined").');
  }

  // Custom identifier.
  if ('custom_identifier' in src && str('custom_identifier', src.custom_identifier)) {
    order.customIdentifier = src.custom_identifier;
    report.push({
      path: 'custom_identifier',
      action: 'mapped',
      from: src.custom_identifier,
      to: 'customIdentifier',
    });
  }
  if ('partner_reference' in src) {
    const pr = src.partner_reference;
    if (order.customIdentifier !== undefined) {
      report.push({
        path: 'partner_reference',
        action: 'dropped',
        from: summarise(pr),
        to: null,
        note:
          pr === order.customIdentifier
            ? 'Same value as custom_identifier.'
            : 'custom_identifier is set and wins; V2 has one custom identifier.',
      });
    } else if (str('partner_reference', pr)) {
      order.customIdentifier = pr;
      report.push({
        path: 'partner_reference',
        action: 'renamed',
        from: pr,
        to: 'customIdentifier',
        note: 'The V1 partner reference is the V2 custom identifier.',
      });
    }
  }
  if (order.customIdentifier === undefined && options.customIdentifier !== undefined) {
    order.customIdentifier = options.customIdentifier;
    report.push({
      path: '(derived)',
      action: 'converted',
      from: null,
      to: 'customIdentifier',
      value: options.customIdentifier,
      note: 'No partner_reference in the V1 order; a deterministic custom identifier was derived.',
    });
  }

  // Address.
  if ('dropship_address' in src) {
    const a = src.dropship_address;
    if (order.shippingKind === 'combined') {
      report.push({
        path: 'dropship_address',
        action: 'dropped',
        from: summarise(a),
        to: null,
        note: 'combined orders ship to the store address; V2 does not use an address for them.',
      });
    } else if (isRecord(a)) {
      const addr: Record<string, string> = {};
      for (const [k, v] of Object.entries(a)) {
        const p = `dropship_address.${k}`;
        if (!(ADDRESS_FIELDS as readonly string[]).includes(k)) {
          report.push({
            path: p,
            action: 'unknown',
            from: summarise(v),
            to: null,
            note: 'Not a V2 address field.',
          });
          continue;
        }
        const to = k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
        if (v === null || v === undefined) {
          report.push({ path: p, action: 'dropped', from: v, to: null, note: 'Empty value.' });
        } else if (typeof v === 'string' || typeof v === 'number') {
          addr[to] = String(v);
          report.push({
            path: p,
            action: typeof v === 'number' ? 'converted' : 'mapped',
            from: v,
            to: `dropshipAddress.${to}`,
            ...(typeof v === 'number' ? { value: String(v), note: 'Address fields are strings in V2.' } : {}),
          });
        } else {
          fail(p, 'invalid_value', `${p} must be a string.`);
          report.push({ path: p, action: 'dropped', from: summarise(v), to: null, note: 'Not a string.' });
        }
      }
      order.dropshipAddress = addr;
    } else {
      fail('dropship_address', 'invalid_value', 'dropship_address must be an object.');
      report.push({
        path: 'dropship_address',
        action: 'dropped',
        from: summarise(a),
        to: null,
        note: 'Not an object.',
      });
    }
  } else if (order.shippingKind === 'dropship') {
    fail(
      'dropship_address',
      'missing_field',
      'A dropship order needs a dropship_address (V2 error missing_address).',
    );
  }
  if ('dropship_minimal_shipping_level' in src) {
    const lvl = src.dropship_minimal_shipping_level;
    if (order.shippingKind === 'combined') {
      report.push({
        path: 'dropship_minimal_shipping_level',
        action: 'dropped',
        from: summarise(lvl),
        to: null,
        note: 'Only used for dropship orders.',
      });
    } else if (str('dropship_minimal_shipping_level', lvl)) {
      order.dropshipMinimalShippingLevel = lvl;
      report.push({
        path: 'dropship_minimal_shipping_level',
        action: 'mapped',
        from: lvl,
        to: 'dropshipMinimalShippingLevel',
      });
    }
  }

  // Orderlines.
  const lines = src.orderlines;
  if (!Array.isArray(lines) || lines.length === 0) {
    fail('orderlines', 'missing_field', 'The order needs a non-empty orderlines array.');
    if (lines !== undefined && !Array.isArray(lines)) {
      report.push({
        path: 'orderlines',
        action: 'dropped',
        from: summarise(lines),
        to: null,
        note: 'Not an array.',
      });
    }
  } else {
    // Lines convert concurrently; their entries are appended in line order afterwards.
    const converted = await Promise.all(lines.map((line, i) => convertOrderline(line, i, options)));
    order.orderlines = converted.map((c) => c.line);
    for (const c of converted) {
      report.push(...c.entries);
      errors.push(...c.errors);
    }
  }

  // V2 field order, for readable output.
  const ordered = {} as V2OrderDraft;
  for (const k of [
    'storeReference',
    'shippingKind',
    'customIdentifier',
    'dropshipAddress',
    'dropshipMinimalShippingLevel',
    'orderlines',
  ] as const) {
    if (order[k] !== undefined) (ordered as unknown as Record<string, unknown>)[k] = order[k];
  }
  // Every rule that makes a draft invalid (a dropship order without address, …) adds an error.
  if (errors.length === 0) return { ok: true, order: ordered as V2OrderRequest, report, errors };
  return { ok: false, order: ordered, report, errors };
}

async function convertOrderline(
  line: unknown,
  i: number,
  options: ConvertOptions,
): Promise<{ line: V2Orderline; entries: ReportEntry[]; errors: ConversionError[] }> {
  const base = `orderlines[${i}]`;
  const out = {} as V2Orderline;
  const entries: ReportEntry[] = [];
  const errors: ConversionError[] = [];
  const fail = (path: string, code: ConversionError['code'], message: string) =>
    errors.push({ path, code, message });
  if (!isRecord(line)) {
    fail(base, 'invalid_value', `${base} must be an object.`);
    entries.push({ path: base, action: 'dropped', from: summarise(line), to: null, note: 'Not an object.' });
    return { line: out, entries, errors };
  }
  for (const [k, v] of Object.entries(line)) {
    if (!ORDERLINE_FIELDS.has(k)) {
      entries.push({
        path: `${base}.${k}`,
        action: 'unknown',
        from: summarise(v),
        to: null,
        note: 'Not an accepted V1 orderline field; left out of the V2 request.',
      });
    }
  }

  // Product.
  const skuKey = 'sku' in line ? 'sku' : 'legacy_sku' in line ? 'legacy_sku' : undefined;
  if (typeof line.product_reference === 'string' && line.product_reference) {
    out.productReference = line.product_reference;
    entries.push({
      path: `${base}.product_reference`,
      action: 'mapped',
      from: line.product_reference,
      to: `${base}.productReference`,
    });
    for (const k of ['sku', 'legacy_sku']) {
      if (k in line) {
        entries.push({
          path: `${base}.${k}`,
          action: 'dropped',
          from: summarise(line[k]),
          to: null,
          note: 'product_reference is set; the SKU was not looked up.',
        });
      }
    }
  } else if ('product_reference' in line) {
    fail(
      `${base}.product_reference`,
      'invalid_value',
      `${base}.product_reference must be a non-empty string.`,
    );
    entries.push({
      path: `${base}.product_reference`,
      action: 'dropped',
      from: summarise(line.product_reference),
      to: null,
    });
  } else if (skuKey) {
    if (skuKey === 'sku' && 'legacy_sku' in line) {
      entries.push({
        path: `${base}.legacy_sku`,
        action: 'dropped',
        from: summarise(line.legacy_sku),
        to: null,
        note: 'sku is set and was used.',
      });
    }
    const sku = line[skuKey];
    const path = `${base}.${skuKey}`;
    if (typeof sku !== 'string' || sku.length === 0) {
      fail(path, 'invalid_value', `${path} must be a non-empty string.`);
      entries.push({ path, action: 'dropped', from: summarise(sku), to: null });
    } else if (!options.resolveSku) {
      fail(
        path,
        'lookup_failed',
        `${path}: no resolveSku given, cannot turn the SKU into a product reference.`,
      );
      entries.push({ path, action: 'dropped', from: sku, to: null, note: 'No SKU resolver.' });
    } else {
      try {
        const r = await options.resolveSku(sku);
        const ref = typeof r === 'string' ? r : r.status === 'resolved' ? r.productReference : undefined;
        if (ref) {
          out.productReference = ref;
          const note = typeof r === 'string' ? undefined : r.note;
          entries.push({
            path,
            action: 'converted',
            from: sku,
            to: `${base}.productReference`,
            value: ref,
            note: `Legacy SKU resolved through the lookup (removed in V3).${note ? ` ${note}` : ''}`,
          });
        } else {
          const note = typeof r === 'string' ? '' : (r.note ?? '');
          const status = typeof r === 'string' ? 'error' : r.status;
          const [code, what] =
            status === 'unknown'
              ? (['unknown_sku', 'Unknown SKU'] as const)
              : status === 'invalid'
                ? (['invalid_value', 'Invalid SKU'] as const)
                : (['lookup_failed', 'SKU lookup failed for'] as const);
          fail(path, code, `${what} ${sku}. ${note}`.trim());
          entries.push({ path, action: 'dropped', from: sku, to: null, note: note || 'Unknown SKU.' });
        }
      } catch (e) {
        const unknown = (e as { status?: number }).status === 404 || (e as Error).name === 'UnknownSkuError';
        fail(
          path,
          unknown ? 'unknown_sku' : 'lookup_failed',
          `${unknown ? 'Unknown SKU' : 'SKU lookup failed'} ${sku}: ${errorMessage(e)}`,
        );
        entries.push({ path, action: 'dropped', from: sku, to: null, note: errorMessage(e) });
      }
    }
  } else {
    fail(`${base}.product_reference`, 'missing_field', `${base} has neither product_reference nor sku.`);
  }

  // Image.
  const imageKey = 'image' in line ? 'image' : 'image_base64' in line ? 'image_base64' : undefined;
  if (typeof line.image_reference === 'string' && line.image_reference) {
    out.imageReference = line.image_reference;
    entries.push({
      path: `${base}.image_reference`,
      action: 'mapped',
      from: line.image_reference,
      to: `${base}.imageReference`,
    });
    for (const k of ['image', 'image_base64']) {
      if (k in line) {
        entries.push({
          path: `${base}.${k}`,
          action: 'dropped',
          from: summarise(line[k], true),
          to: null,
          note: 'image_reference is set; the base64 image was not uploaded.',
        });
      }
    }
  } else if ('image_reference' in line && line.image_reference !== null) {
    fail(`${base}.image_reference`, 'invalid_value', `${base}.image_reference must be a non-empty string.`);
    entries.push({
      path: `${base}.image_reference`,
      action: 'dropped',
      from: summarise(line.image_reference),
      to: null,
    });
  } else if (imageKey) {
    if (imageKey === 'image' && 'image_base64' in line) {
      entries.push({
        path: `${base}.image_base64`,
        action: 'dropped',
        from: summarise(line.image_base64, true),
        to: null,
        note: 'image is set and was used.',
      });
    }
    const b64 = line[imageKey];
    const path = `${base}.${imageKey}`;
    if (b64 === null || b64 === undefined || b64 === '') {
      entries.push({
        path,
        action: 'dropped',
        from: b64,
        to: null,
        note: 'Empty image (non-print products have none).',
      });
    } else if (typeof b64 !== 'string') {
      fail(path, 'invalid_image', `${path} must be a base64 string.`);
      entries.push({ path, action: 'dropped', from: summarise(b64), to: null, note: 'Not a string.' });
    } else if (!options.uploadImage) {
      fail(path, 'upload_failed', `${path}: no uploadImage given, cannot upload the base64 image.`);
      entries.push({
        path,
        action: 'dropped',
        from: summarise(b64, true),
        to: null,
        note: 'No image uploader.',
      });
    } else {
      try {
        const ref = await options.uploadImage(b64);
        out.imageReference = ref;
        entries.push({
          path,
          action: 'converted',
          from: summarise(b64, true),
          to: `${base}.imageReference`,
          value: ref,
          note: 'Base64 decoded and uploaded as raw bytes (POST /images); identical images are uploaded once.',
        });
      } catch (e) {
        const invalid = e instanceof InvalidImageError || (e as Error).name === 'InvalidImageError';
        fail(path, invalid ? 'invalid_image' : 'upload_failed', `${path}: ${errorMessage(e)}`);
        entries.push({
          path,
          action: 'dropped',
          from: summarise(b64, true),
          to: null,
          note: errorMessage(e),
        });
      }
    }
  }

  // Quantity.
  const q = line.quantity;
  const qp = `${base}.quantity`;
  if (typeof q === 'number' && Number.isInteger(q) && q > 0) {
    out.quantity = q;
    entries.push({ path: qp, action: 'mapped', from: q, to: qp });
  } else if (typeof q === 'string' && /^[1-9]\d*$/.test(q.trim())) {
    out.quantity = Number(q.trim());
    entries.push({
      path: qp,
      action: 'converted',
      from: q,
      to: qp,
      value: out.quantity,
      note: 'String → integer.',
    });
  } else if (q === undefined) {
    fail(qp, 'missing_field', `${base} has no quantity.`);
  } else {
    fail(qp, 'invalid_value', `${qp} must be a positive integer.`);
    entries.push({
      path: qp,
      action: 'dropped',
      from: summarise(q),
      to: null,
      note: 'Not a positive integer.',
    });
  }

  return { line: out, entries, errors };
}
