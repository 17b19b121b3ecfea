import {
  bare,
  indexTree,
  isIdent,
  isLiteralFallback,
  isMemberProperty,
  isString,
  type Link,
  memberPath,
  type N,
  propName,
} from './ast.ts';
import { widenJsdoc } from './jsdoc.ts';
import { parseStatementsCode } from './parse.ts';
import type { FileProject } from './project-imports.ts';
import { type Bindings, binds, VarScopes } from './values.ts';

/**
 * The legacy order-updated callback keeps its query parameters for V2 orders: `order_reference` stays the
 * V1 code `<store_code>-<number>`, and `order_reference_v2` carries the `Order_…` reference V2 calls take.
 * A handler that reads `order_reference` from the request's query reads `order_reference_v2` instead.
 */
const V1_PARAM = 'order_reference';
const V2_PARAM = 'order_reference_v2';
/** The callback's parameter that carries the `Order_` reference. */
export const CALLBACK_ORDER_REFERENCE = V2_PARAM;

/** `req.query`, `request.query`, `ctx.query`, a `query` object (cast or not). */
export const isQueryObject = (n: N): boolean => {
  const p = memberPath(bare(n));
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
  return getsSearchParam(b, V2_PARAM);
}

/** `searchParams.get('<param>')` of the request's query. */
const getsSearchParam = (n: N, param: string): boolean =>
  n.type === 'CallExpression' &&
  n.callee.type === 'MemberExpression' &&
  propName(n.callee) === 'get' &&
  isSearchParams(n.callee.object) &&
  isString(n.arguments[0]) &&
  n.arguments[0].value === param;

/** Why a callback read of `order_reference` is left as it is. */
export const CALLBACK_V1_CODE =
  'read order_reference_v2 (the Order_ reference V2 calls take: GET /orders/{orderReference}) where this value goes to a V2 call; order_reference stays the V1 order code (<store_code>-<number>), of V2 orders too, and this value is used otherwise (logged, stored, compared, passed on, sent to a V1 call): keep it where the V1 code is meant.';

/**
 * Where `n` reads the callback's V1 `order_reference` from the query (a member, `searchParams.get`, a destructured
 * property): what turns it into a read of `order_reference_v2`, and says so. With `param`, where it reads that one.
 */
export function callbackRead(n: N, links: Map<N, Link>, param = V1_PARAM): (() => string) | undefined {
  if (n.type === 'MemberExpression' && propName(n) === param && isQueryObject(n.object))
    return () => {
      n.property = n.computed
        ? { type: 'StringLiteral', value: V2_PARAM }
        : { type: 'Identifier', name: V2_PARAM };
      return `${memberPath(n.object)}.${V1_PARAM} → ${V2_PARAM}`;
    };
  if (getsSearchParam(n, param))
    return () => {
      n.arguments[0] = { type: 'StringLiteral', value: V2_PARAM };
      return `searchParams.get('${V1_PARAM}') → '${V2_PARAM}'`;
    };
  const decl = links.get(links.get(n)?.parent)?.parent;
  if (
    n.type === 'ObjectProperty' &&
    propName(n) === param &&
    decl?.type === 'VariableDeclarator' &&
    decl.init &&
    isQueryObject(bare(decl.init))
  )
    return () => {
      // The local name stays (with its default, if any); only the parameter read changes.
      n.key = { type: 'Identifier', name: V2_PARAM };
      n.shorthand = false;
      if (n.extra) n.extra = { ...n.extra, shorthand: false };
      return `{ ${V1_PARAM} } of the query → ${V2_PARAM}`;
    };
  return undefined;
}

/** `x ?? ''` or `x || 'unknown'` (`null`, `undefined`): x, a read whose fallback stays on the switched read. */
const fallbackOf = (n: N): N | undefined =>
  n?.type === 'LogicalExpression' && /^(\?\?|\|\|)$/.test(n.operator) && isLiteralFallback(n.right)
    ? n.left
    : undefined;

/** The value of `id` through constants, and through a fallback written out (`x ?? ''`: x's). */
export const resolveRead = (id: N, b: Bindings): N => {
  const v = b.resolve(id);
  const read = fallbackOf(v);
  return read ? b.resolve(read) : v;
};

/**
 * Where the value of a callback read is used: the read itself, or every use of the `const` it is bound to (each
 * identifier of its name that this binding is, by scope: a `const` of the same name in another function is
 * another's); undefined where that is not known (a `let`, a default, a name whose scope is not followed).
 */
