import { ITEM_SKU_NOTE, V1_STOCK_FIELDS, type V2StockList } from '../v1-stock.ts';
import { isIdent, type N, propName } from './ast.ts';
import { LeftOnV1, type ReadMapper, refsOf, type UnknownRead, type ValueUse } from './consumers.ts';

/**
 * `GET /stock` → the V2 lists, chosen by what the code reads of the V1 entries (the model is in
 * `v1-stock.ts`): entries iterated for their quantities become the warehouse items (`client.collect('/items')`),
 * entries iterated only for their SKU become the products (`sku` → `legacyItemSKU`); a field without a documented
 * V2 equivalent read next to those is left as it is, marked. Any other use — the list destructured, indexed, its
 * length, returned or passed on, an entry used whole, entries read for a field V2 does not document or for none —
 * has no V2 value of its shape: the mapper throws `LeftOnV1`, and the call stays on V1, marked.
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

/** What to do instead, said with each reason a stock call is left on V1. */
const BY_HAND =
  'V1 GET /stock maps to GET /products, GET /productgroups and GET /items (`client.collect(…)` of each): move this code to the list it needs by hand.';
const unknownField = (field: string) =>
  `it reads \`${field}\` of a V1 stock entry, which has no documented V2 equivalent (a V2 product documents reference, legacyItemSKU and its productgroup; a warehouse item reference, sku, logicalQuantity, physicalQuantity and products). ${BY_HAND}`;
const WHOLE = `it uses the V1 stock list as a whole (destructured, indexed, its length, returned or passed on), and V2 has no one list of that shape. ${BY_HAND}`;
const WHOLE_ENTRY = `it uses a V1 stock entry as a whole: a V2 product or warehouse item is not a V1 stock entry (snake_case fields, a legacy SKU). ${BY_HAND}`;

/** Which list the entries' known reads need: `/items` for a quantity, `/products` for the SKU alone. */
function listFor(fields: Set<string>): V2StockList | undefined {
  const known = [...fields].flatMap((f) => BY_NAME.get(f) ?? []);
  if (!known.length) return undefined;
  return known.some((k) => k.list === '/items') ? '/items' : '/products';
}

export const stockReads: ReadMapper = (uses, value) => {
  const all = allUses(uses);
  const iterated = all.map((a) => a.it);
  const fields = new Set(iterated.flatMap((i) => i?.reads.map((r) => r.field) ?? []));
  // A use V2's lists cannot stand in for leaves the call on V1: rewritten, it would throw or read undefined.
  for (const it of iterated) {
    if (!it) throw new LeftOnV1(WHOLE);
    if (it.whole.length) throw new LeftOnV1(WHOLE_ENTRY);
    const unmapped = it.reads.find((r) => !BY_NAME.has(r.field));
    if (unmapped) throw new LeftOnV1(unknownField(unmapped.field));
  }
  const list = listFor(fields);
  if (!list) throw new LeftOnV1(WHOLE);
  const unknown: UnknownRead[] = [];
  if (list === '/products') value.argument.arguments[0] = { type: 'StringLiteral', value: '/products' };
  for (const it of iterated) {
    if (it) it.param.typeAnnotation = null;
    for (const { m, field } of it?.reads ?? []) {
      const f = BY_NAME.get(field);
      if (f?.list === list) m.property = { type: 'Identifier', name: f.v2 };
      else unknown.push({ node: m, field, reason: ITEM_SKU_NOTE });
    }
  }
  return unknown;
};
