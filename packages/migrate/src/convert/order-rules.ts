import { convertOrderline } from './orderline-rules.ts';
import { hasPrefix, isRecord, type ReportBuilder } from './report.ts';
import type { ConvertOptions, V2Address, V2OrderDraft } from './types.ts';

/**
 * The V1 order fields conversion accepts, as a table of rules. A rule names the V1 fields it reads
 * (`fields`, the one list of accepted order fields: every other field is reported as `unknown`) and turns
 * them into the draft's V2 fields, writing what it did to the report.
 */
export interface OrderRule {
  readonly fields: readonly string[];
  apply<I extends string>(ctx: OrderContext<I>): void | Promise<void>;
}

export interface OrderContext<I extends string> {
  src: Record<string, unknown>;
  draft: V2OrderDraft<I>;
  report: ReportBuilder;
  options: ConvertOptions<I>;
}

/** V1 address fields (snake_case forms of the V2 address fields, all strings). */
export const V1_ADDRESS_FIELDS = [
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

const toCamel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

const storeReference: OrderRule = {
  fields: ['store_reference'],
  apply({ src, draft, report }) {
    if (!('store_reference' in src)) return;
    const value = src.store_reference;
    if (!report.reference('store_reference', value, 'Store')) return;
    draft.storeReference = value;
    report.mapped('store_reference', value, 'storeReference');
  },
};

const storeCode: OrderRule = {
  fields: ['store_code', 'partner_code'],
  async apply({ src, draft, report, options }) {
    for (const key of this.fields) {
      if (!(key in src)) continue;
      const code = src[key];
      if (draft.storeReference) {
        report.dropped(
          key,
          code,
          'store_reference is already set; V2 identifies stores by Store_ reference only.',
        );
        continue;
      }
      if (!report.nonEmptyString(key, code)) continue;
      const sr = options.storeReference;
      const ref = typeof sr === 'function' ? await sr(code) : sr;
      if (ref && !hasPrefix('Store', ref)) {
        report.fail(
          key,
          'invalid_reference',
          `The store map gives ${ref} for store code ${code}: not a Store_ reference.`,
        );
        report.dropped(key, code, 'The mapped value is not a Store_ reference.');
      } else if (hasPrefix('Store', ref)) {
        draft.storeReference = ref;
        const alias = key === 'partner_code' ? ' (partner_code is the deprecated alias of store_code)' : '';
        report.converted(key, code, 'storeReference', ref, `V1 store code → V2 store reference${alias}.`);
      } else {
        report.fail(
          key,
          'missing_field',
          `No store reference known for store code ${code}; map it with --store ${code}=Store_… (CLI) or the storeReference option.`,
        );
        report.dropped(key, code, 'No store reference for this code.');
      }
    }
  },
};

const storeFallback: OrderRule = {
  fields: [],
  apply({ draft, report, options }) {
    const fallback =
      typeof options.storeReference === 'string' ? options.storeReference : options.defaultStoreReference;
    if (!draft.storeReference && fallback !== undefined && !hasPrefix('Store', fallback)) {
      report.fail(
        '(default)',
        'invalid_reference',
        `The default store ${fallback} is not a Store_ reference.`,
      );
      return;
    }
    if (!draft.storeReference && hasPrefix('Store', fallback)) {
      draft.storeReference = fallback;
      report.entries.push({
        path: '(default)',
        action: 'converted',
        from: null,
        to: 'storeReference',
        value: fallback,
        note: 'No store in the V1 order; the default store reference was used.',
      });
    }
    const storeError = report.errors.some(
      (e) => storeCode.fields.includes(e.path) || e.path === 'store_reference',
    );
    if (!draft.storeReference && !storeError) {
      report.fail(
        'store_reference',
        'missing_field',
        'Missing: give the order a store_reference or a store_code, or a default store with --store-reference Store_… (CLI) or the storeReference option.',
      );
    }
  },
};

const shippingKind: OrderRule = {
  fields: ['shipping_kind'],
  apply({ src, draft, report }) {
    if (!('shipping_kind' in src)) {
      report.fail('shipping_kind', 'missing_field', 'Missing: "dropship" or "combined".');
      return;
    }
    const sk = src.shipping_kind;
    if (sk === 'dropship' || sk === 'combined') {
      draft.shippingKind = sk;
      report.mapped('shipping_kind', sk, 'shippingKind');
    } else {
      report.fail('shipping_kind', 'invalid_value', 'Must be "dropship" or "combined".');
      report.dropped('shipping_kind', sk, 'Invalid value.');
    }
  },
};

const customIdentifier: OrderRule = {
  fields: ['custom_identifier', 'partner_reference'],
  apply({ src, draft, report, options }) {
    if ('custom_identifier' in src && report.nonEmptyString('custom_identifier', src.custom_identifier)) {
      draft.customIdentifier = src.custom_identifier;
      report.mapped('custom_identifier', src.custom_identifier, 'customIdentifier');
    }
    if ('partner_reference' in src) {
      const pr = src.partner_reference;
      if (draft.customIdentifier !== undefined) {
        report.dropped(
          'partner_reference',
          pr,
          pr === draft.customIdentifier
            ? 'Same value as custom_identifier.'
            : 'custom_identifier is set and wins; V2 has one custom identifier.',
        );
      } else if (report.nonEmptyString('partner_reference', pr)) {
        draft.customIdentifier = pr;
        report.renamed(
          'partner_reference',
          pr,
          'customIdentifier',
          'The V1 partner reference is the V2 custom identifier.',
        );
      }
    }
    if (draft.customIdentifier === undefined && options.customIdentifier !== undefined) {
      draft.customIdentifier = options.customIdentifier;
      report.entries.push({
        path: '(derived)',
        action: 'converted',
        from: null,
        to: 'customIdentifier',
        value: options.customIdentifier,
        note: 'No partner_reference in the V1 order; a deterministic custom identifier was derived.',
      });
    }
  },
};

function convertAddress(a: Record<string, unknown>, report: ReportBuilder): V2Address {
  const addr: Record<string, string> = {};
  for (const [k, v] of Object.entries(a)) {
    const path = `dropship_address.${k}`;
    if (!(V1_ADDRESS_FIELDS as readonly string[]).includes(k)) {
      report.unknown(path, v, 'Not a V2 address field.');
      continue;
    }
    const to = toCamel(k);
    if (v === null || v === undefined) {
      report.dropped(path, v, 'Empty value.');
    } else if (typeof v === 'string') {
      addr[to] = v;
      report.mapped(path, v, `dropshipAddress.${to}`);
    } else if (typeof v === 'number') {
      addr[to] = String(v);
      report.converted(path, v, `dropshipAddress.${to}`, String(v), 'Address fields are strings in V2.');
    } else {
      report.fail(path, 'invalid_value', 'Must be a string.');
      report.dropped(path, v, 'Not a string.');
    }
  }
  return addr;
}

/** Left out, or with no V2 address field set (`{}`, `{ city: null }`, only unknown fields). */
const NO_ADDRESS = 'Missing: a dropship order needs an address (V2 error missing_address).';

const dropshipAddress: OrderRule = {
  fields: ['dropship_address'],
  apply({ src, draft, report }) {
    if (!('dropship_address' in src)) {
      if (draft.shippingKind === 'dropship') {
        report.fail('dropship_address', 'missing_field', NO_ADDRESS);
      }
      return;
    }
    const a = src.dropship_address;
    if (draft.shippingKind === 'combined') {
      report.dropped(
        'dropship_address',
        a,
        'combined orders ship to the store address; V2 does not use an address for them.',
      );
    } else if (isRecord(a)) {
      const address = convertAddress(a, report);
      // V2 refuses an address with no field (the spec's minProperties 1) with missing_address: `{}`, only empty
      // values (`{ city: null }`) or only fields V2 does not know leave none.
      if (Object.keys(address).length) draft.dropshipAddress = address;
      else report.fail('dropship_address', 'missing_field', NO_ADDRESS);
    } else {
      report.fail('dropship_address', 'invalid_value', 'Must be an object.');
      report.dropped('dropship_address', a, 'Not an object.');
    }
  },
};

const shippingLevel: OrderRule = {
  fields: ['dropship_minimal_shipping_level'],
  apply({ src, draft, report }) {
    const key = 'dropship_minimal_shipping_level';
    if (!(key in src)) return;
    const lvl = src[key];
    if (draft.shippingKind === 'combined') report.dropped(key, lvl, 'Only used for dropship orders.');
    else if (report.nonEmptyString(key, lvl)) {
      draft.dropshipMinimalShippingLevel = lvl;
      report.mapped(key, lvl, 'dropshipMinimalShippingLevel');
    }
  },
};

const orderlines: OrderRule = {
  fields: ['orderlines'],
  async apply({ src, draft, report, options }) {
    const lines = src.orderlines;
    if (!Array.isArray(lines) || lines.length === 0) {
      report.fail('orderlines', 'missing_field', 'Missing: the order needs at least one orderline.');
      if (lines !== undefined && !Array.isArray(lines)) report.dropped('orderlines', lines, 'Not an array.');
      return;
    }
    // Lines convert concurrently; their entries are appended in line order afterwards.
    const converted = await Promise.all(lines.map((line, i) => convertOrderline(line, i, options)));
    draft.orderlines = converted.map((c) => c.line);
    for (const c of converted) report.append(c.report);
  },
};

/** The rules, in the order they run (later rules read what earlier ones decided, e.g. the shipping kind). */
export const ORDER_RULES: readonly OrderRule[] = [
  storeReference,
  storeCode,
  storeFallback,
  shippingKind,
  customIdentifier,
  dropshipAddress,
  shippingLevel,
  orderlines,
];

/** Every V1 order field conversion accepts (from the rules). */
export const V1_ORDER_FIELDS: readonly string[] = ORDER_RULES.flatMap((r) => r.fields);
