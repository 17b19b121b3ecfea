import { v2FieldName } from '../case.ts';
import { V1_ADDRESS_FIELDS, V1_ORDER_FIELDS, V1_ORDERLINE_FIELDS } from '../convert.ts';
import {
  bare,
  functionOf,
  indexTree,
  isIdent,
  type Link,
  type N,
  propName,
  removeStatement,
  replaceNode,
} from './ast.ts';
import type { HttpLib } from './calls.ts';

/**
 * How a call's response reaches the code: the rewrite replaces the expression that yields the parsed JSON
 * (`await (await fetch(…)).json()`, `(await api.post(…)).data`, `await got(…).json()`, …) with the V2
 * value, and only when every use of the response is one of those forms.
 */
export interface Consumer {
  /**
   * Replaces the V1 response with the V2 value; `reads` maps the code's uses of it (the variable that holds it,
   * or the value itself where it is used directly) and returns those V2 has no known equivalent for.
   */
  apply(value: N, reads?: ReadMapper): UnknownRead[];
}

/** One use of the V2 value: a reference to the variable that holds it, or the value itself. */
export interface ValueUse {
  node: N;
  links: Links;
}

/** How one endpoint's V1 response reads map to its V2 value; returns the uses left as they are. */
export type ReadMapper = (uses: ValueUse[], value: N) => UnknownRead[];

/**
 * Thrown by a read mapper when the code uses the V1 answer in a way its V2 value cannot stand in for (another
 * shape, a field V2 does not have): the call stays on V1 as it was, marked with `reason`.
 */
export class LeftOnV1 extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'LeftOnV1';
  }
}

export interface UnknownRead {
  node: N;
  field: string;
  reason: string;
}

/** V1 fields of an order whose V2 name is known: the conversion tables' fields, and the order's reference. */
const KNOWN_FIELDS = new Set<string>([...V1_ORDER_FIELDS, ...V1_ADDRESS_FIELDS, ...V1_ORDERLINE_FIELDS]);
const RESPONSE_RENAMES: Record<string, string> = {
  // V1 answered with its `<store_code>-<number>` code; the V2 order's own reference is `reference` (Order_…).
  order_reference: 'reference',
};

type Links = Map<N, Link>;

/** References to a name inside `scope` (not property keys, not the declaration itself). */
export function refsOf(scope: N, name: string, decl: N): ValueUse[] {
  const { nodes, links } = indexTree(scope);
  return nodes
    .filter((n) => isIdent(n, name) && n !== decl)
    .filter((n) => {
      const l = links.get(n);
      if (!l) return false;
      if (l.parent.type === 'MemberExpression' && l.key === 'property' && !l.parent.computed) return false;
      if (
        (l.parent.type === 'ObjectProperty' || l.parent.type === 'Property') &&
        l.key === 'key' &&
        !l.parent.computed
      )
        return false;
      return true;
    })
    .map((node) => ({ node, links }));
}

const isThrowOnly = (s: N) =>
  s.type === 'ThrowStatement' ||
  (s.type === 'BlockStatement' && s.body.length === 1 && s.body[0].type === 'ThrowStatement');

/** The V2 client throws on every failure, so `if (!res.ok) throw …` has nothing left to check. */
function okGuard(ref: N, links: Links): N | undefined {
  const m = links.get(ref)?.parent;
  if (m?.type !== 'MemberExpression' || propName(m) !== 'ok') return undefined;
  const not = links.get(m)?.parent;
  const stmt = not?.type === 'UnaryExpression' && not.operator === '!' ? links.get(not)?.parent : undefined;
  if (stmt?.type === 'IfStatement' && stmt.test === not && !stmt.alternate && isThrowOnly(stmt.consequent))
    return stmt;
  return undefined;
}

/** `v.json()` awaited (fetch) or `v.data` (axios): the expression to replace with `v`. */
function jsonRead(ref: N, links: Links, lib: HttpLib): N | undefined {
  const m = links.get(ref)?.parent;
  if (m?.type !== 'MemberExpression' || m.object !== ref) return undefined;
  if (lib === 'axios') return propName(m) === 'data' ? m : undefined;
  const call = links.get(m)?.parent;
  const w = call?.type === 'CallExpression' && call.callee === m ? links.get(call)?.parent : undefined;
  return lib === 'fetch' && propName(m) === 'json' && w?.type === 'AwaitExpression' ? w : undefined;
}

