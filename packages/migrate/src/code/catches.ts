import {
  bare,
  indexTree,
  isIdent,
  isMemberProperty,
  isString,
  type Link,
  memberPath,
  type N,
  namedFunction,
  objectProps,
  propName,
  within,
} from './ast.ts';

/** The key of an export (`@setup:api`) or of axios itself (`@setup:axios`, `@setup:axios.defaults`) set up elsewhere. */
export const SETUP_KEY = '@setup:';

/** Reads of an error that say the same of a V2 error (a log line's text). */
const PLAIN_READS = new Set(['message', 'stack']);
const FUNCTION = /Function|ObjectMethod|ClassMethod|ClassPrivateMethod/;
export const HTTP_VERBS = /^(get|post|put|patch|delete|head|request|fetch)$/;
/** How many callers up a catch is looked for (a helper called by a route handler, say). */
const CALLER_DEPTH = 3;

/**
 * Why a V1 call cannot be rewritten where it is: what it throws reaches a `catch` that reads what the V1 HTTP
 * library threw (`e.response.status`, `axios.isAxiosError(e)`, `e instanceof HTTPError`): a `try` around it in its
 * function, or around a call of that function (or a `.catch` on one) elsewhere in the file, a few callers up. The
 * V2 client throws a `PartnerPrintError` (`status`, `code`) instead, so such a catch would take another branch. A
 * catch that only logs, passes on or rethrows the error, or reads its message, is no reason.
 */
export function catchProblem(
  call: N,
  links: Map<N, Link>,
  elsewhere?: ReadonlyMap<string, string>,
): string | undefined {
  let root = call;
  while (links.get(root)) root = links.get(root)!.parent;
  // The file's nodes, indexed only when a catch is looked for in the callers.
  let nodes: N[] | undefined;
  const all = () => {
    nodes ??= indexTree(root).nodes;
    return nodes;
  };
  const where =
    reachingCatch(call, links, all, 0, new Set(), elsewhere) ??
    processCatch(call, links, all, processRead(root, all) ?? elsewhere?.get(PROCESS_KEY));
  return where
    ? `it is ${where}, and the V2 client throws a PartnerPrintError (status, code) instead of the V1 library's error`
    : undefined;
}

/** Where an error thrown at `node` is caught by a catch that reads it, as words; undefined when nowhere. */
function reachingCatch(
  node: N,
  links: Map<N, Link>,
  all: () => N[],
  depth: number,
  seen: Set<N>,
  elsewhere?: ReadonlyMap<string, string>,
): string | undefined {
  let cur = node;
  for (let l = links.get(cur); l; cur = l.parent, l = links.get(cur)) {
    const p = l.parent;
    if (FUNCTION.test(p.type))
      return depth < CALLER_DEPTH ? callersCatch(p, links, all, depth, seen, elsewhere) : undefined;
    // A promise it rejects, caught by a `.catch` on a call it is part of (`Promise.all(…).catch(…)`).
    if (
      cur !== node &&
      cur.type === 'CallExpression' &&
      p.type === 'MemberExpression' &&
      l.key === 'object'
    ) {
      const read = catchHandlerRead(p, links, { all, elsewhere, links });
      if (read) return `inside a call whose ${read}`;
    }
    // A promise kept in a variable (`const pending = f()`) or passed to a function of the file (`to(f())`): where it
    // is awaited, or `.catch`ed, later.
    if (bare(cur).type === 'CallExpression') {
      const held =
        heldPromise(l, all, links, depth, seen, elsewhere) ??
        keptIn(cur, l, all, links, depth, seen, elsewhere);
      if (held) return held;
    }
    // A promise passed to `Promise.allSettled(…)`, whose results are read for `reason.response` (or another field).
    if (
      l.key === 'arguments' &&
      p.type === 'CallExpression' &&
      /allSettled$/.test(memberPath(p.callee) ?? '')
    ) {
      const read = settledRead(all(), links);
      if (read) return `passed to Promise.allSettled, whose results are read for \`${read}\``;
    }
    if (p.type !== 'TryStatement' || l.key !== 'block' || !p.handler?.param) continue;
    const read = errorRead(p.handler.param, p.handler.body, { all, elsewhere, links });
    if (read) return `inside a try whose catch ${read}`;
  }
  return undefined;
}

/** The calls of a named function (or method) in the file, looked at for a try or a `.catch` that reads the error. */
function callersCatch(
  fn: N,
  links: Map<N, Link>,
  all: () => N[],
  depth: number,
  seen: Set<N>,
  elsewhere?: ReadonlyMap<string, string>,
): string | undefined {
  if (seen.has(fn)) return undefined;
  seen.add(fn);
  const named = nameOf(fn, links);
  // An anonymous `export default function (…) {…}` (or arrow): called by a module of the run as its default.
  if (!named)
    return links.get(fn)?.parent.type === 'ExportDefaultDeclaration'
      ? elsewhere?.get('default')
      : callbackCatch(fn, links, all, depth, seen, elsewhere);
  // A method called in a module of the run, where a catch reads the error: on an instance of its class, or on an
  // object that module's code does not show the class of (matched by name).
  const method = named.method ? elsewhere?.get(`#${named.name}`) : undefined;
  if (method) return method;
  // Called by a module of the same run, where a catch reads the error (found before the run rewrote anything).
  if (elsewhere?.size && !named.method)
    for (const exported of exportsOf(all()).get(named.name) ?? []) {
      const where = elsewhere.get(exported);
      if (where) return where;
    }
  // The other names it is called by: a function's aliases (`const find = getOrder.bind(null)`, `find = getOrder`),
  // the objects holding it (`const orders = { find: getOrder }`, `const orders = { async get() {…} }`).
  const { aliases, owners } = aliasesOf(fn, named, links, all());
  for (const c of all()) {
    if (c.type !== 'CallExpression') continue;
    const callee = bare(c.callee);
    // A method is matched by its name (on `this`, or any object when the name is not an HTTP verb's).
    const prop = callee.type === 'MemberExpression' ? propName(callee) : undefined;
    const match = named.method
      ? prop === named.name &&
        (callee.object.type === 'ThisExpression' ||
          !HTTP_VERBS.test(named.name) ||
          owners.some((o) => isIdent(callee.object, o.object)))
      : isIdent(callee, named.name) ||
        aliases.some((a) => isIdent(callee, a)) ||
        owners.some((o) => prop === o.key && isIdent(callee.object, o.object));
    if (!match) continue;
    const up = callCaught(c, memberPath(callee) ?? named.name, links, all, depth + 1, seen, elsewhere);
    if (up) return up;
  }
  if (named.method) return undefined;
  // Passed by name to another call (`refs.map(getOrder)`, `withRetry(getOrder.bind(null, ref))`): called there.
  for (const n of all()) {
    if (!isIdent(n, named.name)) continue;
    let v = n;
    let l = links.get(v);
    const bound = l?.parent;
    if (bound?.type === 'MemberExpression' && l!.key === 'object' && propName(bound) === 'bind') {
      const call = links.get(bound);
      if (call?.key === 'callee') {
        v = call.parent;
        l = links.get(v);
      }
    }
    if (l?.key !== 'arguments' || !/^(Call|New)Expression$/.test(l.parent.type)) continue;
    const up = callbackCatch(v, links, all, depth, seen, elsewhere);
    if (up) return up;
  }
  return callbackified(named.name, all, { all, elsewhere });
}

