import { bare, isString, memberPath, type N, propName } from './ast.ts';

/**
 * The legacy order-updated callback keeps its query parameters for V2 orders: `order_reference` stays the
 * V1 code `<store_code>-<number>`, and `order_reference_v2` carries the `Order_…` reference V2 calls take.
 * A handler that reads `order_reference` from the request's query reads `order_reference_v2` instead.
 */
const V1_PARAM = 'order_reference';
const V2_PARAM = 'order_reference_v2';
/** The callback's parameter that carries the `Order_` reference. */
export const CALLBACK_ORDER_REFERENCE = V2_PARAM;

/** `req.query`, `request.query`, `ctx.query`, a `query` object. */
export const isQueryObject = (n: N): boolean => {
  const p = memberPath(n);
  return p !== undefined && (p === 'query' || p.endsWith('.query'));
};
/** `url.searchParams`, `searchParams`, `nextUrl.searchParams`, a `query` parsed with URLSearchParams. */
const isSearchParams = (n: N) => {
  const p = memberPath(n);
  return p !== undefined && (/(^|\.)searchParams$/.test(p) || p === 'query' || p === 'params');
};

/**
 * Whether `n` reads the callback's `order_reference_v2` from the request's query (`req.query.order_reference_v2`,
 * `searchParams.get('order_reference_v2')`): an `Order_` reference, by the reference's table of parameters.
 */
export function readsCallbackOrderReference(n: N): boolean {
  const b = bare(n);
  if (b.type === 'MemberExpression') return propName(b) === V2_PARAM && isQueryObject(b.object);
  return (
    b.type === 'CallExpression' &&
    b.callee.type === 'MemberExpression' &&
    propName(b.callee) === 'get' &&
    isSearchParams(b.callee.object) &&
    isString(b.arguments[0]) &&
    b.arguments[0].value === V2_PARAM
  );
}

export interface CallbackEdit {
  node: N;
  what: string;
}

/** Finds the reads (and rewrites them when `apply`). */
export function rewriteCallbackReads(nodes: N[], apply = true): CallbackEdit[] {
  const edits: CallbackEdit[] = [];
  for (const n of nodes) {
    if (n.type === 'MemberExpression' && propName(n) === V1_PARAM && isQueryObject(n.object)) {
      if (apply)
        n.property = n.computed
          ? { type: 'StringLiteral', value: V2_PARAM }
          : { type: 'Identifier', name: V2_PARAM };
      edits.push({ node: n, what: `${memberPath(n.object)}.${V1_PARAM} → ${V2_PARAM}` });
    } else if (
      n.type === 'CallExpression' &&
      n.callee.type === 'MemberExpression' &&
      propName(n.callee) === 'get' &&
      isSearchParams(n.callee.object) &&
      isString(n.arguments[0]) &&
      n.arguments[0].value === V1_PARAM
    ) {
      if (apply) n.arguments[0] = { type: 'StringLiteral', value: V2_PARAM };
      edits.push({ node: n, what: `searchParams.get('${V1_PARAM}') → '${V2_PARAM}'` });
    } else if (
      n.type === 'VariableDeclarator' &&
      n.id.type === 'ObjectPattern' &&
      n.init &&
      isQueryObject(bare(n.init))
    ) {
      for (const p of n.id.properties) {
        if (p.type !== 'ObjectProperty' || propName(p) !== V1_PARAM) continue;
        if (!apply) {
          edits.push({ node: p, what: '' });
          continue;
        }
        // The local name stays (with its default, if any); only the parameter read changes.
        p.key = { type: 'Identifier', name: V2_PARAM };
        p.shorthand = false;
        if (p.extra) p.extra = { ...p.extra, shorthand: false };
        edits.push({ node: p, what: `{ ${V1_PARAM} } of the query → ${V2_PARAM}` });
      }
    }
  }
  return edits;
}