/** `const res = await call`: every use of `res` must read the JSON (or be the `ok` guard). */
function viaVariable(decl: N, lib: HttpLib, links: Links): Consumer | string {
  const scope = functionOf(links, decl) ?? programOf(links, decl);
  const name = decl.id.name;
  const reads: Array<[N, Links]> = [];
  const guards: Array<[N, Links]> = [];
  const refs = refsOf(scope, name, decl.id);
  for (const { node, links: l } of refs) {
    const guard = lib === 'fetch' ? okGuard(node, l) : undefined;
    if (guard) guards.push([guard, l]);
  }
  // What the guard's own `throw` reads of the response goes away with it.
  const inGuard = (n: N, l: Links) => {
    for (let cur = l.get(n)?.parent; cur; cur = l.get(cur)?.parent)
      if (guards.some(([g]) => g === cur)) return true;
    return false;
  };
  for (const { node, links: l } of refs) {
    if (inGuard(node, l) || guards.some(([g]) => g.test.argument.object === node)) continue;
    const read = jsonRead(node, l, lib);
    if (read) reads.push([read, l]);
    else return `it uses the V1 response object \`${name}\` beyond its JSON body`;
  }
  return {
    apply(value, mapper = orderReads('read')) {
      for (const [g, l] of guards) removeStatement(l, g);
      const only = reads.length === 1 ? reads[0]! : undefined;
      const outer = only ? outerCast(only[0], only[1]) : undefined;
      const into = outer ? only![1].get(outer) : undefined;
      const declStmt = links.get(decl)?.parent;
      if (
        only &&
        into?.key === 'init' &&
        into.parent.type === 'VariableDeclarator' &&
        declStmt?.declarations?.length === 1
      ) {
        // `const res = await fetch(…); const data = await res.json();` → `const data = <V2 value>;`
        removeStatement(links, declStmt);
        replaceNode(only[1], outer, value);
        return settle(value, only[1], mapper);
      }
      decl.init = value;
      decl.id.typeAnnotation = null;
      const unknown: UnknownRead[] = [];
      for (const [read, l] of reads) {
        const ident = { type: 'Identifier', name };
        const stmt = l.get(read)?.parent;
        // `await res.json();` read only to wait for it: the V2 call already waited.
        if (stmt?.type === 'ExpressionStatement' && removeStatement(l, stmt)) continue;
        replaceNode(l, read, ident);
        unknown.push(...settle(ident, l, mapper, false));
      }
      return [...unknown, ...mapper(refsOf(scope, name, decl.id), value)];
    },
  };
}

function programOf(links: Links, node: N): N {
  let cur = node;
  while (links.get(cur)) cur = links.get(cur)!.parent;
  return cur;
}

/** Which V2 answer stands for the V1 order answer: a read order (`{ order }`) or a created one (`{ order: { reference } }`). */
export type OrderAnswer = 'read' | 'create';

/**
 * Reads of the V1 order answer become reads of the V2 order. The reference documents `reference`, `status` (an
 * object) and the shipment references of a read order, and only `reference` of a created one: `reference` (V1
 * `order_reference`) is proven. Any other use — a read order's `status` (V1's a string, V2's an object whose
 * fields are not shown: no use of it carries over), a field the V2 answer does not document, the answer used whole
 * (returned, passed on, spread, a `...rest`) or read by a computed name — would read undefined, an object or V1
 * fields of the V2 order: the mapper throws
 * `LeftOnV1` before it changes anything, and the call stays on V1, marked with what V2 has instead.
 */
export const orderReads =
  (answer: OrderAnswer): ReadMapper =>
  (uses) => {
    const edits: Array<() => UnknownRead | undefined> = [];
    for (const { node, links } of uses) {
      const l = links.get(node);
      const m = l?.parent;
      if (/^(Optional)?MemberExpression$/.test(m?.type ?? '') && m.object === node) {
        const field = propName(m);
        if (field === undefined) throw new LeftOnV1(`${COMPUTED_NOTE} ${byHand(answer)}`);
        const read = orderField(field, answer);
        edits.push(() => {
          if (read.v2 !== field) {
            m.property = { type: 'Identifier', name: read.v2 };
            m.computed = false;
          }
          return read.reason ? { node: m, field, reason: read.reason } : undefined;
        });
      } else if (m?.type === 'VariableDeclarator' && l?.key === 'init' && m.id.type === 'ObjectPattern') {
        edits.push(...destructuredReads(m.id, answer));
      } else if (m?.type !== 'ExpressionStatement' && !(m && isTestOf(m, l?.key)))
        throw new LeftOnV1(`${WHOLE_NOTE} ${byHand(answer)}`);
    }
    // Every use maps: only now is the tree changed.
    return edits.flatMap((edit) => edit() ?? []);
  };