export function usesOf(read: N, nodes: N[], links: Map<N, Link>, b: Bindings): N[] | undefined {
  let top = read;
  for (let p = links.get(top)?.parent; ; p = links.get(top)?.parent)
    if (/^(TS\w*Expression|TSTypeAssertion|ParenthesizedExpression)$/.test(p?.type) || fallbackOf(p) === top)
      top = p;
    else break;
  const l = links.get(top);
  let binding: N;
  let declarator: N;
  if (read.type === 'ObjectProperty') {
    binding = read.value.left ?? read.value;
    declarator = links.get(links.get(read)?.parent)?.parent;
    if (!isIdent(binding) || b.pickedAt(binding)?.property !== read) return undefined;
  } else if (l?.parent.type === 'VariableDeclarator' && l.key === 'init') {
    binding = l.parent.id;
    declarator = l.parent;
    if (!isIdent(binding) || b.constAt(binding) !== declarator) return undefined;
  } else return [top];
  const named = nodes.filter((n) => {
    const at = links.get(n);
    return (
      isIdent(n, binding.name) &&
      n !== binding &&
      !isMemberProperty(at) &&
      !(at?.key === 'key' && /Property/.test(at.parent.type) && !at.parent.computed)
    );
  });
  const at = named.map((n) => b.declaratorAt(n));
  return at.includes(undefined) ? undefined : named.filter((_, i) => at[i] === declarator);
}

/**
 * Whether `use` is the `Order_` reference a V2 order call takes: the argument of the V1 adapter's
 * `orderReference(…)` (`adapters`: how the file names its adapters), or a path's `orderReference`.
 */
export function takesOrderReference(use: N, links: Map<N, Link>, adapters: Set<string>): boolean {
  const l = links.get(use);
  const p = l?.parent;
  if (p?.type === 'CallExpression' && l!.key === 'arguments' && p.arguments.length === 1)
    return (
      p.callee.type === 'MemberExpression' &&
      propName(p.callee) === 'orderReference' &&
      adapters.has(memberPath(p.callee.object) ?? '')
    );
  const path = links.get(links.get(p)?.parent)?.parent;
  return l?.key === 'value' && propName(p) === 'orderReference' && propName(path) === 'path';
}

/**
 * The callback read of `order_reference` (the V1 code) the value of `id` is, directly or through `const`s and a
 * `const` destructuring of the query: the V1 GET /orders/{reference} it goes to names the order the callback's
 * `order_reference_v2` names (the reference: V1 fetches using order_reference, V2 using order_reference_v2).
 */
export function callbackCodeRead(id: N, b: Bindings, links: Map<N, Link>): N | undefined {
  const v = resolveRead(id, b);
  if (v.type !== 'Identifier') return callbackRead(v, links) && v;
  const p = b.pickedAt(v);
  return p && callbackRead(p.property, links) && p.property;
}

/**
 * Code reading `order_reference_v2` from the query object `read` reads `order_reference` from, written at `at`:
 * undefined where that object's name may be another binding there (declared between them, or assigned).
 */
export function v2ReadAt(
  read: N,
  at: N,
  nodes: N[],
  links: Map<N, Link>,
  source: string,
): string | undefined {
  const q = queryOf(read, links);
  let root = bare(q);
  while (root.type === 'MemberExpression') root = root.object;
  // A `var` binds in its whole function: one of a function between, from any block of it, is another binding.
  const vars = new VarScopes(nodes, links);
  if (
    !isIdent(root) ||
    !vars.certain(root.name) ||
    nodes.some((n) => /Assign|Update/.test(n.type) && isIdent(n.left ?? n.argument, root.name))
  )
    return undefined;
  const up = (n: N) => {
    const out: N[] = [];
    for (let c = links.get(n)?.parent; c; c = links.get(c)?.parent) out.push(c);
    return out;
  };
  const fromRead = up(read);
  const fromAt = up(at);
  const common = fromAt.find((c) => fromRead.includes(c));
  const between = [
    ...fromAt.slice(0, fromAt.indexOf(common)),
    ...fromRead.slice(0, fromRead.indexOf(common)),
  ];
  if (between.some((n) => binds(n, root.name, vars))) return undefined;
  const p = links.get(read)?.parent;
  // A destructuring default (`{ order_reference: ref = '' }`) as `?? ''`: what a missing parameter reads as.
  const d = read.value?.type === 'AssignmentPattern' ? read.value.right : undefined;
  const or =
    fallbackOf(p) === read
      ? ` ${p.operator} ${source.slice(p.right.start, p.right.end)}`
      : d
        ? ` ?? ${source.slice(d.start, d.end)}`
        : '';
  if (read.type === 'CallExpression') return `${memberPath(q)}.get('${V2_PARAM}')${or}`;
  return `${q === bare(q) ? memberPath(q) : `(${source.slice(q.start, q.end)})`}.${V2_PARAM}${or}`;
}

