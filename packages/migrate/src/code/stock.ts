import { ITEM_SKU_NOTE, V1_STOCK_FIELDS, type V2StockList } from '../v1-stock.ts';
import { isIdent, type N, propName } from './ast.ts';
import { type ReadMapper, refsOf, type UnknownRead, type ValueUse } from './consumers.ts';
import { parseExpressionCode } from './parse.ts';

/**
 * `GET /stock` → the V2 lists, chosen by what the code reads of the V1 entries (the model is in
 * `v1-stock.ts`): entries iterated for their quantities become the warehouse items (`client.collect('/items')`),
 * entries iterated only for their SKU become the products (`sku` → `legacyItemSKU`); any other use — the list
 * returned or passed on, a field without a documented V2 equivalent — gets all three lists
 * (`{ products, productgroups, items }`) and a TODO where it is used.
 */
export const stockValue = (client: string) => `await ${client}.collect('/items')`;

const ARRAY_METHODS = new Set(['map', 'filter', 'find', 'findIndex', 'some', 'every', 'forEach', 'flatMap']);
const BY_NAME = new Map(V1_STOCK_FIELDS.map((f) => [f.v1, f]));

interface ElementRead {
  m: N;
  field: string;
}

/** The entries' reads of one use: `for (const e of list)` or `list.map((e) => …)`; undefined for another use. */
function elementReads(use: ValueUse): { reads: ElementRead[]; whole: N[]; param: N } | undefined {
  const { node, links } = use;
  const p = links.get(node);
  let scope: N | undefined;
  let param: N | undefined;
  if (p?.parent.type === 'ForOfStatement' && p.key === 'right') {
    const d = p.parent.left.declarations?.[0];
    if (p.parent.left.declarations?.length === 1 && isIdent(d.id)) [scope, param] = [p.parent.body, d.id];
  } else if (
    p?.parent.type === 'MemberExpression' &&
    p.key === 'object' &&
    ARRAY_METHODS.has(propName(p.parent) ?? '')
  ) {
    const call = links.get(p.parent)?.parent;
    const fn = call?.type === 'CallExpression' && call.callee === p.parent ? call.arguments[0] : undefined;
    if (/^(ArrowFunctionExpression|FunctionExpression)$/.test(fn?.type ?? '') && isIdent(fn.params[0]))
      [scope, param] = [fn.body, fn.params[0]];
  }
  if (!scope || !param) return undefined;
  const reads: ElementRead[] = [];
  const whole: N[] = [];
  for (const r of refsOf(scope, param.name, param)) {
    const m = r.links.get(r.node)?.parent;
    const field = m?.type === 'MemberExpression' && m.object === r.node ? propName(m) : undefined;
    if (field && !m.computed) reads.push({ m, field });
    else whole.push(r.node);
  }
  return { reads, whole, param };
}

const unknownField = (field: string) =>
  `reads \`${field}\` of a V1 stock entry, which has no documented V2 equivalent (a V2 product documents reference, legacyItemSKU and its productgroup; a warehouse item reference, sku, logicalQuantity, physicalQuantity and products).`;
const WHOLE =
  'uses the V1 stock list as a whole: V2 splits it into products, productgroups and warehouse items (here the three lists, { products, productgroups, items }), whose entries are not V1 stock entries.';
const WHOLE_ENTRY =
  'uses a V1 stock entry as a whole: a V2 product or warehouse item is not a V1 stock entry (snake_case fields, a legacy SKU).';

/** Which list the entries' reads need: `/items` for a quantity, `/products` for the SKU alone, else none. */
function listFor(fields: Set<string>): V2StockList | undefined {
  const known = [...fields].map((f) => BY_NAME.get(f));
  if (known.some((k) => !k)) return undefined;
  return known.some((k) => k?.list === '/items') ? '/items' : fields.size ? '/products' : undefined;
}

/** Replaces a node in place (its parent is not at hand): the V2 value the consumer put there. */
function become(node: N, code: string): void {
  const next = parseExpressionCode(code) as N;
  for (const k of Object.keys(node)) delete node[k];
  Object.assign(node, next);
}

export function stockReads(client: string): ReadMapper {
  return (uses, value) => {
    const iterated = uses.map(elementReads);
    const fields = new Set(iterated.flatMap((i) => i?.reads.map((r) => r.field) ?? []));
    const list = iterated.every((i) => i && !i.whole.length) ? listFor(fields) : undefined;
    const unknown: UnknownRead[] = [];
    if (!list) {
      become(
        value,
        `{ products: await ${client}.collect('/products'), productgroups: await ${client}.collect('/productgroups'), items: await ${client}.collect('/items') }`,
      );
      uses.forEach((u, i) => {
        const it = iterated[i];
        const unmapped = it?.reads.find((r) => !BY_NAME.has(r.field));
        const reason = it
          ? unmapped
            ? unknownField(unmapped.field)
            : it.whole.length
              ? WHOLE_ENTRY
              : WHOLE
          : WHOLE;
        unknown.push({ node: u.node, field: unmapped?.field ?? '(the stock list)', reason });
      });
      return unknown;
    }
    if (list === '/products') value.argument.arguments[0] = { type: 'StringLiteral', value: '/products' };
    for (const it of iterated) {
      if (it) it.param.typeAnnotation = null;
      for (const { m, field } of it?.reads ?? []) {
        const f = BY_NAME.get(field)!;
        if (f.list === list) m.property = { type: 'Identifier', name: f.v2 };
        else unknown.push({ node: m, field, reason: ITEM_SKU_NOTE });
      }
    }
    return unknown;
  };
}