/**
 * The names a function of the file is also called by: constants and variables it is given to, as it is or bound
 * (`const find = getOrder.bind(null)`, `find = getOrder`), and the objects of the file holding it (`const orders =
 * { find: getOrder }`, or its method: `const orders = { async get() {…} }`) with its key there.
 */
function aliasesOf(
  fn: N,
  named: { name: string; method: boolean },
  links: Map<N, Link>,
  nodes: N[],
): { aliases: string[]; owners: Array<{ object: string; key: string }> } {
  const aliases: string[] = [];
  const owners: Array<{ object: string; key: string }> = [];
  const objectName = (obj: N | undefined) => {
    const l = obj && links.get(obj);
    return obj?.type === 'ObjectExpression' && l?.parent.type === 'VariableDeclarator' && isIdent(l.parent.id)
      ? l.parent.id.name
      : undefined;
  };
  if (named.method) {
    // Its object, when the method is written in an object literal bound to a constant.
    const prop = fn.type === 'ObjectMethod' ? fn : links.get(fn)?.parent;
    const object = objectName(links.get(prop)?.parent);
    if (object && /^Object(Method|Property)$/.test(prop.type)) owners.push({ object, key: named.name });
    return { aliases, owners };
  }
  const isIt = (v: N | undefined) => {
    const b = v && bare(v);
    if (isIdent(b, named.name)) return true;
    const callee = b?.type === 'CallExpression' ? bare(b.callee) : undefined;
    return (
      callee?.type === 'MemberExpression' &&
      propName(callee) === 'bind' &&
      isIdent(bare(callee.object), named.name)
    );
  };
  for (const n of nodes) {
    if (n.type === 'VariableDeclarator' && isIdent(n.id) && isIt(n.init)) aliases.push(n.id.name);
    else if (n.type === 'AssignmentExpression' && n.operator === '=' && isIdent(n.left) && isIt(n.right))
      aliases.push(n.left.name);
    else if (n.type === 'ObjectProperty' && isIt(n.value)) {
      const object = objectName(links.get(n)?.parent);
      const key = propName(n);
      if (object && key !== undefined) owners.push({ object, key });
    }
  }
  return { aliases, owners };
}

/**
 * A function turned into a callback-style one (`const cb = util.callbackify(f)`): the callbacks its calls are
 * given get the error as their first argument (`cb(ref, (err, res) => …)`).
 */
function callbackified(name: string, all: () => N[], ctx: Ctx): string | undefined {
  for (const n of all()) {
    if (n.type !== 'VariableDeclarator' || !isIdent(n.id)) continue;
    const init = bare(n.init ?? {});
    if (
      init.type !== 'CallExpression' ||
      !/callbackify$/.test(memberPath(init.callee) ?? '') ||
      !isIdent(bare(init.arguments[0] ?? {}), name)
    )
      continue;
    for (const c of all()) {
      if (c.type !== 'CallExpression' || !isIdent(bare(c.callee), n.id.name)) continue;
      const cb = bare(c.arguments[c.arguments.length - 1] ?? {});
      const read = FUNCTION.test(cb.type) || isIdent(cb) ? handlerRead(cb, 0, ctx, 0) : undefined;
      if (read) return `called through util.callbackify as \`${n.id.name}\`, whose callback ${read}`;
    }
  }
  return undefined;
}

/**
 * A function passed to a call (`withRetry(async () => …)`, `refs.map(async (ref) => …)`): what it throws reaches
 * the calls of that parameter in the function it is passed to, when the file defines it (a retry helper's try
 * around `fn()`), or a catch another module of the run has around the calls of that parameter (`@param:<name>:<i>`,
 * matched by the function's name); and it rejects the call it is passed to, so a catch around that call too.
 */
function callbackCatch(
  fn: N,
  links: Map<N, Link>,
  all: () => N[],
  depth: number,
  seen: Set<N>,
  elsewhere?: ReadonlyMap<string, string>,
): string | undefined {
  const l = links.get(fn);
  const call = l?.parent;
  // A `new Promise` executor: what it rejects (`f().then(resolve, reject)`), that promise rejects.
  if (l?.key === 'arguments' && call?.type === 'NewExpression' && isIdent(bare(call.callee), 'Promise'))
    return depth < CALLER_DEPTH
      ? callCaught(call, 'new Promise', links, all, depth + 1, seen, elsewhere)
      : undefined;
  if (l?.key !== 'arguments' || l.index === undefined || call?.type !== 'CallExpression') return undefined;
  const route = routeCatch(call, links, { all, elsewhere });
  if (route) return route;
  const callee = bare(call.callee);
  if (isIdent(callee)) {
    const def = definitionOf(callee.name, all());
    const p = def?.params[l.index];
    const param = p?.type === 'AssignmentPattern' ? p.left : p;
    if (def && isIdent(param))
      for (const c of all()) {
        if (c.type !== 'CallExpression' || !isIdent(bare(c.callee), param.name) || !within(c, def, links))
          continue;
        const up = callCaught(c, param.name, links, all, depth + 1, seen, elsewhere);
        if (up) return up;
      }
    else if (!def) {
      const where = elsewhere?.get(`${PARAM_KEY}${callee.name}:${l.index}`);
      if (where) return where;
    }
  }
  return depth < CALLER_DEPTH
    ? callCaught(
        call,
        memberPath(callee) ?? 'the call it is passed to',
        links,
        all,
        depth + 1,
        seen,
        elsewhere,
      )
    : undefined;
}

/**
 * A promise (a call, linked to its parent by `l`) kept in a constant, or passed as a parameter of a function
 * the file defines: a catch reading the error where that name is used (`await pending` in a try, `pending.catch(…)`).
 */
function heldPromise(
  l: Link,
  all: () => N[],
  links: Map<N, Link>,
  depth: number,
  seen: Set<N>,
  elsewhere?: ReadonlyMap<string, string>,
): string | undefined {
  const p = l.parent;
  let name: string | undefined;
  let scope: N | undefined;
  if (p.type === 'VariableDeclarator' && l.key === 'init' && isIdent(p.id)) name = p.id.name;
  else if (p.type === 'CallExpression' && l.key === 'arguments' && isIdent(bare(p.callee))) {
    scope = definitionOf(bare(p.callee).name, all());
    // A helper of another file of the run, or the await-to-js package's `to`.
    if (!scope) return helperElsewhere(bare(p.callee).name, l.index ?? 0, all, elsewhere);
    const param = scope.params[l.index ?? 0];
    const id = param?.type === 'AssignmentPattern' ? param.left : param;
    name = isIdent(id) ? id.name : undefined;
  }
  if (!name || seen.has(p)) return undefined;
  seen.add(p);
  for (const use of all()) {
    if (!isIdent(use, name) || use === p.id || (scope && !within(use, scope, links))) continue;
    const ul = links.get(use);
    if (!ul || isMemberProperty(ul)) continue;
    const up = callCaught(use, name, links, all, depth, seen, elsewhere);
    if (up) return up.replace(/^called as `[^`]*`/, `kept as \`${name}\`,`);
  }
  return undefined;
}