/** The query object a callback read reads from. */
const queryOf = (read: N, links: Map<N, Link>): N =>
  read.type === 'ObjectProperty'
    ? links.get(links.get(read)!.parent)!.parent.init
    : read.type === 'CallExpression'
      ? read.callee.object
      : read.object;

/**
 * Adds `order_reference_v2` beside `order_reference` (its type copied) in each object type the file writes for the
 * query `read` reads it from: on the binding the query is read through (`req: { query: … }`, Express's
 * `Request<…, …, …, { order_reference: string }>`), in a cast, or in an interface or type alias of the file they
 * name that types nothing else (one that does is for a TODO). The callback always sends both, and the switched read then type-checks where the read did. Where none has
 * that key, a type they name that the file imports from a module of the project (`./types`, a path alias, a
 * namespace's `T.Query`; not the package type of the request itself), which may lack `order_reference_v2`, or in
 * JavaScript (`js`) a JSDoc type of the file naming `order_reference`: for a TODO.
 */
export function widenQueryType(
  read: N,
  nodes: N[],
  links: Map<N, Link>,
  source: string,
  js = false,
  project?: FileProject,
): string | undefined {
  // Each type with whether it is the query's own (not the request's, of which only the `query` member is).
  const types: Array<[N, boolean]> = [];
  let typed = false;
  let imported: string | undefined;
  // The type the request object itself is written with (Express's `Request`): a package's one takes any key.
  const outer = new Set<N>();
  let query = true;
  const push = (t: N) => {
    types.push([t, query]);
    if (!query) outer.add(t);
  };
  let e = queryOf(read, links);
  for (let i = 0; e && i < 20; i++) {
    if (e.typeAnnotation && /^TS(As|Satisfies)Expression$|^TSTypeAssertion$/.test(e.type))
      push(e.typeAnnotation);
    if (e.type === 'MemberExpression') {
      e = e.object;
      query = false;
    } else if (e.expression) e = e.expression;
    else if (e.type === 'Identifier') {
      const id = bindingOf(e, links);
      if (id?.typeAnnotation) push(id.typeAnnotation.typeAnnotation);
      e = id && !id.typeAnnotation ? links.get(id)?.parent.init : undefined;
    } else break;
  }
  const seen = new Map<N, boolean>();
  while (types.length) {
    const [t, own] = types.pop()!;
    if (seen.get(t) === true || seen.get(t) === own) continue;
    seen.set(t, own);
    /**
     * Whether a type node of `t` is the query's: `t` where it is, the type of a `query` member (Fastify's
     * `Querystring`) or Express's `Request<…, …, …, Query>` (not another object of the request: its `body`).
     */
    const isQuery = (x: N): boolean => {
      let l = links.get(x);
      while (
        x !== t &&
        /^TS(TypeAnnotation|UnionType|IntersectionType|ParenthesizedType)$/.test(l?.parent.type)
      ) {
        x = l!.parent;
        l = links.get(x);
      }
      return x === t
        ? own
        : (l?.parent.type === 'TSPropertySignature' &&
            /^(query|Querystring)$/.test(propName(l.parent) ?? '')) ||
            (l?.parent.type === 'TSTypeParameterInstantiation' && l.index === 3);
    };
    for (const n of indexTree(t).nodes) {
      // `CallbackQuery`, or `T.CallbackQuery` of a namespace import.
      const ref = n.type === 'TSTypeReference' ? n.typeName : undefined;
      const named = isIdent(ref)
        ? ref.name
        : isIdent(ref?.left)
          ? `${ref.left.name}.${ref.right.name}`
          : undefined;
      const q = named !== undefined && isQuery(n);
      for (const d of named ? nodes : [])
        if (/^TS(Interface|TypeAlias)Declaration$/.test(d.type) && isIdent(d.id, named)) {
          // Widened, it would require order_reference_v2 of the other values it types (exported, or named again).
          if (
            q &&
            (links.get(d)?.parent.type === 'ExportNamedDeclaration' ||
              nodes.some((x) => isIdent(x, named) && x !== d.id && x !== ref && !readQueryType(x, links)))
          )
            imported ??= `\`${named}\` of this file, which types other values too`;
          else types.push([d.body ?? d.typeAnnotation, q]);
        }
        // A module of the project: relative, or a path alias by the project's config (`@app/types`, tsconfig
        // `paths`). Without a config any import may be an alias: all but the package type of the request itself.
        else if (
          d.type === 'ImportDeclaration' &&
          (/^\./.test(d.source.value) || (project?.imports ? project.imports(d.source.value) : !outer.has(n)))
        )
          for (const sp of d.specifiers)
            if (sp.local.name === named!.split('.')[0]) imported ??= `\`${named}\` of ${d.source.value}`;
      const members: N[] | undefined =
        n.type === 'TSTypeLiteral' ? n.members : n.type === 'TSInterfaceBody' ? n.body : undefined;
      const v1 =
        (n === t ? own : isQuery(n)) &&
        members?.find((m) => m.type === 'TSPropertySignature' && propName(m) === V1_PARAM);
      typed ||= !!v1;
      if (!v1 || members!.some((m) => propName(m) === V2_PARAM)) continue;
      const type = v1.typeAnnotation?.typeAnnotation;
      const member = `${V2_PARAM}${v1.optional ? '?' : ''}${type ? `: ${source.slice(type.start, type.end)}` : ''}`;
      const l = links.get(n);
      // A type written on one line stays on one (recast would print the literal it changes over several).
      if (l && n.type === 'TSTypeLiteral' && n.loc?.start.line === n.loc?.end.line) {
        const sep = source[v1.end - 1]!;
        const text = `${source.slice(n.start, v1.end)}${/[;,]/.test(sep) ? ` ${member}${sep}` : `; ${member}`}${source.slice(v1.end, n.end)}`;
        const [alias] = parseStatementsCode(`type T = ${text};`, 'x.ts') as N[];
        if (l.index === undefined) l.parent[l.key] = alias!.typeAnnotation;
        else l.parent[l.key][l.index] = alias!.typeAnnotation;
      } else {
        const [alias] = parseStatementsCode(`type T = { ${member} };`, 'x.ts') as N[];
        members!.splice(members!.indexOf(v1) + 1, 0, alias!.typeAnnotation.members[0]);
      }
    }
  }
  // JavaScript checked by its JSDoc types (`@param {{ order_reference: string }} query`, `@type`, `@typedef`).
  if (js) {
    const doc = widenJsdoc(
      queryOf(read, links),
      nodes,
      links,
      source,
      (fn) => readsCallbackParams(fn, links),
      (id) => bindingOf(id, links),
      project,
    );
    typed ||= doc.typed;
    if (doc.marked) imported ??= doc.marked;
  }
  // One this tool does not follow (a type written over several lines of the comment, a tag it does not read).
  const jsdoc = (c: N) =>
    /^\*.*@(param|type|typedef|property)\b.*\border_reference\b/s.test(c.value) &&
    !c.value.includes(V2_PARAM);
  if (!typed && js && nodes.some((n) => n.comments?.some(jsdoc)))
    imported ??= 'a JSDoc type of this file that names order_reference (`@param`, `@type`, `@typedef`)';
  return typed ? undefined : imported;
}