/** A read of the answer that only tests whether there is one (`if (!data)`, `data ? … : …`). */
const isTestOf = (parent: N, key: string | undefined) =>
  (parent.type === 'UnaryExpression' && (parent.operator === '!' || parent.operator === 'typeof')) ||
  (/^(IfStatement|ConditionalExpression|WhileStatement)$/.test(parent.type) && key === 'test') ||
  (parent.type === 'LogicalExpression' && key === 'left');

/** `{ order_reference, status } = <order>`: each key read as a field (renamed where V2's is known). */
function destructuredReads(pattern: N, answer: OrderAnswer): Array<() => UnknownRead | undefined> {
  const out: Array<() => UnknownRead | undefined> = [];
  for (const p of pattern.properties) {
    if (p.type === 'RestElement')
      throw new LeftOnV1(
        `it keeps the rest of the V1 order answer (\`...${keyText(p.argument)}\`): ${WHOLE_FIELDS} ${byHand(answer)}`,
      );
    const field = propName(p);
    if (field === undefined) throw new LeftOnV1(`${COMPUTED_NOTE} ${byHand(answer)}`);
    const read = orderField(field, answer);
    out.push(() => {
      if (read.v2 !== field) {
        // The local name stays: `{ order_reference }` → `{ reference: order_reference }`.
        p.shorthand = false;
        p.computed = false;
        p.key = { type: 'Identifier', name: read.v2 };
      }
      return read.reason ? { node: p, field, reason: read.reason } : undefined;
    });
  }
  return out;
}

/**
 * The V2 name of a V1 order field, and why its read is marked (undefined when it is proven); throws `LeftOnV1`
 * for a field the V2 answer does not document.
 */
function orderField(field: string, answer: OrderAnswer): { v2: string; reason?: string } {
  if (field === 'reference') return { v2: field };
  const renamed = RESPONSE_RENAMES[field];
  if (renamed) return { v2: renamed };
  if (field === 'status' && answer === 'read') throw new LeftOnV1(`${STATUS_NOTE} ${byHand(answer)}`);
  const v2 = KNOWN_FIELDS.has(field) ? v2FieldName(field) : undefined;
  const named = v2 && v2 !== field ? `\`${field}\` (V2: \`${v2}\`)` : `\`${field}\``;
  throw new LeftOnV1(
    answer === 'create'
      ? `it reads ${named} of the V1 order answer; ${CREATE_ANSWER}`
      : `it reads ${named} of the V1 order answer, which a V2 order read does not document (tracking is on GET /shipments/{shipmentReference}). ${byHand(answer)}`,
  );
}

/** A short text for a computed key or a rest element's name. */
const keyText = (n: N): string =>
  n?.type === 'Identifier' ? n.name : n?.type === 'StringLiteral' ? `'${n.value}'` : '…';

const CREATE_ANSWER =
  "V2's POST /orders answers { order: { reference } } only (reference for order_reference): read the created order with GET /orders/{orderReference} for anything else.";
/** What to do instead, said with each reason an order call is left on V1. */
const byHand = (answer: OrderAnswer) =>
  answer === 'create'
    ? CREATE_ANSWER
    : 'V2 answers GET /orders/{orderReference} with { order }: reference for order_reference, status as an object (its fields not shown), and shipment references; move this code to those by hand.';
const WHOLE_FIELDS =
  'the V2 order has lowerCamelCase fields, `reference` for `order_reference` and `status` as an object, so whatever reads it would read undefined.';
const WHOLE_NOTE = `it uses the V1 order answer as a whole (returned, passed on, spread): ${WHOLE_FIELDS}`;
const COMPUTED_NOTE = `it reads a field of the V1 order answer by a computed name: ${WHOLE_FIELDS}`;

const STATUS_NOTE =
  "it reads `status` of the V1 order answer, a string such as 'shipped'; in V2 an order's status is an object whose fields the reference does not show, so a comparison, a switch, a string method or whatever it is passed to would get an object.";

/**
 * A replaced expression that initialises a variable: the variable holds the V2 value now, and its uses are
 * mapped; any other place the value is used in (a field read of it, a return) is mapped as it is.
 */
function settle(target: N, links: Links, mapper: ReadMapper, direct = true): UnknownRead[] {
  const l = links.get(target);
  if (l?.parent.type === 'VariableDeclarator' && l.key === 'init' && l.parent.id.type === 'Identifier') {
    l.parent.id.typeAnnotation = null;
    const scope = functionOf(links, l.parent) ?? programOf(links, l.parent);
    return mapper(refsOf(scope, l.parent.id.name, l.parent.id), target);
  }
  if (!direct || l?.parent.type === 'ExpressionStatement') return [];
  return mapper([{ node: target, links }], target);
}