/** The methods an array, a `Map` or a `Set` keeps what it is given with. */
const KEEPS = /^(push|unshift|set|add)$/;
/** The methods that hand an array's entries to a callback, one at a time, as its first parameter. */
const EACH = /^(map|forEach|flatMap|filter|some|every|find)$/;

/**
 * A promise (the call `cur`, linked to its parent by `l`) kept in an object or an array bound to a name (`const jobs
 * = { a: getOrder(x) }`, `[getOrder(a), getOrder(b)]`, `jobs.a = getOrder(x)`, `ps.push(getOrder(a))`,
 * `cache.set(k, getOrder(a))`): a catch reading the error where that name, or an entry of it, is awaited or
 * `.catch`ed (`jobs.a.catch(…)`, `await Promise.all(ps)` in a try, `for (const p of ps)` and `ps.map((p) => …)`
 * over its entries, `cache.get(k)`), anywhere in the file.
 */
function keptIn(
  cur: N,
  l: Link,
  all: () => N[],
  links: Map<N, Link>,
  depth: number,
  seen: Set<N>,
  elsewhere?: ReadonlyMap<string, string>,
): string | undefined {
  let at = cur;
  let al: Link | undefined = l;
  while (
    al &&
    (al.parent.type === 'ArrayExpression' ||
      al.parent.type === 'ObjectExpression' ||
      al.parent.type === 'SpreadElement' ||
      (al.parent.type === 'ObjectProperty' && al.key === 'value'))
  ) {
    at = al.parent;
    al = links.get(at);
  }
  const q = al?.parent;
  let name: string | undefined;
  if (at !== cur) {
    if (q?.type === 'VariableDeclarator' && al!.key === 'init' && isIdent(q.id)) name = q.id.name;
    else if (q?.type === 'AssignmentExpression' && al!.key === 'right' && isIdent(q.left)) name = q.left.name;
  } else if (q?.type === 'CallExpression' && al!.key === 'arguments') {
    const callee = bare(q.callee);
    if (callee.type === 'MemberExpression' && KEEPS.test(propName(callee) ?? '') && isIdent(callee.object))
      name = callee.object.name;
  } else if (q?.type === 'AssignmentExpression' && al!.key === 'right') {
    const left = bare(q.left);
    if (left.type === 'MemberExpression' && isIdent(bare(left.object))) name = bare(left.object).name;
  }
  if (!name || seen.has(at)) return undefined;
  seen.add(at);
  const up = entriesCaught(name, undefined, all, links, depth, seen, elsewhere);
  if (up) return up.replace(/^called as `[^`]*`/, `kept in \`${name}\`,`);
  // The holder exported, and an entry of it caught in another file of the run (`@kept:<export>`).
  for (const as of exportsOf(all()).get(name) ?? []) {
    const there = elsewhere?.get(`${KEPT_KEY}${as}`);
    if (there) return `kept in \`${name}\`, ${there}`;
  }
  return undefined;
}

/** The key of a holder of promises a module exports whose entries another file of the run catches: `@kept:<export>`. */
export const KEPT_KEY = '@kept:';

/**
 * Where a catch of the file reads the error of what an imported holder (`local`: `import { inFlight }`) keeps, as
 * words; undefined when nowhere.
 */
export const importedHolderCaught = (
  local: string,
  nodes: N[],
  links: Map<N, Link>,
  elsewhere?: ReadonlyMap<string, string>,
): string | undefined => entriesCaught(local, undefined, () => nodes, links, 0, new Set(), elsewhere);

/** Where a catch reads the error of what the name (or an entry of it: `jobs.a`, `ps[0]`, `m.get(k)`) holds. */
function entriesCaught(
  name: string,
  scope: N | undefined,
  all: () => N[],
  links: Map<N, Link>,
  depth: number,
  seen: Set<N>,
  elsewhere?: ReadonlyMap<string, string>,
): string | undefined {
  for (const use of all()) {
    const ul = isIdent(use, name) ? links.get(use) : undefined;
    if (!ul || (scope && !within(use, scope, links))) continue;
    if (isMemberProperty(ul)) continue;
    if (/^(ObjectProperty|ObjectMethod|ClassMethod|ClassProperty)$/.test(ul.parent.type) && ul.key === 'key')
      continue;
    if (ul.parent.type === 'VariableDeclarator' && ul.key === 'id') continue;
    // An entry: `jobs.a`, `ps[0]`, `m.get(k)`, `ps.at(-1)`, `Object.values(jobs)`.
    let at = use;
    for (;;) {
      const al = links.get(at);
      const p = al?.parent;
      if (p && /Member/.test(p.type) && al!.key === 'object') {
        const prop = propName(p);
        if (prop !== undefined && /^(then|catch|finally|push|unshift|set|add)$/.test(prop)) break;
        const call = links.get(p);
        if (prop !== undefined && /^(get|at|shift|pop)$/.test(prop) && call?.key === 'callee')
          at = call.parent;
        else if (prop !== undefined && EACH.test(prop)) break;
        else at = p;
      } else if (
        p?.type === 'CallExpression' &&
        al!.key === 'arguments' &&
        /^Object\.(values|entries)$/.test(memberPath(p.callee) ?? '')
      )
        at = p;
      else break;
    }
    const al = links.get(at);
    const p = al?.parent;
    // Its entries, one at a time: `for (const p of ps)`, `ps.map((p) => …)`.
    let each: { id: N; scope: N } | undefined;
    if (p?.type === 'ForOfStatement' && al!.key === 'right' && p.left.type === 'VariableDeclaration') {
      const id = p.left.declarations[0]?.id;
      if (isIdent(id)) each = { id, scope: p.body };
    } else if (p && /Member/.test(p.type) && EACH.test(propName(p) ?? '')) {
      const call = links.get(p);
      const cb = call?.key === 'callee' ? bare(call.parent.arguments[0] ?? {}) : undefined;
      const id = cb && FUNCTION.test(cb.type) ? cb.params[0] : undefined;
      if (isIdent(id)) each = { id, scope: cb };
    }
    if (each && !seen.has(each.id)) {
      seen.add(each.id);
      const up = entriesCaught(each.id.name, each.scope, all, links, depth, seen, elsewhere);
      if (up) return up;
    }
    const up = callCaught(at, name, links, all, depth, seen, elsewhere);
    if (up) return up;
  }
  return undefined;
}

/** The key of a function of the run that catches the promise it is given (as its argument `index`) and reads the error: `@promise:<name>:<index>`. */
export const PROMISE_KEY = '@promise:';
/** The key of a function of the run that returns the error of the promise it is given as a value (an await-to-js helper): `@settles:<name>:<index>`. */
export const SETTLES_KEY = '@settles:';
/** What a helper's catch that returns the error as a value is taken to read, while the run's files are walked for such helpers. */
export const RETURNED_KEY = '@returned';
/** Packages whose function (by the name a file imports it under) returns a promise's error as a value: `[err, value]`. */
const SETTLING_PACKAGES = /^(await-to-js|@jfdi\/attempt|await-of)$/;

