import { dirname, join, resolve } from 'node:path';
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
  propName,
} from './ast.ts';
import { requiredModule } from './calls.ts';
import {
  CALLBACK_KEY,
  callbacksRead,
  callCaught,
  ERROR_MIDDLEWARE_KEY,
  EVENT_KEY,
  errorMiddlewareRead,
  exportsOf,
  HANDLER_KEY,
  HTTP_VERBS,
  handlersOf,
  importedHolderCaught,
  KEPT_KEY,
  listenersOf,
  nameOf,
  PARAM_KEY,
  PROCESS_KEY,
  PROMISE_KEY,
  passedCaught,
  RETURNED_KEY,
  ROUTE_METHODS,
  SETTLES_KEY,
  SETUP_KEY,
} from './catches.ts';
import { readSource } from './files.ts';
import { parsePlain } from './parse.ts';

/**
 * The catches of a run that read the V1 library's error of a call into another module of the run: module (its
 * real path) → the name it exports the called function under (`default` for a module's default) → where, in
 * words (`called as \`orderReference\` in routes.js inside a try whose catch reads \`e.response\``).
 */
export type CaughtElsewhere = Map<string, Map<string, string>>;

/**
 * The module key of what holds for every module of the run: a method called on an object this tool does not follow
 * to its class (a parameter, a property), caught by a catch that reads the V1 error, as `#<method name>`.
 */
export const ANY_MODULE = '*';

/** Where what a module's function (an export, or `#method`) throws comes from: calls into other modules of the run. */
type Edges = Map<string, Array<{ target: string; name: string; via: string }>>;
const edgeKey = (module: string, name: string) => `${module}\n${name}`;

/**
 * What a file must hold to import a module of the run and catch what it throws (`catch`, an error handler of
 * `.then`, Bluebird's `asCallback`/`nodeify`, Express's `next`, `Promise.allSettled`, `util.callbackify`, a route whose handler's rejection reaches the
 * error middleware), and a relative path.
 */
