import { ITEM_SKU_NOTE, V1_STOCK_FIELDS, type V2StockList } from '../v1-stock.ts';
import { isIdent, type N, propName } from './ast.ts';
import { type ReadMapper, refsOf, type UnknownRead, type ValueUse } from './consumers.ts';
import { parseExpressionCode } from './parse.ts';

/**
 * `GET /stock` → the V2 lists, chosen by what the code reads of the V1 entries (the model is in
 * `v1-stock.ts`): entries iterated for their quantities become the warehouse items (`client.collect('/items')`),
 * entries iterated only for their SKU become the products (`sku` → `legacyItemSKU`); a field without a documented
 * V2 equivalent read next to those is left as it is, marked. Any other use — the list returned or passed on, an
 * entry used whole, entries read for no known field — gets all three lists (`{ products, productgroups, items }`)
 * and a TODO where it is used.
 */
export const stockValue = (client: string) => `await ${client}.collect('/items')`;

/** The one list the value reads (`GET /items`), or undefined for the three. */
export const stockTarget = (value: N): string | undefined =>
  value.type === 'AwaitExpression' ? `GET ${value.argument.arguments[0].value}` : undefined;

const ARRAY_METHODS = new Set(['map', 'filter', 'find', 'findIndex', 'some', 'every', 'forEach', 'flatMap']);
const BY_NAME = new Map(V1_STOCK_FIELDS.map((f) => [f.v1, f]));

interface ElementRead {
  m: N;
  field: string;
}

/** The entries' reads of one use: `for (const e of list)` or `list.map((e) => …)`; undefined for another use. */
function elementReads(
  use: ValueUse,
): { reads: ElementRead[]; whole: N[]; param: N; more?: ValueUse } | undefined {
  const { node, links } = use;
  const p = links.get(node);
  let scope: N | undefined;
  let param: N | undefined;
  let more: ValueUse | undefined;
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
    // What `filter` answers is entries again: its own uses are followed; what `find` answers is one entry.
    if (propName(p.parent) === 'filter') more = { node: call, links };
    else if (propName(p.parent) === 'find' && links.get(call)?.parent.type !== 'ExpressionStatement')
      return undefined;
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
  return { reads, whole, param, ...(more ? { more } : {}) };
}

/** Every use of the list, and of what `filter` made of it, with the entries' reads of each. */
function allUses(uses: ValueUse[]) {
  const out: Array<{ use: ValueUse; it: ReturnType<typeof elementReads> }> = [];
  const queue = [...uses];
  for (let use = queue.shift(); use; use = queue.shift()) {
    const it = elementReads(use);
    out.push({ use, it });
    // What `filter` made of the list is followed as one more use (iterated, or else used whole).
    if (it?.more) queue.push(it.more);
  }
  return out;
}

const unknownField = (field: string) =>
  `reads \`${field}\` of a V1 stock entry, which has no documented V2 equivalent (a V2 product documents reference, legacyItemSKU and its productgroup; a warehouse item reference, sku, logicalQuantity, physicalQuantity and products).`;
const WHOLE =
  'uses the V1 stock list as a whole: V2 splits it into products, productgroups and warehouse items (here the three lists, { products, productgroups, items }), whose entries are not V1 stock entries.';
const WHOLE_ENTRY =
  'uses a V1 stock entry as a whole: a V2 product or warehouse item is not a V1 stock entry (snake_case fields, a legacy SKU).';

/** Which list the entries' known reads need: `/items` for a quantity, `/products` for the SKU alone. */
function listFor(fields: Set<string>): V2StockList | undefined {
  const known = [...fields].flatMap((f) => BY_NAME.get(f) ?? []);
  if (!known.length) return undefined;
  return known.some((k) => k.list === '/items') ? '/items' : '/products';
}

/** Replaces a node in place (its parent is not at hand): the V2 value the consumer put there. */
function become(node: N, code: string): void {
  const next = parseExpressionCode(code) as N;
  for (const k of Object.keys(node)) delete node[k];
  Object.assign(node, next);
}

export function stockReads(client: string): ReadMapper {
  return (uses, value) => {
    const all = allUses(uses);
    const iterated = all.map((a) => a.it);
    const fields = new Set(iterated.flatMap((i) => i?.reads.map((r) => r.field) ?? []));
    const list = iterated.every((i) => i && !i.whole.length) ? listFor(fields) : undefined;
    const unknown: UnknownRead[] = [];
    if (!list) {
      become(
        value,
        `{ products: await ${client}.collect('/products'), productgroups: await ${client}.collect('/productgroups'), items: await ${client}.collect('/items') }`,
      );
      // Each use that has no V2 equivalent is marked with its reason; with none (entries read for no field at
      // all), the list's own uses are.
      for (const { use, it } of all) {
        const unmapped = it?.reads.find((r) => !BY_NAME.has(r.field));
        const reason = !it
          ? WHOLE
          : unmapped
            ? unknownField(unmapped.field)
            : it.whole.length
              ? WHOLE_ENTRY
              : undefined;
        if (reason) unknown.push({ node: use.node, field: unmapped?.field ?? '(the stock list)', reason });
      }
      if (!unknown.length)
        for (const use of uses) unknown.push({ node: use.node, field: '(the stock list)', reason: WHOLE });
      return unknown;
    }
    if (list === '/products') value.argument.arguments[0] = { type: 'StringLiteral', value: '/products' };
    for (const it of iterated) {
      if (it) it.param.typeAnnotation = null;
      for (const { m, field } of it?.reads ?? []) {
        const f = BY_NAME.get(field);
        if (f?.list === list) m.property = { type: 'Identifier', name: f.v2 };
        else unknown.push({ node: m, field, reason: f ? ITEM_SKU_NOTE : unknownField(field) });
      }
    }
    return unknown;
  };
}