/**
 * A promise passed to a function the file does not define (`to(getOrder(ref))`): one of another file of the run that
 * catches it and reads the error, or returns it as a value (an await-to-js helper; the await-to-js package's `to`)
 * to this file, which reads a V1 error's field.
 */
function helperElsewhere(
  name: string,
  index: number,
  all: () => N[],
  elsewhere?: ReadonlyMap<string, string>,
): string | undefined {
  // By its name in the file, and the name its module exports it under (`import { to as attempt }`, a default).
  const names = [name, importedName(name, all())].filter((n) => n !== undefined);
  const find = (key: string) =>
    names.map((n) => elsewhere?.get(`${key}${n}:${index}`)).find((v) => v !== undefined);
  const reads = find(PROMISE_KEY);
  if (reads) return `passed to \`${name}\`, which ${reads}`;
  const settles =
    find(SETTLES_KEY) ??
    (index === 0 && SETTLING_PACKAGES.test(importedFrom(name, all()) ?? '')
      ? `(${importedFrom(name, all())})`
      : undefined);
  const read = settles && v1ErrorReadIn(all());
  return read
    ? `passed to \`${name}\` ${settles}, which returns the error as a value, and the file reads \`${read}\``
    : undefined;
}

/** The name a module exports what the file imports as `name` under (`import { to as attempt }`: `to`; a default). */
function importedName(name: string, nodes: N[]): string | undefined {
  for (const n of nodes)
    if (n.type === 'ImportDeclaration')
      for (const sp of n.specifiers)
        if (isIdent(sp.local, name))
          return sp.type === 'ImportDefaultSpecifier'
            ? 'default'
            : sp.type === 'ImportSpecifier'
              ? propName({ key: sp.imported })
              : undefined;
  return undefined;
}

/** The package or module a name of the file is imported from (`import to from 'x'`, `const { to } = require('x')`). */
function importedFrom(name: string, nodes: N[]): string | undefined {
  for (const n of nodes) {
    if (n.type === 'ImportDeclaration' && n.specifiers.some((sp: N) => isIdent(sp.local, name)))
      return n.source.value;
    if (n.type !== 'VariableDeclarator') continue;
    const named =
      isIdent(n.id, name) ||
      (n.id.type === 'ObjectPattern' && n.id.properties.some((p: N) => isIdent(p.value, name)));
    let init = bare(n.init ?? {});
    if (init.type === 'MemberExpression') init = bare(init.object);
    if (
      named &&
      init.type === 'CallExpression' &&
      isIdent(init.callee, 'require') &&
      init.arguments[0]?.value
    )
      return init.arguments[0].value;
  }
  return undefined;
}

/** Where what a function passed by name (`refs.map(orderReference)`, the node `v`) throws is caught, or undefined. */
export const passedCaught = (
  v: N,
  links: Map<N, Link>,
  all: () => N[],
  elsewhere?: ReadonlyMap<string, string>,
): string | undefined => callbackCatch(v, links, all, 0, new Set(), elsewhere);

/** The key of a function whose parameter's calls a catch reads the error of: `@param:<name>:<index>`. */
export const PARAM_KEY = '@param:';

/** The function the file binds to `name` (a declaration, or a constant of a function or an arrow). */
export function definitionOf(name: string, nodes: N[]): N | undefined {
  for (const n of nodes) {
    if (n.type === 'FunctionDeclaration' && isIdent(n.id, name)) return n;
    if (n.type === 'VariableDeclarator' && isIdent(n.id, name) && /Function/.test(bare(n.init ?? {}).type))
      return bare(n.init);
  }
  return undefined;
}

/**
 * Where what the call `c` (of a function, called as `as`) throws is caught by a catch that reads it: a `.catch` on
 * it, a try around it, or one around a caller of its function a few callers up; undefined when nowhere.
 */
export function callCaught(
  c: N,
  as: string,
  links: Map<N, Link>,
  all: () => N[],
  depth = 0,
  seen: Set<N> = new Set(),
  elsewhere?: ReadonlyMap<string, string>,
): string | undefined {
  const m = links.get(c)?.parent;
  const read =
    /Member/.test(m?.type ?? '') && m.object === c
      ? catchHandlerRead(m, links, { all, elsewhere, links })
      : undefined;
  if (read) return `called as \`${as}\` where a ${read}`;
  const up = reachingCatch(c, links, all, depth, seen, elsewhere);
  return up && (up.startsWith('called as') ? up : `called as \`${as}\` ${up}`);
}

/**
 * What the error handler of `<member>(…)` reads of the error, with the member's name (`.catch ${read}`): the
 * argument of `.catch(onErr)`, the second of `.then(onOk, onErr)`, the Node-style callback of Bluebird's
 * `.asCallback(cb)` and `.nodeify(cb)`, the filter and the handler of Bluebird's `.catch(Class, onErr)`; a function
 * written there, one of the file named there, a parameter (what the callers of its function pass), or `next`
 * (Express's, to the error middleware).
 */
function catchHandlerRead(m: N, links: Map<N, Link>, outer: Ctx): string | undefined {
  const ctx = outer.links ? outer : { ...outer, links };
  const name = propName(m);
  const at = name === 'catch' || NODE_CALLBACK.test(name ?? '') ? 0 : name === 'then' ? 1 : -1;
  const call = at >= 0 ? links.get(m)?.parent : undefined;
  if (!/CallExpression$/.test(call?.type ?? '') || call.callee !== m) return undefined;
  // Bluebird's filtered catch (`.catch(AxiosError, onErr)`, `.catch((e) => e.response, onErr)`, `.catch({ code }, …)`).
  if (name === 'catch' && call.arguments.length > 1) {
    const filter = bare(call.arguments[0]);
    if (filter.type === 'ObjectExpression' || (isIdent(filter) && filter.name !== 'Error'))
      return `.catch filters on \`${isIdent(filter) ? filter.name : '{…}'}\` (Bluebird)`;
    const read = FUNCTION.test(filter.type) ? handlerRead(filter, 0, ctx, 0) : undefined;
    if (read) return `.catch filters with a predicate that ${read} (Bluebird)`;
  }
  const cb = bare(call.arguments[name === 'catch' ? call.arguments.length - 1 : at]);
  const read =
    cb &&
    (handlerRead(cb, 0, ctx, 0) ?? (isIdent(cb) ? passedHandlerRead(cb.name, m, links, ctx) : undefined));
  return read && `.${name} ${read}`;
}

/** Bluebird's methods handing a promise's outcome to a Node-style callback (`(err, value) => …`). */
const NODE_CALLBACK = /^(asCallback|nodeify)$/;

/**
 * A handler that is a parameter of the function it is used in (`function getOrderCb(ref, cb) { return
 * getOrder(ref).asCallback(cb) }`): what the functions the file's calls of that function pass there read.
 */