const MAY_CATCH =
  /\bcatch\b|\.then\s*\(|\bnext\b|\ballSettled\b|\bcallbackify\b|\basCallback\b|\bnodeify\b|\.(get|post|put|patch|delete|all|use)\s*\(\s*['"`/]/;
const RELATIVE = /(?:\bfrom|\brequire\s*\()\s*['"]\.\.?\//;
/** What a file must hold to pass on another module's export: `export … from './…'`. */
export const RE_EXPORT =
  /\bexport\b[^;]*?\bfrom\s*['"]\.\.?\/|module\.exports\s*=\s*require\s*\(\s*['"]\.\.?\//;
/** What a file must hold to set up an axios instance (or axios itself) that calls elsewhere go through. */
const SETS_UP = /\.(interceptors|defaults)\b/;
/** What a file's catch reads of the V1 libraries' errors (a retry helper's): a file with it and `catch` is read. */
const READS_V1_ERROR = /\.response\b|isAxiosError|HTTPError|isHttpError|\.code\s*[!=]==?/;
/** What a file must hold to return a caught error as a value to its importers (an await-to-js helper), with `catch`. */
const RETURNS_VALUE = /\breturn\s*[[{]|=>\s*[[(]/;
const EXPORTS = /\bexports?\b/;
/** What a file must hold to hold an Express error middleware or an event listener reading the V1 error (with `READS_V1_ERROR`). */
const MIDDLEWARE = /\buse\s*\(|\bnext\b|\bexport\b|\bexports\b|\.(on|once|addListener)\s*\(/;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/**
 * Reads every file of the run once, before any is rewritten, for calls of functions imported from another file of
 * the run (`import { f } from './api'`, `import * as api`, `require('./api')`, destructured or not) whose error
 * reaches a catch there that reads it (a try around the call, a `.catch` on it, or around a caller a few callers up
 * in that file). A file without `catch` or a relative import is not parsed; one that does not parse is skipped
 * here (the rewrite reports it).
 */
export async function catchesElsewhere(
  files: string[],
  show: (real: string) => string,
  readText: (real: string) => Promise<{ text: string } | { skip: string }> = readSource,
): Promise<CaughtElsewhere> {
  const inRun = new Set(files);
  const out: CaughtElsewhere = new Map();
  // Module → its `export { f as g } from './x'` and `export * from './x'`: exported name (`*`: any) → the module
  // and the name there.
  const passed = new Map<string, Array<[string, string, string]>>();
  const edges: Edges = new Map();
  // The files walked; the files read and found to hold no catch of a call into another module.
  const scanned = new Set<string>();
  const read = new Set<string>();
  // The files that pass errors to Express's `next`, walked again once an error middleware of the run is found.
  const nexts: Array<[string, N]> = [];
  const texts = keptTexts(readText);
  const scan = async (real: string, all = false) => {
    if (scanned.has(real) || (!all && read.has(real)) || texts.settled.has(real)) return;
    read.add(real);
    const text = await texts.take(real);
    const program = text === undefined ? undefined : programOf(text, real, all);
    if (program) scanned.add(real);
    // Read and not parsed: kept for a later look (`all`, `mentions`) when it imports a module of the run, else done.
    else if (text !== undefined && RELATIVE.test(text)) texts.keep(real, text);
    else texts.settled.add(real);
    // A tree too deep to walk is the rewrite's to report, not this look-out's.
    if (program)
      try {
        if (catchesIn(real, program, inRun, show, out, edges)) nexts.push([real, program]);
        for (const n of program.body) {
          // `module.exports = require('./x')`: everything './x' exports, as `export * from './x'`.
          const cjs =
            n.type === 'ExpressionStatement' &&
            n.expression.type === 'AssignmentExpression' &&
            memberPath(n.expression.left) === 'module.exports' &&
            isRequire(n.expression.right)
              ? moduleOf(real, specOf(n.expression.right), inRun)
              : undefined;
          if (cjs && cjs !== real) passed.set(real, [...(passed.get(real) ?? []), ['*', cjs, '*']]);
          const target =
            n.source && /^Export(Named|All)Declaration$/.test(n.type) && n.exportKind !== 'type'
              ? moduleOf(real, n.source.value, inRun)
              : undefined;
          if (!target || target === real) continue;
          const list = passed.get(real) ?? [];
          passed.set(real, list);
          if (n.type === 'ExportAllDeclaration') {
            if (!n.exported) list.push(['*', target, '*']);
          } else
            for (const sp of n.specifiers ?? []) {
              const as = propName({ key: sp.exported });
              const name = sp.local && propName({ key: sp.local });
              if (as && name && sp.exportKind !== 'type') list.push([as, target, name]);
            }
        }
      } catch {}
  };
  for (const real of files) await scan(real);
  // A helper catching the promise it is given (`to(p)`) found: the files not walked that name it (any, for a
  // default export: its importers name it as they like).
  const helpers = [...(out.get(ANY_MODULE)?.keys() ?? [])]
    .filter((k) => k.startsWith(PROMISE_KEY) || k.startsWith(SETTLES_KEY))
    .map((k) => k.split(':')[1]!);
  if (helpers.length)
    for (const real of files)
      if (!scanned.has(real) && (await texts.mentions(real, helpers.includes('default') ? [''] : helpers)))
        await scan(real, true);
  // An error middleware or a handler reading the error found after a file passing errors to `next` or to a
  // function of another file was walked: that file's catches again, with all of them.
  if (handlersIn(out).size)
    for (const [real, program] of nexts)
      try {
        catchesIn(real, program, inRun, show, out, new Map(), true);
      } catch {}
  nexts.length = 0;
  // A catch of a call of a re-exported function is a catch of the function in the module it comes from; of a
  // function (or method) that calls one of another module, a catch of that one too (a middle file passing it on).
  const queue = [...out].flatMap(([m, names]) =>
    [...names].map(([name, where]) => [m, name, where] as const),
  );
  const add = (target: string, name: string, where: string) => {
    const caught = out.get(target) ?? new Map<string, string>();
    if (caught.has(name)) return;
    out.set(target, caught.set(name, where));
    queue.push([target, name, where]);
  };
  // Methods of any module caught elsewhere, whose modules not walked yet are looked for once the queue is done.
  const methods: Array<[string, string]> = [];
  for (let i = 0; i < queue.length || methods.length; i++) {
    if (i >= queue.length) {
      // A module that defines such a method and calls into another module passes it on: walk the ones that name
      // it (one read of each file not walked yet), then follow what they pass on.
      const batch = methods.splice(0);
      const names = batch.map(([name]) => name.slice(1));
      for (const real of files)
        if (!scanned.has(real) && (await texts.mentions(real, names))) await scan(real, true);
      for (const [name, where] of batch) passOn(ANY_MODULE, name, where);
      i--;
      continue;
    }
    const [m, name, where] = queue[i]!;
    if (m === ANY_MODULE) methods.push([name, where]);
    else await scan(m, true);
    passOn(m, name, where);
  }
  return out;

  function passOn(m: string, full: string, where: string) {
    // An export set up elsewhere (`@setup:api`) is passed on through re-exports as the export itself.
    const setup = full.startsWith(SETUP_KEY) ? SETUP_KEY : '';
    const name = full.slice(setup.length);
    for (const [as, target, local] of name.startsWith('#') ? [] : (passed.get(m) ?? [])) {
      const there = as === '*' ? (name === 'default' ? undefined : name) : as === name ? local : undefined;
      if (there !== undefined) add(target, setup + there, where);
    }
    if (setup) return;
    const from =
      m === ANY_MODULE
        ? [...edges].filter(([k]) => k.endsWith(`\n${name}`)).flatMap(([, e]) => e)
        : (edges.get(edgeKey(m, name)) ?? []);
    for (const e of from)
      add(e.target, e.name, where.includes(', through ') ? where : `${where}, through ${e.via}`);
  }
}

/**
 * The catches of one file (its tree) that read the error of a call into another module of the run, and what its
 * functions pass on of such calls (`edges`). A method called on an instance of a class the file imports (`new
 * PrintApi()`, or an instance a module exports) is that module's `#method`; on any other object (a parameter, a
 * property), any module's (`ANY_MODULE`), unless its name is an HTTP verb's (`api.get`: the V1 library's own).
 * An Express error middleware reading the V1 error is recorded for any module; `middleware` is one found in
 * another file. True when the file passes errors to `next` and no middleware was known.
 */
function catchesIn(
  real: string,
  program: N,
  inRun: Set<string>,
  show: (real: string) => string,
  out: CaughtElsewhere,
  edges: Edges,
  again = false,
): boolean {
  const { nodes, links } = indexTree(program);
  // An Express error middleware (`(err, req, res, next)`) reading the V1 error: what reaches `next` reaches it; and
  // the functions reading the error they are given (`handleApiError(e)`).
  const set = out.get(ANY_MODULE) ?? new Map<string, string>();
  const own = errorMiddlewareRead(nodes);
  if (own && !set.has(ERROR_MIDDLEWARE_KEY)) set.set(ERROR_MIDDLEWARE_KEY, `${own} (in ${show(real)})`);
  for (const [key, read] of handlersOf(nodes)) if (!set.has(key)) set.set(key, `${read} (in ${show(real)})`);
  // Its event listeners reading the V1 error (`emitter.on('error', …)`, `process.on('unhandledRejection', …)`).
  for (const [key, read] of listenersOf(nodes)) if (!set.has(key)) set.set(key, `${read} (in ${show(real)})`);
  if (set.size) out.set(ANY_MODULE, set);
  const elsewhere = handlersIn(out);
  const imports = importsOf(nodes);
  // Locals bound to `new C(…)` of a class C the file imports: their methods are C's module's.
  const instances = new Map<string, { spec: string; name: string }>();
  for (const n of nodes)
    if (n.type === 'VariableDeclarator' && isIdent(n.id) && bare(n.init ?? {}).type === 'NewExpression') {
      const callee = bare(bare(n.init).callee);
      const from = imports.get(isIdent(callee) ? callee.name : '');
      if (from) instances.set(n.id.name, from);
    }
  // Holders of promises another module exports (`import { inFlight }`), never called here: an entry caught here.
  for (const [local, from] of imports) {
    if (from.name === '*' || nodes.some((n) => n.type === 'CallExpression' && isIdent(bare(n.callee), local)))
      continue;
    const target = moduleOf(real, from.spec, inRun);
    const where =
      target && target !== real ? importedHolderCaught(local, nodes, links, elsewhere) : undefined;
    if (!target || !where) continue;
    const caught = out.get(target) ?? new Map<string, string>();
    out.set(target, caught);
    const key = `${KEPT_KEY}${from.name}`;
    if (!caught.has(key))
      caught.set(
        key,
        where.replace(/^called as `[^`]*`/, (s) => `${s} in ${show(real)}`),
      );
  }
  // Built for the first call into another module of the run (most files make none).
  let reach: ((call: N) => string[]) | undefined;
  setUpHere(real, nodes, imports, inRun, show, out);
  paramsCaught(real, nodes, links, show, out);
  promiseParamsCaught(real, nodes, links, show, out);
  for (const c of nodes) {
    // A call, or a function passed by name to a call (`refs.map(orderReference)`, `refs.map(api.orderReference)`).
    const l = links.get(c);
    const passed =
      (isIdent(c) || c.type === 'MemberExpression') &&
      l?.key === 'arguments' &&
      /^(Call|New)Expression$/.test(l.parent.type);
    if (c.type !== 'CallExpression' && !passed) continue;
    const callee = passed ? c : bare(c.callee);
    const member = callee.type === 'MemberExpression' ? callee : undefined;
    const objectName = member && isIdent(member.object) ? member.object.name : undefined;
    const from = imports.get(objectName ?? (isIdent(callee) ? callee.name : ''));
    const method = member ? propName(member) : undefined;
    let target: string | undefined;
    let exported: string | undefined;
    if (from && (from.name === '*' || !member)) {
      exported = from.name !== '*' ? from.name : member ? method : 'default';
      target = exported === undefined ? undefined : moduleOf(real, from.spec, inRun);
    } else if (member && method !== undefined) {
      // A method: of an instance the file imports or makes of an imported class, or of an object not followed.
      const owner = from ?? (objectName ? instances.get(objectName) : undefined);
      exported = `#${method}`;
      target = owner ? moduleOf(real, owner.spec, inRun) : HTTP_VERBS.test(method) ? undefined : ANY_MODULE;
    }
    if (!target || target === real || exported === undefined) continue;
    // Callbacks it is given that read the V1 error (`api.getOrder(ref, (err, order) => …)`): what its module hands
    // them (`.catch(cb)`, `.asCallback(cb)`) reaches them.
    if (!passed)
      for (const [i, read] of callbacksRead(c, nodes)) {
        const caught = out.get(target) ?? new Map<string, string>();
        out.set(target, caught);
        const key = `${CALLBACK_KEY}${exported}:${i}`;
        if (!caught.has(key)) caught.set(key, `in ${show(real)}, which ${read}`);
      }
    const where = passed
      ? passedCaught(c, links, () => nodes, elsewhere)
      : callCaught(c, memberPath(callee) ?? exported, links, () => nodes, 0, new Set(), elsewhere);
    if (where) {
      const caught = out.get(target) ?? new Map<string, string>();
      out.set(target, caught);
      const text = where.replace(/^called as `[^`]*`/, (s) => `${s} in ${show(real)}`);
      // A function of the default export's object (`export default { f }`) is a method of the default import.
      for (const key of from?.name === 'default' && member ? [exported, exported.slice(1)] : [exported])
        if (!caught.has(key)) caught.set(key, text);
    }
    reach ??= reacher(nodes, links);
    for (const name of reach(c)) {
      const key = edgeKey(real, name);
      const list = edges.get(key) ?? [];
      edges.set(key, list);
      list.push({ target, name: exported, via: `\`${name.replace(/^#/, '')}\` of ${show(real)}` });
    }
  }
  // Whether a middleware or a handler found later may change what this file's catches read (it has a catch, a
  // `.catch` or `.then`, passes errors to `next`, or registers routes).
  return (
    !again &&
    nodes.some(
      (n) =>
        isIdent(n, 'next') ||
        n.type === 'CatchClause' ||
        (n.type === 'CallExpression' &&
          bare(n.callee).type === 'MemberExpression' &&
          /^(catch|then|asCallback|nodeify)$/.test(propName(bare(n.callee)) ?? '')) ||
        (n.type === 'CallExpression' &&
          bare(n.callee).type === 'MemberExpression' &&
          ROUTE_METHODS.test(propName(bare(n.callee)) ?? '')) ||
        // A promise passed to a function of another file (`to(orderReference(ref))`).
        (n.type === 'CallExpression' &&
          isIdent(bare(n.callee)) &&
          n.arguments.some((a: N) => /^(Call|Await)Expression$/.test(bare(a).type))),
    )
  );
}

/**
 * The error middleware, the handlers reading the error and the helpers catching a promise they are given that the
 * run's files walked so far hold.
 */
const handlersIn = (out: CaughtElsewhere): Map<string, string> =>
  new Map(
    [...(out.get(ANY_MODULE) ?? [])].filter(
      ([k]) =>
        k === ERROR_MIDDLEWARE_KEY ||
        k.startsWith(HANDLER_KEY) ||
        k.startsWith(PROMISE_KEY) ||
        k.startsWith(SETTLES_KEY) ||
        k.startsWith(EVENT_KEY) ||
        k === PROCESS_KEY,
    ),
  );

/**
 * What the file sets up on an axios instance another module of the run exports (`api.interceptors.….use(…)`,
 * `api.defaults.… = …`), or on axios itself: the calls through it there carry it, which the V2 client would not.
 * Recorded as that module's `@setup:<export>` (axios itself: any module's `@setup:axios` for interceptors, which
 * only its own calls run; `@setup:axios.defaults` for defaults, which the instances it creates take too).
 */
function setUpHere(
  real: string,
  nodes: N[],
  imports: Map<string, { spec: string; name: string }>,
  inRun: Set<string>,
  show: (real: string) => string,
  out: CaughtElsewhere,
): void {
  const axios = new Set<string>();
  for (const n of nodes)
    if (n.type === 'ImportDeclaration' && n.source.value === 'axios')
      for (const sp of n.specifiers)
        if (sp.type !== 'ImportSpecifier') axios.add(sp.local.name);
        else if (n.type === 'VariableDeclarator' && isIdent(n.id) && requiredModule(n.init ?? {}) === 'axios')
          axios.add(n.id.name);
  const record = (module: string, key: string, what: string) => {
    const set = out.get(module) ?? new Map<string, string>();
    out.set(module, set);
    if (!set.has(key)) set.set(key, `${what} set in ${show(real)}`);
  };
  for (const n of nodes) {
    const target =
      n.type === 'AssignmentExpression' ? n.left : n.type === 'CallExpression' ? n.callee : undefined;
    const path: string[] = [];
    let cur = target && bare(target);
    while (cur?.type === 'MemberExpression') {
      path.unshift(propName(cur) ?? '?');
      cur = bare(cur.object);
    }
    if (!isIdent(cur)) continue;
    const at = path.findIndex((p) => p === 'defaults' || p === 'interceptors');
    const kind = path[at];
    if (
      at < 0 ||
      (kind === 'interceptors' && (n.type !== 'CallExpression' || path[path.length - 1] !== 'use')) ||
      (kind === 'defaults' && n.type !== 'AssignmentExpression')
    )
      continue;
    const what =
      kind === 'interceptors' ? 'interceptors' : `${[cur.name, ...path.slice(0, at)].join('.')}.defaults`;
    if (axios.has(cur.name) && at === 0) {
      record(ANY_MODULE, `${SETUP_KEY}axios${kind === 'defaults' ? '.defaults' : ''}`, what);
      continue;
    }
    const from = imports.get(cur.name);
    // `api.interceptors` of `import { api }`; `http.api.interceptors` of `import * as http` (or a require).
    const exported =
      from && (from.name === '*' ? (at === 1 ? path[0] : undefined) : at === 0 ? from.name : undefined);
    const module = exported && moduleOf(real, from.spec, inRun);
    if (module && module !== real) record(module, SETUP_KEY + exported, what);
  }
}

/**
 * The functions of the file that call a function they are given inside a try whose catch reads the error (a retry
 * helper's `fn()`): a function passed to them from another module throws into that catch. Recorded for any module
 * as `@param:<name>:<index>`, under the function's name and the names it is exported under.
 */
function paramsCaught(
  real: string,
  nodes: N[],
  links: Map<N, Link>,
  show: (real: string) => string,
  out: CaughtElsewhere,
): void {
  const record = recorder(nodes, out);
  for (const { name, param, i, body } of namedParams(nodes)) {
    for (const c of body) {
      if (c.type !== 'CallExpression' || !isIdent(bare(c.callee), param)) continue;
      const where = callCaught(c, param, links, () => nodes);
      if (!where) continue;
      const text = where.replace(/^called as `[^`]*`/, (s) => `${s} in \`${name}\` of ${show(real)}`);
      record(name, (as) => `${PARAM_KEY}${as}:${i}`, text);
      break;
    }
  }
}

/** Each identifier parameter (a default value aside) of each named function of the file, with its body's nodes. */
function* namedParams(nodes: N[]): Generator<{ name: string; param: string; i: number; body: N[] }> {
  for (const n of nodes) {
    const named = namedFunction(n);
    if (!named) continue;
    for (const [i, p] of (named.fn.params as N[]).entries()) {
      const param = p.type === 'AssignmentPattern' ? p.left : p;
      if (isIdent(param))
        yield { name: named.name, param: param.name, i, body: indexTree(named.fn.body).nodes };
    }
  }
}

/**
 * Records what another module's call of a function of the file meets, for any module, under a key made from the
 * function's name and from each name it is exported under; a key already recorded keeps its first text.
 */
function recorder(
  nodes: N[],
  out: CaughtElsewhere,
): (name: string, key: (as: string) => string, text: string) => void {
  let exports: Map<string, string[]> | undefined;
  return (name, key, text) => {
    exports ??= exportsOf(nodes);
    const set = out.get(ANY_MODULE) ?? new Map<string, string>();
    out.set(ANY_MODULE, set);
    for (const as of new Set([name, ...(exports.get(name) ?? [])]))
      if (!set.has(key(as))) set.set(key(as), text);
  };
}

/** What a helper's catch is taken to read while the run is walked for helpers returning the error as a value. */
const RETURNED: ReadonlyMap<string, string> = new Map([[RETURNED_KEY, RETURNED_KEY]]);

/**
 * The functions of the file that catch a promise they are given (`async function to(p) { try { return [null, await
 * p] } catch (e) { return [e, null] } }`, `p.catch(…)`): recorded for any module, under the function's name and the
 * names it is exported under, as `@promise:<name>:<index>` when the catch reads the error, `@settles:<name>:<index>`
 * when it returns the error as a value (an await-to-js helper: the file calling it may read a V1 error's fields).
 */
function promiseParamsCaught(
  real: string,
  nodes: N[],
  links: Map<N, Link>,
  show: (real: string) => string,
  out: CaughtElsewhere,
): void {
  const record = recorder(nodes, out);
  for (const { name, param, i, body } of namedParams(nodes)) {
    for (const use of body) {
      const l = isIdent(use, param) ? links.get(use) : undefined;
      if (!l || isMemberProperty(l)) continue;
      // Its own catches only (a call of the function in its file is that file's to look at).
      const where = callCaught(use, param, links, () => nodes, CALLER_DEPTH, new Set(), RETURNED);
      if (!where) continue;
      const settles = where.includes(RETURNED_KEY);
      const text = settles
        ? `(of ${show(real)})`
        : `${where.replace(/^called as `[^`]*` /, '')} (in \`${name}\` of ${show(real)})`;
      record(name, (as) => `${settles ? SETTLES_KEY : PROMISE_KEY}${as}:${i}`, text);
      break;
    }
  }
}

/**
 * What a module passes on of what a call throws: the names its callers in other modules call it by — the exports of
 * the function it is in, or `#method` for a method — and of the functions of the file that call that function, a
 * few callers up. A try whose catch throws nothing stops it there.
 */
function reacher(nodes: N[], links: Map<N, Link>): (call: N) => string[] {
  const exports = exportsOf(nodes);
  const calls = new Map<string, N[]>();
  for (const n of nodes) {
    if (n.type !== 'CallExpression') continue;
    const callee = bare(n.callee);
    const key = isIdent(callee)
      ? callee.name
      : callee.type === 'MemberExpression' && propName(callee) !== undefined
        ? `#${propName(callee)}`
        : undefined;
    if (key) calls.set(key, [...(calls.get(key) ?? []), n]);
  }
  const memo = new Map<N, string[]>();
  const ofFunction = (fn: N, depth: number): string[] => {
    const known = memo.get(fn);
    if (known) return known;
    memo.set(fn, []);
    const named = nameOf(fn, links);
    const out: string[] = [];
    if (!named) {
      if (links.get(fn)?.parent.type === 'ExportDefaultDeclaration') out.push('default');
    } else {
      out.push(...(named.method ? [`#${named.name}`] : (exports.get(named.name) ?? [])));
      if (depth < CALLER_DEPTH)
        for (const k of calls.get(named.method ? `#${named.name}` : named.name) ?? [])
          out.push(...from(k, depth + 1));
    }
    const result = [...new Set(out)];
    memo.set(fn, result);
    return result;
  };
  const from = (node: N, depth: number): string[] => {
    let cur = node;
    for (let l = links.get(cur); l; cur = l.parent, l = links.get(cur)) {
      const p = l.parent;
      if (FUNCTION.test(p.type)) return ofFunction(p, depth);
      if (p.type === 'TryStatement' && l.key === 'block' && p.handler && !throws(p.handler.body)) return [];
    }
    return [];
  };
  return (call) => from(call, 0);
}

const FUNCTION = /Function|ObjectMethod|ClassMethod|ClassPrivateMethod/;
/** How many callers up within a file a call is followed to an export (as the catches are). */
const CALLER_DEPTH = 3;
const throws = (body: N) => indexTree(body).nodes.some((n) => n.type === 'ThrowStatement');

/** How many characters of the files read and not parsed a run keeps for a later look (about 32 MB of text). */
const TEXT_BUDGET = 16 * 1024 * 1024;

/**
 * The texts of the run's files for the look-out, each read once: a file read and not parsed that imports a module of
 * the run may be parsed later (a module whose export is caught elsewhere) or searched for names (`mentions`), so its
 * text is kept, up to `TEXT_BUDGET` characters in all (beyond it, read again); one that does not import one never
 * is (`settled`), nor is one that cannot be read.
 */
function keptTexts(readText: (real: string) => Promise<{ text: string } | { skip: string }>) {
  const kept = new Map<string, string>();
  const settled = new Set<string>();
  let size = 0;
  const read = async (real: string): Promise<string | undefined> => {
    const text = kept.get(real);
    if (text !== undefined) return text;
    try {
      const src = await readText(real);
      if ('text' in src) return src.text;
    } catch {}
    settled.add(real);
    return undefined;
  };
  return {
    settled,
    keep(real: string, text: string): void {
      if (kept.has(real) || size + text.length > TEXT_BUDGET) return;
      kept.set(real, text);
      size += text.length;
    },
    /** The file's text, no longer kept (it is parsed now, or found not to be). */
    async take(real: string): Promise<string | undefined> {
      const text = await read(real);
      if (kept.delete(real)) size -= text!.length;
      return text;
    },
    /** Whether the file names one of `words` and imports a module of the run (it may pass on a call of it). */
    async mentions(real: string, words: string[]): Promise<boolean> {
      if (settled.has(real)) return false;
      const text = await read(real);
      return text !== undefined && RELATIVE.test(text) && words.some((w) => text.includes(w));
    },
  };
}

/** The file's tree, when it may catch a call into another module or pass one on (`all`: when it imports one). */
function programOf(text: string, real: string, all: boolean): N | undefined {
  if (
    !((all || MAY_CATCH.test(text)) && RELATIVE.test(text)) &&
    !RE_EXPORT.test(text) &&
    !SETS_UP.test(text) &&
    !((MAY_CATCH.test(text) || MIDDLEWARE.test(text) || RELATIVE.test(text)) && READS_V1_ERROR.test(text)) &&
    !(/\bcatch\b/.test(text) && EXPORTS.test(text) && RETURNS_VALUE.test(text))
  )
    return undefined;
  try {
    return parsePlain(text, real).program;
  } catch {
    return undefined;
  }
}

/** The file's bindings of relative modules: local name → the module and the name it exports (`*`: the module). */
export function importsOf(nodes: N[]): Map<string, { spec: string; name: string }> {
  const out = new Map<string, { spec: string; name: string }>();
  for (const n of nodes) {
    if (n.type === 'ImportDeclaration' && n.importKind !== 'type' && isRelative(n.source)) {
      for (const sp of n.specifiers) {
        const name =
          sp.type === 'ImportDefaultSpecifier'
            ? 'default'
            : sp.type === 'ImportNamespaceSpecifier'
              ? '*'
              : propName({ key: sp.imported });
        if (name) out.set(sp.local.name, { spec: n.source.value, name });
      }
    } else if (
      n.type === 'VariableDeclarator' &&
      isIdent(n.id) &&
      bare(n.init ?? {}).type === 'MemberExpression' &&
      isRequire(bare(n.init).object) &&
      propName(bare(n.init)) !== undefined
    ) {
      // `const find = require('./api').orderReference` (or `.default`).
      out.set(n.id.name, {
        spec: specOf(bare(n.init).object),
        name: propName(bare(n.init))!,
      });
    } else if (n.type === 'VariableDeclarator' && isRequire(n.init)) {
      const spec = specOf(n.init);
      if (isIdent(n.id)) out.set(n.id.name, { spec, name: '*' });
      else if (n.id.type === 'ObjectPattern')
        for (const p of n.id.properties) {
          const name = propName(p);
          if (name && isIdent(p.value)) out.set(p.value.name, { spec, name });
        }
    } else if (
      n.type === 'TSImportEqualsDeclaration' &&
      n.moduleReference?.type === 'TSExternalModuleReference' &&
      isRelative(n.moduleReference.expression)
    )
      out.set(n.id.name, { spec: n.moduleReference.expression.value, name: '*' });
  }
  return out;
}

const isRelative = (n: N) => isString(n) && /^\.\.?\//.test(n.value);

/** `require('./x')`, or `await import('./x')` (its module namespace, read as a `require`'s exports). */
export const isRequire = (n: N) => {
  let c = n && bare(n);
  if (c?.type === 'AwaitExpression') {
    c = bare(c.argument);
    if (c?.type === 'ImportExpression') return isRelative(c.source);
    return c?.type === 'CallExpression' && c.callee.type === 'Import' && isRelative(c.arguments[0]);
  }
  return c?.type === 'CallExpression' && isIdent(c.callee, 'require') && isRelative(c.arguments[0]);
};
/** The module a `require('./x')` or `await import('./x')` names. */
export const specOf = (n: N): string => {
  const c = bare(n).type === 'AwaitExpression' ? bare(bare(n).argument) : bare(n);
  return (c.source ?? c.arguments[0]).value;
};

/** The file of the run a relative specifier names, as Node and TypeScript resolve it (`./api.js` may be `api.ts`). */
export function moduleOf(from: string, spec: string, inRun: Set<string>): string | undefined {
  const base = resolve(dirname(from), spec);
  const swapped = base.replace(/\.([mc]?)js(x?)$/, '.$1ts$2');
  const candidates = [
    base,
    swapped,
    ...EXTENSIONS.map((e) => base + e),
    ...EXTENSIONS.map((e) => join(base, `index${e}`)),
  ];
  return candidates.find((c) => inRun.has(c));
}