/**
 * Whether the identifier `x` names the type of a query a function of the file reads the callback's
 * `order_reference` (or `order_reference_v2`) of: `req: { query: Query }`, Express's `Request<…, …, …, Query>`,
 * Fastify's `Querystring: Query`, `req.query as Query`; the callback sends both parameters to such a query.
 */
function readQueryType(x: N, links: Map<N, Link>): boolean {
  let l = links.get(x);
  if (l?.key !== 'typeName' || l.parent.type !== 'TSTypeReference') return false;
  l = links.get(l.parent);
  while (/^TS(TypeAnnotation|UnionType|IntersectionType|ParenthesizedType)$/.test(l?.parent.type))
    l = links.get(l!.parent);
  const p = l?.parent;
  const query =
    (p?.type === 'TSPropertySignature' && /^(query|Querystring)$/.test(propName(p) ?? '')) ||
    (p?.type === 'TSTypeParameterInstantiation' && l!.index === 3) ||
    (/^TS(As|Satisfies)Expression$|^TSTypeAssertion$/.test(p?.type) && isQueryObject(p.expression));
  let fn = p;
  while (fn && !(Array.isArray(fn.params) && fn.body)) fn = links.get(fn)?.parent;
  return query && !!fn && readsCallbackParams(fn, links);
}

/** Whether the function `fn` reads the callback's `order_reference` or `order_reference_v2` from a query. */
const readsCallbackParams = (fn: N, links: Map<N, Link>): boolean =>
  indexTree(fn).nodes.some((n) => callbackRead(n, links) || callbackRead(n, links, V2_PARAM));

/** The parameter or `const`/`let` declarator binding the identifier `id` where it is read (nearest scope first). */
function bindingOf(id: N, links: Map<N, Link>): N | undefined {
  for (let c = links.get(id)?.parent; c; c = links.get(c)?.parent) {
    const p = c.params?.find((p: N) => isIdent(p.left ?? p, id.name));
    if (p) return p.left ?? p;
    for (const s of Array.isArray(c.body) ? c.body : [])
      for (const d of s.type === 'VariableDeclaration' ? s.declarations : [])
        if (isIdent(d.id, id.name)) return d.id;
  }
  return undefined;
}