function passedHandlerRead(name: string, from: N, links: Map<N, Link>, ctx: Ctx): string | undefined {
  // The function around it that takes it as a parameter.
  let fn = links.get(from)?.parent;
  while (fn && !(FUNCTION.test(fn.type) && fn.params.some((p: N) => isIdent(p, name))))
    fn = links.get(fn)?.parent;
  const index = fn ? fn.params.findIndex((p: N) => isIdent(p, name)) : -1;
  const named = index >= 0 ? nameOf(fn, links) : undefined;
  if (!named) return undefined;
  for (const c of ctx.all()) {
    if (c.type !== 'CallExpression') continue;
    const callee = bare(c.callee);
    const match = named.method
      ? callee.type === 'MemberExpression' && propName(callee) === named.name
      : isIdent(callee, named.name);
    const arg = match ? bare(c.arguments[index] ?? {}) : undefined;
    const read = arg && (FUNCTION.test(arg.type) || isIdent(arg)) ? handlerRead(arg, 0, ctx, 1) : undefined;
    if (read) return `hands it to the callback given to \`${named.name}\`, which ${read}`;
  }
  // Called by another module of the run that passes such a callback (`@callback:<export>:<index>`).
  const as = named.method ? [`#${named.name}`] : (exportsOf(ctx.all()).get(named.name) ?? []);
  for (const name of as) {
    const there = ctx.elsewhere?.get(`${CALLBACK_KEY}${name}:${index}`);
    if (there) return `hands it to the callback given to \`${named.name}\` ${there}`;
  }
  return undefined;
}

/** The key of a function of a module whose callers in other files pass it a callback reading the V1 error: `@callback:<export>:<index>`. */
export const CALLBACK_KEY = '@callback:';

/**
 * What the callbacks a call passes (`api.getOrder(ref, (err, order) => …)`) read of the error they are given first,
 * by the argument's index: those reading a V1 library's error only.
 */