/** A cast to the V1 response type (`(await res.json()) as V1Order`) goes with it: the V2 value is typed. */
function outerCast(target: N, links: Links): N {
  let cur = target;
  for (
    let up = links.get(cur)?.parent;
    up && /^(TSAsExpression|TSTypeAssertion|TSSatisfiesExpression|ParenthesizedExpression)$/.test(up.type);
    up = links.get(cur)?.parent
  )
    cur = up;
  return cur;
}

function replacing(target: N, links: Links): Consumer {
  return {
    apply(value, mapper = orderReads('read')) {
      const outer = outerCast(target, links);
      replaceNode(links, outer, value);
      return settle(value, links, mapper);
    },
  };
}

/** `x.then((r) => r.json())` / `.then((r) => r.data)`: the expression that yields the JSON. */
function thenJson(member: N, lib: HttpLib, links: Links): N | undefined {
  const call = links.get(member)?.parent;
  const fn = call?.arguments?.[0];
  if (propName(member) !== 'then' || call?.arguments.length !== 1 || fn?.type !== 'ArrowFunctionExpression')
    return undefined;
  const p = fn.params[0];
  const body = bare(fn.body);
  if (!isIdent(p) || body.type === 'BlockStatement') return undefined;
  const ok =
    lib === 'axios'
      ? body.type === 'MemberExpression' && isIdent(body.object, p.name) && propName(body) === 'data'
      : body.type === 'CallExpression' &&
        body.callee.type === 'MemberExpression' &&
        isIdent(body.callee.object, p.name) &&
        propName(body.callee) === 'json';
  const w = links.get(call)?.parent;
  return ok && w?.type === 'AwaitExpression' ? w : undefined;
}

export function consumerOf(call: N, lib: HttpLib | 'wrapper', links: Links): Consumer | string {
  const a = links.get(call)?.parent;
  if (lib === 'wrapper') return wrapperConsumer(call, a, links);
  if (a?.type === 'MemberExpression' && a.object === call) {
    const then = thenJson(a, lib, links);
    if (then) return replacing(then, links);
    const c = links.get(a)?.parent;
    const w = c?.type === 'CallExpression' && c.callee === a ? links.get(c)?.parent : undefined;
    if ((lib === 'got' || lib === 'ky') && propName(a) === 'json' && w?.type === 'AwaitExpression')
      return replacing(w, links);
    return 'its response is read in a way this tool does not follow';
  }
  if (a?.type !== 'AwaitExpression') return 'it is not awaited (a promise chain or a returned response)';
  const g = links.get(a)?.parent;
  if (g?.type === 'ExpressionStatement') return replacing(a, links);
  if (g?.type === 'MemberExpression' && g.object === a) {
    if (lib === 'axios' && propName(g) === 'data') return replacing(g, links);
    const c = links.get(g)?.parent;
    const w = c?.type === 'CallExpression' && c.callee === g ? links.get(c)?.parent : undefined;
    if (lib === 'fetch' && propName(g) === 'json' && w?.type === 'AwaitExpression')
      return replacing(w, links);
    return 'its response is read in a way this tool does not follow';
  }
  if (g?.type === 'VariableDeclarator' && g.init === a) {
    if (g.id.type === 'Identifier') return viaVariable(g, lib, links);
    if (g.id.type === 'ObjectPattern' && lib === 'axios') return destructured(g, links);
  }
  return 'its response is used in a way this tool does not follow';
}

/** `const { data } = await api.post(…)` (or `{ data: order }`). */
function destructured(decl: N, links: Links): Consumer | string {
  const props = decl.id.properties;
  if (props.length !== 1 || propName(props[0]) !== 'data' || !isIdent(props[0].value))
    return 'it reads more than `data` of the response';
  const name = props[0].value.name;
  return {
    apply(value, mapper = orderReads('read')) {
      decl.id = { type: 'Identifier', name };
      decl.init = value;
      const scope = functionOf(links, decl) ?? programOf(links, decl);
      return mapper(refsOf(scope, name, decl.id), value);
    },
  };
}

/** A fetch wrapper's call yields the JSON body: `await request(…)`, or `return request(…)` in an async function. */
function wrapperConsumer(call: N, a: N, links: Links): Consumer | string {
  if (a?.type === 'AwaitExpression') return replacing(a, links);
  const fn = functionOf(links, call);
  const returned =
    a?.type === 'ReturnStatement' || (a?.type === 'ArrowFunctionExpression' && a.body === call);
  if (returned && fn?.async) return replacing(call, links);
  return 'it is not awaited (a promise chain or a returned promise outside an async function)';
}