export function callbacksRead(call: N, nodes: N[]): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  call.arguments.forEach((a: N, i: number) => {
    const fn = bare(a);
    const read =
      FUNCTION.test(fn.type) || isIdent(fn) ? handlerRead(fn, 0, { all: () => nodes }, 0) : undefined;
    if (read && V1_ERROR_READ.test(read.replace(/^passes it to `[^`]*`, which /, ''))) out.push([i, read]);
  });
  return out;
}

/** What the functions and the code around a V1 call are read with: the file's nodes, and the run's catches. */
interface Ctx {
  all: () => N[];
  elsewhere?: ReadonlyMap<string, string> | undefined;
  /** The file's parent links, where known: a handler that is a parameter is followed to its function's callers. */
  links?: Map<N, Link>;
}

/** The methods an Express app or router registers a route handler with. */
export const ROUTE_METHODS = /^(get|post|put|patch|delete|all|use|head|options)$/;

/**
 * A function passed to a route method (`router.get(path, async (req, res) => …)`), itself or wrapped by a helper
 * (`asyncHandler(async …)`): Express 5 (and `express-async-errors`, and such helpers) pass what it rejects with to
 * the error middleware, so one of the file or of the run that reads the V1 error reads it.
 */
function routeCatch(call: N, links: Map<N, Link>, ctx: Ctx): string | undefined {
  let route = call;
  const callee = bare(call.callee);
  if (isIdent(callee)) {
    const l = links.get(call);
    if (l?.key !== 'arguments' || l.parent.type !== 'CallExpression') return undefined;
    route = l.parent;
  }
  const method = bare(route.callee);
  if (method.type !== 'MemberExpression' || !ROUTE_METHODS.test(propName(method) ?? '')) return undefined;
  const read = errorMiddlewareRead(ctx.all()) ?? ctx.elsewhere?.get(ERROR_MIDDLEWARE_KEY);
  return read && `in a route handler whose rejection reaches an error middleware that ${read}`;
}

const V1_ERROR_READ =
  /\.(response|code|status|statusCode|request|config|isAxiosError)`|^tests|^matches|^passes/;

/** The key of a function of the run that reads the V1 error it is given: `@handler:<name>:<index>`. */
export const HANDLER_KEY = '@handler:';

/**
 * The functions of a file that read the V1 library's error they are given as a parameter (`handleApiError(err)`),
 * with what they read: by their names and the names they are exported under, and the parameter's index.
 */
export function handlersOf(nodes: N[]): Map<string, string> {
  const out = new Map<string, string>();
  let exports: Map<string, string[]> | undefined;
  for (const n of nodes) {
    // A method too, as `#<name>` (matched by its name: `this.handleError(e)`, `.catch(this.handleError)`).
    const key = /^(ClassMethod|ObjectMethod|ClassPrivateMethod)$/.test(n.type) ? propName(n) : undefined;
    const named = key !== undefined ? { name: `#${key}`, fn: n } : namedFunction(n);
    if (!named) continue;
    const { name, fn } = named;
    if (!fn.body || fn.params.length > 3) continue;
    fn.params.forEach((p: N, i: number) => {
      const read = isIdent(p) ? errorRead(p, fn.body) : undefined;
      // What only a V1 library's error has (a function reading a parameter's other fields is no handler).
      if (!read || !V1_ERROR_READ.test(read)) return;
      exports ??= exportsOf(nodes);
      for (const as of new Set([name, ...(exports.get(name) ?? [])]))
        out.set(`${HANDLER_KEY}${as}:${i}`, read);
    });
  }
  return out;
}

/** The key of an Express error middleware of the run (`(err, req, res, next)`) that reads the V1 error. */
export const ERROR_MIDDLEWARE_KEY = '@error-middleware';

/**
 * What a function the error is passed to (as its argument `index`) reads of it: a function written there, one the
 * file defines under that name (`handle(e)`, `.catch(onError)`), or `next` when an error middleware of the file (or
 * of the run) reads it.
 */
function handlerRead(fn: N, index: number, ctx: Ctx, depth: number): string | undefined {
  if (isIdent(fn, 'next')) {
    const read = errorMiddlewareRead(ctx.all()) ?? ctx.elsewhere?.get(ERROR_MIDDLEWARE_KEY);
    return read && `passes it to next(), to an error middleware that ${read}`;
  }
  // One handler or another (`strict ? onError : log`, `onError ?? log`): either may be the one.
  if (fn.type === 'ConditionalExpression' || fn.type === 'LogicalExpression') {
    for (const branch of fn.type === 'ConditionalExpression'
      ? [fn.consequent, fn.alternate]
      : [fn.left, fn.right]) {
      const read = depth <= CALLER_DEPTH ? handlerRead(bare(branch), index, ctx, depth + 1) : undefined;
      if (read) return read;
    }
    return undefined;
  }
  // One looked up at run time in an object literal of the file (`handlers[kind]`): any of its handlers may be it.
  if (fn.type === 'MemberExpression' && fn.computed && !isString(fn.property)) {
    const table = isIdent(fn.object) ? tableOf(fn.object.name, ctx.all()) : undefined;
    for (const p of depth <= CALLER_DEPTH ? (table ?? []) : []) {
      const h = p.type === 'ObjectMethod' ? p : bare(p.value ?? {});
      const read = FUNCTION.test(h.type) || isIdent(h) ? handlerRead(h, index, ctx, depth + 1) : undefined;
      if (read) return read;
    }
    return undefined;
  }
  // A method (`this.handleError`, `errors.handle`, bound or not): one of that name in the file, or in the run.
  const m = unbound(fn);
  const method = /Member/.test(m.type) ? propName(m) : undefined;
  const name = isIdent(fn) ? fn.name : method !== undefined ? `#${method}` : undefined;
  const def = isIdent(fn)
    ? definitionOf(fn.name, ctx.all())
    : method !== undefined
      ? methodOf(method, ctx.all())
      : FUNCTION.test(fn.type)
        ? fn
        : undefined;
  const shown = name && (memberPath(m) ?? name.replace(/^#/, ''));
  // A handler of another file of the run (matched by name, as `@handler:<name>:<index>`).
  const there = name && !def ? ctx.elsewhere?.get(`${HANDLER_KEY}${name}:${index}`) : undefined;
  if (there) return `passes it to \`${shown}\`, which ${there}`;
  const param = def?.params[index];
  if (!param || depth > CALLER_DEPTH) return undefined;
  const read = errorRead(param.type === 'AssignmentPattern' ? param.left : param, def.body, ctx, depth + 1);
  return read && (name ? `passes it to \`${shown}\`, which ${read}` : read);
}

/** The properties of the object literal the file binds `name` to (`const handlers = { … }`). */
function tableOf(name: string, nodes: N[]): N[] | undefined {
  const d = nodes.find((n) => n.type === 'VariableDeclarator' && isIdent(n.id, name));
  const init = bare(d?.init ?? {});
  return init.type === 'ObjectExpression' ? init.properties : undefined;
}

/** `f.bind(…)` as `f`. */
const unbound = (n: N): N => {
  const b = bare(n);
  return b.type === 'CallExpression' &&
    /Member/.test(bare(b.callee).type) &&
    propName(bare(b.callee)) === 'bind'
    ? bare(bare(b.callee).object)
    : b;
};

/** A method of the file named `name` (of a class or an object literal, or a property given a function). */
function methodOf(name: string, nodes: N[]): N | undefined {
  for (const n of nodes) {
    if (/^(ClassMethod|ObjectMethod|ClassPrivateMethod)$/.test(n.type) && propName(n) === name) return n;
    if (/^(ClassProperty|ObjectProperty|PropertyDefinition)$/.test(n.type) && propName(n) === name) {
      const v = bare(n.value ?? {});
      if (FUNCTION.test(v.type)) return v;
    }
  }
  return undefined;
}

/** The methods an event listener is added with (Node's EventEmitter). */
const LISTEN = /^(on|once|addListener|prependListener|prependOnceListener)$/;
/** The key of an event listener of the run that reads the V1 error it is given: `@event:<event>:<index>`. */
export const EVENT_KEY = '@event:';
/** The key of a process-level handler of the run (`unhandledRejection`, `uncaughtException`) that reads the V1 error. */
export const PROCESS_KEY = '@process';
/** The process events an error nobody caught reaches (an unhandled rejection is raised as an uncaught exception). */
const PROCESS_EVENTS = /^(unhandledRejection|uncaughtException)$/;

/**
 * The event listeners of a file that read the V1 library's error they are given (`emitter.on('error', (e) => …
 * e.response …)`): `@event:<event>:<index>` → what they read; a process-level one (`process.on('unhandledRejection',
 * …)`) also as `@process`. Matched by the event's name in the run, whatever emits it.
 */
export function listenersOf(nodes: N[]): Map<string, string> {
  const out = new Map<string, string>();
  const ctx: Ctx = { all: () => nodes };
  for (const n of nodes) {
    if (n.type !== 'CallExpression' || !n.arguments[1]) continue;
    const callee = bare(n.callee);
    if (callee.type !== 'MemberExpression' || !LISTEN.test(propName(callee) ?? '')) continue;
    const event = eventName(n.arguments[0], nodes);
    const handler = bare(n.arguments[1]);
    // What the listener reads of each argument the event carries (a few).
    for (let i = 0; i < 3; i++) {
      const read =
        FUNCTION.test(handler.type) || isIdent(handler) ? handlerRead(handler, i, ctx, 0) : undefined;
      if (!read || !V1_ERROR_READ.test(read.replace(/^passes it to `[^`]*`, which /, ''))) continue;
      const key = `${EVENT_KEY}${event}:${i}`;
      if (!out.has(key)) out.set(key, read);
      if (PROCESS_EVENTS.test(event) && isIdent(bare(callee.object), 'process') && !out.has(PROCESS_KEY))
        out.set(PROCESS_KEY, `a process-level '${event}' handler that ${read}`);
    }
  }
  return out;
}
const listenerReads = new WeakMap<N[], Map<string, string>>();
const listenersIn = (nodes: N[]): Map<string, string> => {
  const known = listenerReads.get(nodes);
  if (known) return known;
  const m = listenersOf(nodes);
  listenerReads.set(nodes, m);
  return m;
};

/** What a listener reads of an error emitted (`emitter.emit('error', e)`, the error as its argument `index`). */
function emitRead(call: N, index: number, ctx: Ctx, depth: number): string | undefined {
  const callee = bare(call.callee);
  if (callee.type !== 'MemberExpression' || propName(callee) !== 'emit' || index < 1) return undefined;
  if (depth > CALLER_DEPTH) return undefined;
  const event = eventName(call.arguments[0], ctx.all());
  // An event named at run time (`*`) may be any listener's; a listener of such an event may be any emit's.
  const matches = (key: string) =>
    key.startsWith(EVENT_KEY) &&
    key.endsWith(`:${index - 1}`) &&
    (event === '*' || key === `${EVENT_KEY}${event}:${index - 1}` || key === `${EVENT_KEY}*:${index - 1}`);
  for (const listeners of [listenersIn(ctx.all()), ctx.elsewhere ?? new Map<string, string>()])
    for (const [key, read] of listeners)
      if (matches(key)) return `emits it as '${event === '*' ? '…' : event}' to a listener that ${read}`;
  return undefined;
}

/**
 * The name of an event as written (a string, a constant of one, a property of a constant object of strings, a
 * member of an enum of the file); `*` when it is only known at run time.
 */
function eventName(n: N, nodes: N[]): string {
  const v = bare(n ?? {});
  if (isString(v)) return v.value;
  if (v.type === 'TemplateLiteral' && !v.expressions.length) return v.quasis[0].value.cooked;
  const object = v.type === 'MemberExpression' && isIdent(bare(v.object)) ? bare(v.object).name : undefined;
  const key = object ? propName(v) : undefined;
  for (const d of nodes) {
    if (d.type === 'VariableDeclarator' && isIdent(d.id, isIdent(v) ? v.name : object)) {
      const init = bare(d.init ?? {});
      const value = isIdent(v) ? init : key !== undefined ? objectProps(init)?.get(key) : undefined;
      if (value && isString(bare(value))) return bare(value).value;
    }
    if (d.type === 'TSEnumDeclaration' && object && isIdent(d.id, object))
      for (const m of d.members ?? (d.body?.members as N[] | undefined) ?? [])
        if (propName({ key: m.id }) === key && isString(m.initializer)) return m.initializer.value;
  }
  return '*';
}

/**
 * A V1 call whose rejection is not handled reaches a process-level handler (`process.on('unhandledRejection', …)`,
 * `uncaughtException`) of the file or of the run that reads the V1 error. Handled means: a try around it, or a
 * `.catch` on it, whose handler throws nothing, in its function or around every call of that function in the file (a
 * few callers up; a function the file exports, or passes by name, may be called anywhere, so it is not handled).
 */
function processCatch(
  call: N,
  links: Map<N, Link>,
  all: () => N[],
  read: string | undefined,
): string | undefined {
  if (!read || handled(call, links, all, 0, new Set())) return undefined;
  return `not handled, so its rejection may reach ${read}`;
}

/**
 * What a process-level handler of the file (its tree, `root`) reads of the error: looked for once per file, as the
 * rewrite changes no such handler (each V1 call's look indexes the file anew, as the rewrite changes the tree).
 */
function processRead(root: N, all: () => N[]): string | undefined {
  let read = processReads.get(root);
  if (read === undefined) {
    read = listenersOf(all()).get(PROCESS_KEY) ?? null;
    processReads.set(root, read);
  }
  return read ?? undefined;
}
const processReads = new WeakMap<N, string | null>();

function handled(node: N, links: Map<N, Link>, all: () => N[], depth: number, seen: Set<N>): boolean {
  let cur = node;
  for (let l = links.get(cur); l; cur = l.parent, l = links.get(cur)) {
    const p = l.parent;
    if (p.type === 'TryStatement' && l.key === 'block' && p.handler && !rejects(p.handler.body)) return true;
    if (p.type === 'MemberExpression' && l.key === 'object' && propName(p) === 'catch') {
      const c = links.get(p)?.parent;
      const h = c?.type === 'CallExpression' ? bare(c.arguments[0] ?? {}) : undefined;
      if (h && FUNCTION.test(h.type) && !rejects(h.body)) return true;
    }
    if (!FUNCTION.test(p.type)) continue;
    const named = nameOf(p, links);
    if (!named || named.method || depth >= CALLER_DEPTH || seen.has(p)) return false;
    seen.add(p);
    if (exportsOf(all()).has(named.name)) return false;
    let calls = 0;
    for (const n of all()) {
      if (!isIdent(n, named.name) || n === p.id) continue;
      const nl = links.get(n);
      if (nl?.parent.type === 'VariableDeclarator' && nl.key === 'id') continue;
      if (isMemberProperty(nl)) continue;
      // Passed by name, or called: each call handled.
      if (nl?.parent.type !== 'CallExpression' || nl.key !== 'callee') return false;
      if (!handled(nl.parent, links, all, depth + 1, seen)) return false;
      calls++;
    }
    return calls > 0;
  }
  return false;
}

/** Whether a handler's body may throw or reject again (`throw`, `Promise.reject(…)`). */
const rejects = (body: N): boolean =>
  indexTree(body).nodes.some(
    (n) =>
      n.type === 'ThrowStatement' ||
      (n.type === 'CallExpression' && /(^|\.)reject$/.test(memberPath(n.callee) ?? '')),
  );

/** What an Express error middleware of the file (a function of four parameters) reads of its error, or undefined. */
export function errorMiddlewareRead(nodes: N[]): string | undefined {
  let read = middlewareReads.get(nodes);
  if (read === undefined) {
    read = null;
    for (const n of nodes)
      if (FUNCTION.test(n.type) && n.params?.length === 4 && n.body) {
        read = errorRead(n.params[0], n.body) ?? null;
        if (read) break;
      }
    middlewareReads.set(nodes, read);
  }
  return read ?? undefined;
}
const middlewareReads = new WeakMap<N[], string | null>();

/** A `reason` of a settled result read for a field (`r.reason.response`), as written, or undefined. */
function settledRead(nodes: N[], links: Map<N, Link>): string | undefined {
  for (const n of nodes) {
    if (n.type !== 'MemberExpression' && n.type !== 'OptionalMemberExpression') continue;
    if (propName(n) !== 'reason') continue;
    let at = n;
    let up = links.get(at);
    while (up && bare(up.parent) === at) {
      at = up.parent;
      up = links.get(at);
    }
    if (!up) continue;
    if (/Member/.test(up.parent.type) && up.key === 'object') {
      const field = propName(up.parent);
      if (field === undefined || !PLAIN_READS.has(field)) return `reason.${field ?? '[…]'}`;
    }
    if (up.parent.type === 'CallExpression' && up.key === 'arguments') {
      const callee = memberPath(up.parent.callee) ?? '';
      if (/isAxiosError|HTTPError|isHttpError/i.test(callee)) return `reason (${callee})`;
    }
    if (
      up.parent.type === 'BinaryExpression' &&
      up.parent.operator === 'instanceof' &&
      !isIdent(up.parent.right, 'Error')
    )
      return 'reason instanceof …';
  }
  return undefined;
}

/**
 * The names a module exports its top-level functions under, by local name: `export function f`, `export const f`,
 * `export { g as f }`, `export default f`, `module.exports = { f, h: g }`, `module.exports = f` (its default),
 * `exports.f = g`.
 */
export function exportsOf(nodes: N[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (local: N, exported: string | undefined) => {
    if (!isIdent(local) || exported === undefined) return;
    out.set(local.name, [...(out.get(local.name) ?? []), exported]);
  };
  for (const n of nodes) {
    if (n.type === 'ExportNamedDeclaration') {
      const d = n.declaration;
      if (d?.id) add(d.id, d.id.name);
      for (const v of d?.declarations ?? []) add(v.id, v.id?.name);
      if (!n.source) for (const sp of n.specifiers ?? []) add(sp.local, propName({ key: sp.exported }));
    } else if (n.type === 'ExportDefaultDeclaration') {
      // `export default { f, h: g }`: its functions, by their property names (as `module.exports = { … }`).
      if (n.declaration.type === 'ObjectExpression')
        for (const p of n.declaration.properties) add(p.value, propName(p));
      else add(n.declaration.id ?? n.declaration, 'default');
    } else if (n.type === 'AssignmentExpression' && n.operator === '=') {
      const target = memberPath(n.left);
      const value = bare(n.right);
      if (target === 'module.exports' && value.type === 'ObjectExpression')
        for (const p of value.properties) add(p.value, propName(p));
      else if (target === 'module.exports') add(value.id ?? value, 'default');
      else if (/^(module\.)?exports\.[^.]+$/.test(target ?? ''))
        add(value.id ?? value, target!.split('.').pop());
    }
  }
  return out;
}

export function nameOf(fn: N, links: Map<N, Link>): { name: string; method: boolean } | undefined {
  if (fn.type === 'FunctionDeclaration' && fn.id) return { name: fn.id.name, method: false };
  if (/^(ClassMethod|ObjectMethod|ClassPrivateMethod)$/.test(fn.type) && isIdent(fn.key))
    return { name: fn.key.name, method: true };
  const l = links.get(fn);
  if (l?.parent.type === 'VariableDeclarator' && isIdent(l.parent.id))
    return { name: l.parent.id.name, method: false };
  if (
    /^(ObjectProperty|ClassProperty|PropertyDefinition)$/.test(l?.parent.type ?? '') &&
    isIdent(l?.parent.key)
  )
    return { name: l!.parent.key.name, method: true };
  return undefined;
}

/** String methods and operators a message is matched with, to take a branch on what it says. */
const MATCH_METHODS = /^(includes|startsWith|endsWith|match|matchAll|indexOf|search|localeCompare)$/;
/** Whether the (message) expression `n` is matched: compared, searched, tested by a regular expression, switched on. */
function matched(n: N, links: Map<N, Link>): boolean {
  let at = n;
  let up = links.get(at);
  while (up && bare(up.parent) === at && up.parent !== at) {
    at = up.parent;
    up = links.get(at);
  }
  // `e.message.toLowerCase()`, `String(e.message)`, `e.message ?? ''`: what it gives is matched.
  for (;;) {
    const q = up?.parent;
    if (q && /Member/.test(q.type) && /^(toLowerCase|toUpperCase|trim|toString)$/.test(propName(q) ?? '')) {
      const call = links.get(q);
      if (call?.parent.type !== 'CallExpression') break;
      at = call.parent;
    } else if (
      (q?.type === 'CallExpression' && up!.key === 'arguments' && isIdent(q.callee, 'String')) ||
      q?.type === 'LogicalExpression' ||
      /^TS(As|NonNull)Expression$|^Parenthesized/.test(q?.type ?? '')
    )
      at = q;
    else break;
    up = links.get(at);
  }
  const p = up?.parent;
  if (!p) return false;
  if (/Member/.test(p.type) && up!.key === 'object') return MATCH_METHODS.test(propName(p) ?? '');
  if (p.type === 'BinaryExpression') return /^[!=]==?$/.test(p.operator);
  if (p.type === 'SwitchStatement') return true;
  // `/404/.test(e.message)`
  return (
    p.type === 'CallExpression' &&
    up!.key === 'arguments' &&
    /Member/.test(p.callee.type) &&
    /^(test|exec)$/.test(propName(p.callee) ?? '')
  );
}

/** Whether the error, as the child `key` of `parent`, leaves its handler as a value (not thrown, not passed). */
const escapes = (parent: N, key: string) =>
  parent.type === 'ReturnStatement' ||
  (parent.type === 'ArrowFunctionExpression' && key === 'body') ||
  parent.type === 'ArrayExpression' ||
  (parent.type === 'ObjectProperty' && key === 'value') ||
  (parent.type === 'AssignmentExpression' && key === 'right');

const v1Reads = new WeakMap<N[], string | null>();
/** A read of a V1 library's error's field anywhere in the file (`x.response.status`, `x?.response`), or undefined. */
function v1ErrorReadIn(nodes: N[]): string | undefined {
  let read = v1Reads.get(nodes);
  if (read === undefined) {
    read = null;
    for (const n of nodes)
      if (
        /Member/.test(n.type) &&
        !n.computed &&
        propName(n) === 'response' &&
        n.object.type !== 'ThisExpression'
      ) {
        read = `${memberPath(n.object) ?? '…'}.response`;
        break;
      } else if (
        n.type === 'CallExpression' &&
        /isAxiosError|isHttpError/i.test(memberPath(n.callee) ?? '')
      ) {
        read = memberPath(n.callee)!;
        break;
      }
    v1Reads.set(nodes, read);
  }
  return read ?? undefined;
}

/** What a catch clause (or a `.catch` callback) reads of its error beyond its message, or undefined. */
function errorRead(param: N, body: N, ctx?: Ctx, depth = 0): string | undefined {
  if (!isIdent(param)) return 'destructures the error';
  const name = param.name;
  const { nodes, links } = indexTree(body);
  for (const n of nodes) {
    if (!isIdent(n, name)) continue;
    const l = links.get(n);
    if (!l || isMemberProperty(l)) continue;
    // Through `(e as AxiosError)`, `e!`, parentheses.
    let at = n;
    let up = l;
    while (up && bare(up.parent) === n && up.parent !== n) {
      at = up.parent;
      up = links.get(at) as Link;
    }
    const parent = up?.parent;
    if (!parent) continue;
    // Given another name in the handler (`const err = e as AxiosError`, `const { response } = e`): its reads.
    if (parent.type === 'VariableDeclarator' && up.key === 'init' && depth <= CALLER_DEPTH) {
      const id = parent.id;
      if (id.type === 'ObjectPattern') {
        const other = id.properties.find(
          (p: N) => p.type !== 'ObjectProperty' || !PLAIN_READS.has(propName(p) ?? ''),
        );
        if (other) return 'destructures the error';
        continue;
      }
      const read = errorRead(id, body, ctx, depth + 1);
      if (read) return read;
      continue;
    }
    // Returned as a value (`[e, null]`, `{ error: e }`, `return e`) to code that reads a V1 error's fields.
    if (ctx && escapes(parent, up.key)) {
      const read = ctx.elsewhere?.get(RETURNED_KEY) ?? v1ErrorReadIn(ctx.all());
      if (read) return `returns the error, and the file reads \`${read}\``;
    }
    if (/Member/.test(parent.type) && up.key === 'object') {
      const field = propName(parent);
      if (field === 'message' && matched(parent, links))
        return `matches \`${name}.message\` (the V2 client's messages are its own)`;
      if (field !== undefined && PLAIN_READS.has(field)) continue;
      return `reads \`${name}.${field ?? '[…]'}\``;
    }
    if (parent.type === 'BinaryExpression' && parent.operator === 'instanceof' && up.key === 'left') {
      if (isIdent(parent.right, 'Error')) continue;
      return `tests \`${name} instanceof ${memberPath(parent.right) ?? '…'}\``;
    }
    // The error as text (`String(e)`, `` `${e}` ``), matched.
    if (
      ((parent.type === 'CallExpression' && isIdent(parent.callee, 'String')) ||
        parent.type === 'TemplateLiteral') &&
      matched(parent, links)
    )
      return `matches the error's text (the V2 client's messages are its own)`;
    if (parent.type === 'CallExpression' && up.key === 'arguments') {
      const callee = memberPath(parent.callee) ?? '';
      if (/isAxiosError|HTTPError|isHttpError/i.test(callee)) return `tests it with ${callee}`;
      // Emitted as an event (`emitter.emit('error', e)`) to a listener that reads it.
      const emitted = ctx && emitRead(parent, up.index ?? 0, ctx, depth);
      if (emitted) return emitted;
      // Passed on to a handler of the file that reads it (`handle(e)`, `this.handleError(e)`), or to Express's
      // `next(e)`, or to a callback its function is given (`.catch((err) => cb(err))`), as its callers pass it.
      const f = bare(parent.callee);
      if (ctx && /Member/.test(f.type)) {
        const read = handlerRead(f, up.index ?? 0, ctx, depth);
        if (read) return read;
      }
      const read =
        ctx &&
        isIdent(f) &&
        (handlerRead(f, up.index ?? 0, ctx, depth) ||
          (ctx.links && (up.index ?? 0) === 0
            ? passedHandlerRead(f.name, parent, ctx.links, ctx)
            : undefined));
      if (read) return read;
    }
  }
  return undefined;
}
