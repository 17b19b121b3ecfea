import {
  isV1CredentialHeader,
  V1_CREDENTIAL_HEADERS,
  V2_SECRET_KEY_HEADER,
  v1CredentialKind,
} from '@partner-print/openapi/wire';
import { mapV1Endpoint } from '../endpoints.ts';
import { type AdapterOf, importedAdapters, importedClient, sharedClient } from './adapter-imports.ts';
import {
  functionOf,
  indexTree,
  isIdent,
  isString,
  type Link,
  memberPath,
  type N,
  objectProps,
  propName,
  replaceNode,
  snapshotTree,
  statementOf,
  v1Of,
} from './ast.ts';
import {
  atModuleLevel,
  derivedBaseReason,
  envCode,
  repairEarlierBase,
  topStatement,
  type V2Base,
  v2BaseUrl,
} from './base-url.ts';
import {
  CALLBACK_ORDER_REFERENCE,
  CALLBACK_V1_CODE,
  callbackCodeRead,
  callbackRead,
  takesOrderReference,
  usesOf,
  v2ReadAt,
  widenQueryType,
} from './callbacks.ts';
import {
  type CallSite,
  findInstances,
  headerNames,
  headerProblem,
  type Instance,
  libraryNames,
  readCall,
} from './calls.ts';
import { catchProblem, exportsOf, SETUP_KEY } from './catches.ts';
import { countRefs, leftUnused, type Refs, removeUnused } from './cleanup.ts';
import { commentsAround, innerComments, keepComments } from './comments.ts';
import { consumerOf, LeftOnV1, type UnknownRead } from './consumers.ts';
import { adapterNames, EARLIER_ORDER_REFERENCE, earlierOrderReferences } from './earlier-reads.ts';
import { callsOneOf, type Factories } from './factories.ts';
import { ImageUploads, type Pending, staticImage } from './images.ts';
import { keyReadOrder, runTimeKeySource } from './key-read.ts';
import { findV1Mocks, MOCK_REASON } from './mocks.ts';
import { type Ast, checkParses, parsedText, parseExpressionCode, parseSource, printAst } from './parse.ts';
import type { FileProject } from './project-imports.ts';
import { secretsIn } from './secrets.ts';
import { addSetup, chooseNames, DEFAULT_KEY_EXPRESSION } from './setup.ts';
import { type StaticMaps, staticOrder } from './static-order.ts';
import { addTodo, hasTodo, TODO_TAG } from './todo.ts';
import { type Names, type PlanContext, planCall } from './v2-calls.ts';
import { Bindings, evalString, flatten, isV1Url, type Piece, v1Split } from './values.ts';
import { findWrappers, type Wrapper } from './wrappers.ts';

export interface CodeOptions {
  /** The expression the V2 secret key is read from (default `process.env.PARTNER_PRINT_SECRET_KEY ?? ''`). */
  keyExpression?: string;
  /** V1 store code → `Store_…` reference, for the orders the rewritten code creates. */
  stores?: Readonly<Record<string, string>>;
  /**
   * Legacy SKU → `Product_` reference (what `skus` resolved): a SKU written out in an order body that is in
   * it becomes its reference in the code; any other SKU is still looked up where the code runs.
   */
  productReferences?: Readonly<Record<string, string>>;
}

export interface CodeFinding {
  file: string;
  line: number;
  column: number;
  /** `rewritten`: turned into V2 SDK calls; `todo`: left as it is, with a TODO comment above it. */
  kind: 'rewritten' | 'todo';
  /** What was found (`POST /orders (axios)`, `V1 base URL`, …). */
  what: string;
  /** What it became, or why it was left. */
  detail: string;
}

export interface TransformResult {
  file: string;
  output: string;
  changed: boolean;
  findings: CodeFinding[];
  /** Set when the file does not parse; it is left untouched. */
  error?: string;
}

const position = (file: string, n: N) => ({
  file,
  line: n?.loc?.start.line ?? 0,
  column: (n?.loc?.start.column ?? 0) + 1,
});

/** A call of a fetch wrapper, read like the fetch call it makes. */
function wrapperSite(call: N, w: Wrapper, b: Bindings): CallSite {
  const o = call.arguments[1] ? objectProps(b.resolve(call.arguments[1])) : new Map<string, N>();
  const opts = o ?? new Map<string, N>();
  const extra = o
    ? [...opts.keys()].filter((k) => !['method', 'body', 'headers'].includes(k))
    : ['options not known statically'];
  const m = opts.get('method');
  const body = opts.get('body');
  const parsed =
    body &&
    b.resolve(body).type === 'CallExpression' &&
    memberPath(b.resolve(body).callee) === 'JSON.stringify'
      ? b.resolve(body).arguments[0]
      : body
        ? 'opaque'
        : undefined;
  const path: Piece[] = evalString(call.arguments[0], b);
  return {
    node: call,
    lib: 'wrapper',
    method: m ? (isString(b.resolve(m)) ? b.resolve(m).value.toUpperCase() : undefined) : 'GET',
    url: flatten([...w.base, ...path]),
    pieces: [...w.base, ...path],
    body: parsed,
    headers: opts.has('headers') ? [opts.get('headers')] : [],
    auth: [...wrapperHeaders(w), ...(opts.has('headers') ? [opts.get('headers')] : [])],
    extra,
  };
}

interface Context {
  file: string;
  /** The file's names of the V2 client's `createClient` and the V1 adapter's `createV1Adapter`. */
  factories: Factories;
  /** This module's exports whose calls in other modules of the run reach a catch reading the V1 error: where. */
  elsewhere?: ReadonlyMap<string, string>;
  /** What the run knows of the project around the file: its config's imports, the types other files of the run name. */
  project?: FileProject;
  /** The file's text (what the credentials of a call are written as). */
  source: string;
  ast: Ast;
  b: Bindings;
  findings: CodeFinding[];
  /**
   * The V2 client's base URL: the one of the client an earlier run made, or the first rewritten call's. Every
   * rewritten call goes to it.
   */
  base?: V2Base;
  adapter: boolean;
  render: boolean;
  /** The top-level statements the client reads its secret key after, or why it cannot read it when the module loads. */
  key: N[] | string;
  /** The V1 credentials of the calls rewritten onto the client (one organization's), as code. */
  creds?: string;
  /** Where a rewritten call's V1 API key was passed in at run time (`env.PP_API_KEY`), if one was. */
  keyFrom?: { code: string; at: N };
  rewrites: number;
  /** The V1 calls left on V1 (marked). */
  left: CallSite[];
  /** The rewritten order reads whose identifier is the callback's order_reference (`read`): their V2 value. */
  codes: Array<{ value: N; id: N; read: N }>;
  names: Names;
  uploads: ImageUploads;
  maps: StaticMaps;
  todo(node: N, what: string, reason: string, links: Map<N, Link>, leftover?: boolean): void;
}

function describe(site: CallSite, lib: string): string {
  const path = site.url
    ? site.url.text.slice(Math.max(0, v1Split(site.url.text))).replace(/\{h\d+\}/g, '…') || '/'
    : '?';
  // A query's values are not quoted (one may be a key): its parameter names say which call it is.
  return `${site.method ?? '?'} ${path.replace(/([?&][^=&#]*)=[^&#]*/g, '$1=…')} (${lib})`;
}

/** What the plans of one call read values with; `pending` collects the static image uploads it needs. */
function planContext(
  ctx: Context,
  call: N,
  stmt: N | undefined,
  links: Map<N, Link>,
  pending: Pending,
): PlanContext {
  // An upload goes above the call's statement only when that statement runs with the call (not around an
  // arrow function's expression body); otherwise the image converts where the call runs.
  const inline = stmt !== undefined && functionOf(links, call) === functionOf(links, stmt);
  return {
    names: ctx.names,
    b: ctx.b,
    staticBytes: (image) => staticImage(image, ctx.b),
    image(image) {
      const s = staticImage(image, ctx.b);
      return s && inline ? ctx.uploads.use(s, stmt, links, pending) : undefined;
    },
    staticOrder(body) {
      return staticOrder(body, ctx.b, ctx.maps, ctx.names, (image) => this.image(image));
    },
    callbackCode(id) {
      const now = indexTree(ctx.ast.program);
      const read = callbackCodeRead(id, ctx.b, now.links);
      return read && v2ReadAt(read, call, now.nodes, now.links, ctx.source) ? read : undefined;
    },
  };
}

/** Rewrites one V1 call, or marks it. */
function handleSite(ctx: Context, site: CallSite, links: Map<N, Link>, libName: string): void {
  const what = describe(site, libName);
  const pending: Pending = [];
  const stmt = statementOf(links, site.node);
  const problem =
    (site.extra.length
      ? `it passes options the V2 client does not take (${site.extra.join(', ')})`
      : undefined) ??
    headerProblem(site.headers, ctx.b) ??
    (typeof ctx.key === 'string' ? ctx.key : undefined);
  const creds = credentialsOf(site.auth ?? site.headers, ctx.b, ctx.source);
  // Marked so by an earlier run, whose rewritten calls (and their credentials) are gone: still another's.
  const markedBefore = stmt ? leadingTodo(stmt)?.includes(OTHER_ORGANIZATION) : false;
  const otherOrganization =
    (creds !== '' && ctx.creds !== undefined && ctx.creds !== creds) || markedBefore
      ? OTHER_ORGANIZATION
      : undefined;

  const plan = site.url
    ? planCall(planContext(ctx, site.node, stmt, links, pending), site.method, site.url, site.body)
    : ({ ok: false, reason: 'its URL is not known statically' } as const);
  const base = problem || !plan.ok ? undefined : v2BaseOf(ctx, site, links);
  const reason =
    problem ??
    otherOrganization ??
    (plan.ok ? undefined : plan.reason) ??
    (typeof base === 'string' ? base : undefined);
  const consumer =
    reason || !plan.ok
      ? undefined
      : (catchProblem(site.node, links, ctx.elsewhere) ?? consumerOf(site.node, site.lib, links));
  const unproven = plan.ok ? plan.unproven : undefined;
  const left = (why?: string) => {
    // What the plan had made ready for the rewrite (an image upload and its name) goes with it.
    ctx.uploads.forget(pending);
    ctx.left.push(site);
    ctx.todo(site.node, what, leftReason(unproven, why), links);
  };
  if (reason || typeof consumer === 'string' || !consumer || !plan.ok) {
    left(String(reason ?? consumer));
    return;
  }
  const pos = position(ctx.file, site.node);
  const comments = innerComments(site.node);
  // The statements the rewrite may merge into the V2 one are in the call's function (or the file's top level).
  const around = commentsAround(functionOf(links, site.node) ?? ctx.ast.program, site.node);
  const value = plan.value();
  // The reads may find the answer used in a way the V2 value cannot stand in for: the tree goes back as it was.
  const restoreTree = snapshotTree(ctx.ast.program);
  const linked = [...links].map(([n, l]) => [n, { ...l }] as const);
  const restore = () => {
    restoreTree();
    links.clear();
    for (const [n, l] of linked) links.set(n, l);
  };
  let unknown: UnknownRead[];
  try {
    unknown = consumer.apply(value, plan.reads);
  } catch (e) {
    if (!(e instanceof LeftOnV1)) throw e;
    restore();
    left(e.reason);
    return;
  }
  // Everything else maps, but not the order identifier: the tree goes back as it was.
  if (unproven) {
    restore();
    left();
    return;
  }
  ctx.base ??= base as V2Base;
  // Where the V2 value ended up (the consumer may have moved it into the statement that read the JSON).
  const now = pending.length || comments.length || around.length ? indexTree(ctx.ast.program).links : links;
  const home = statementOf(now, value) ?? stmt;
  ctx.uploads.commit(pending, home, now, ctx.file);
  if (home) keepComments(comments, home, around, ctx.ast.program);
  const once = plan.endpoint.id === 'create-order' ? withoutIdentifier(site.body, ctx.b) : undefined;
  if (once && home) ctx.todo(home, 'order without partner_reference', once, now);
  ctx.adapter ||= plan.needsAdapter;
  ctx.render ||= plan.render === true;
  ctx.keyFrom ??= runTimeKeySource(site.headers, ctx.b, ctx.ast.program.body);
  // A call with no V1 credentials in sight (on a base URL of calls with them) says nothing of the organization.
  if (creds !== '') ctx.creds ??= creds;
  ctx.rewrites++;
  if (plan.callbackCode) ctx.codes.push({ value, ...plan.callbackCode });
  const target = plan.target?.(value) ?? plan.endpoint.v2.map((e) => `${e.method} ${e.path}`).join(' + ');
  ctx.findings.push({ ...pos, kind: 'rewritten', what, detail: `→ ${target} through the V2 client` });
  // A read the mapping made (a new node) is only in a fresh index of the tree.
  let fresh: Map<N, Link> | undefined;
  for (const u of unknown) {
    if (!links.has(u.node)) fresh ??= indexTree(ctx.ast.program).links;
    const l = links.has(u.node) ? links : (fresh as Map<N, Link>);
    ctx.todo(u.node, `V1 response field ${u.field}`, u.reason, l);
  }
}

/** The TODO of a call left on V1: why it cannot be proven equivalent, then any other reason it has. */
function leftReason(unproven: string | undefined, why: string | undefined): string {
  const trim = (s: string) => s.replace(/\.$/, '');
  if (!unproven) return `V1 call left as it is: ${trim(String(why))}.`;
  return `V1 call left as it is: ${trim(unproven)}${why ? `. Besides, ${trim(why)}` : ''}.`;
}

/**
 * The V2 base URL of a call's V1 base URL, or why the call is left: its base URL cannot be kept where the client
 * is created, or it is another than the one of the file's client (one client per file).
 */
function v2BaseOf(ctx: Context, site: CallSite, links: Map<N, Link>): V2Base | string {
  const base = v2BaseUrl(site.pieces, ctx.b, links);
  if (typeof base === 'string') return base;
  if (ctx.base && ctx.base.code !== base.code) {
    const text = site.url?.text ?? '';
    const v1 = text.slice(0, Math.max(0, v1Split(text))).replace(/\{h\d+\}/g, '…');
    return `it goes to ${v1}, and this file's V2 client to ${ctx.base.code || 'a base URL not known statically'} (one client per file)`;
  }
  // A call made when the module loads, before the base URL or the key is read: the client would not be there yet.
  const program = ctx.ast.program.body as N[];
  const stmt = atModuleLevel(site.node, links) ? topStatement(site.node, links) : undefined;
  const before = (after: N[]) => stmt && after.some((s) => program.indexOf(s) >= program.indexOf(stmt));
  if (before(base.after))
    return `it runs when the module loads, where its base URL is read from ${base.envs[0] ?? 'the environment'}`;
  if (before(typeof ctx.key === 'string' ? [] : ctx.key))
    return 'it runs when the module loads, before the environment the V2 client reads its secret key from is loaded';
  return base;
}

const CALLBACK_WHAT = 'legacy callback: order_reference';

const OTHER_ORGANIZATION =
  "it sends other V1 credentials than the calls rewritten onto this file's V2 client, which sends one secret key, of one organization: another organization needs a client of its own";

/** The text of this tool's TODO above a statement, if it has one. */
const leadingTodo = (stmt: N): string | undefined =>
  (stmt.comments ?? []).find((c: N) => c.leading && String(c.value).includes(TODO_TAG))?.value;

/**
 * The V1 credentials in the headers (each header's kind and its value as written, through constants and spreads):
 * calls that send the same are one organization's, which one V2 client (one secret key) can stand for.
 */
function credentialsOf(headers: N[], b: Bindings, source: string): string {
  const out: string[] = [];
  const read = (h: N, depth: number) => {
    const v = b.resolve(h);
    if (v?.type !== 'ObjectExpression' || depth > 4) return;
    for (const p of v.properties) {
      if (p.type === 'SpreadElement') read(p.argument, depth + 1);
      else {
        const name = propName(p);
        const kind = name === undefined ? undefined : v1CredentialKind(name);
        const value = kind ? b.resolve(p.value) : undefined;
        if (kind) out.push(`${kind}=${value ? credentialForm(value, b, source) : '?'}`);
      }
    }
  };
  for (const h of headers) read(h, 0);
  return [...new Set(out)].sort().join('\n');
}

/**
 * A credential's value in one normal form, so that spellings of one value are one organization's: a string (in
 * any quotes, or a template without holes) is its text; an environment variable (`process.env.K`,
 * `process.env['K']`) is its name, also read with an empty fallback (`?? ''`, `|| ''`), through `String(…)`, as
 * the one hole of a template, cast or asserted non-null, or through constants. Anything else is its code.
 */
function credentialForm(n: N, b: Bindings, source: string, depth = 0): string {
  const v = b.resolve(n);
  if (depth > 8) return '?';
  const again = (x: N) => credentialForm(x, b, source, depth + 1);
  if (isString(v)) return JSON.stringify(v.value);
  if (v.type === 'TemplateLiteral') {
    const texts = v.quasis.map((q: N) => q.value.cooked ?? q.value.raw);
    if (!v.expressions.length) return JSON.stringify(texts.join(''));
    if (v.expressions.length === 1 && texts.every((t: string) => t === '')) return again(v.expressions[0]);
  }
  const emptyFallback = (x: N) => isString(b.resolve(x)) && b.resolve(x).value === '';
  if (
    v.type === 'LogicalExpression' &&
    (v.operator === '??' || v.operator === '||') &&
    emptyFallback(v.right)
  )
    return again(v.left);
  if (v.type === 'CallExpression' && isIdent(v.callee, 'String') && v.arguments.length === 1)
    return again(v.arguments[0]);
  if (v.type === 'MemberExpression' && memberPath(v.object) === 'process.env') {
    const name = propName(v);
    if (name !== undefined) return `env:${name}`;
  }
  return v.end ? source.slice(v.start, v.end).replace(/\s+/g, ' ') : '?';
}

/**
 * The base URL (as code) of the V2 client an earlier run (or the partner) made in the file; `repaired` is its
 * code when this run repaired what an earlier version wrote.
 */
function existingBase(
  nodes: N[],
  client: string,
  factories: Factories,
  text: string,
  repaired?: string,
): V2Base | undefined {
  const decl = nodes.find(
    (n) => n.type === 'VariableDeclarator' && isIdent(n.id, client) && n.init?.type === 'CallExpression',
  );
  if (!decl || !callsOneOf(decl.init, factories.client)) return undefined;
  const arg = decl.init.arguments[0];
  const base = arg?.type === 'ObjectExpression' ? objectProps(arg)?.get('baseUrl') : undefined;
  return { code: repaired ?? (base ? text.slice(base.start, base.end) : ''), envs: [], after: [] };
}

/** The part of a V1 URL up to `/v1`: calls to one base are one API. */
const baseOf = (text: string) => (v1Split(text) >= 0 ? text.slice(0, v1Split(text)) : undefined);

/**
 * Every V1 call of the file: the HTTP libraries' calls and fetch-wrapper calls on a V1 base URL. Another
 * API's `/v1` is not ours: a call counts when it sends a V1 credential header, when its path is a V1
 * endpoint of the reference, or when it goes to the base URL of such a call.
 */
function v1Sites(ast: Ast, b: Bindings, elsewhere?: ReadonlyMap<string, string>) {
  const { nodes, links } = indexTree(ast.program);
  const libs = libraryNames(nodes, b);
  const instances = findInstances(nodes, libs, b);
  if (elsewhere?.size) setUpElsewhere(nodes, libs, instances, elsewhere);
  const wrappers = findWrappers(nodes, links, libs, b);
  const own = new Set([...wrappers.values()].map((w) => w.fetchCall));
  const candidates: Array<{ site: CallSite; lib: string; base?: string; sure: boolean; endpoint: boolean }> =
    [];
  for (const n of nodes) {
    if (n.type !== 'CallExpression' || own.has(n)) continue;
    const key = memberPath(n.callee);
    const w = key ? wrappers.get(key) : undefined;
    const site = w ? wrapperSite(n, w, b) : readCall(n, libs, instances, b);
    if (!site) continue;
    const base = site.url && !/^\{h\d+\}/.test(site.url.text) ? baseOf(site.url.text) : undefined;
    const creds =
      partnerCodeHeader(site.headers, b) || (w !== undefined && partnerCodeHeader(wrapperHeaders(w), b));
    if (base === undefined && !creds) continue;
    const path = site.url && base !== undefined ? site.url.text.slice(base.length) : '';
    const endpoint = site.method !== undefined && mapV1Endpoint(site.method, path) !== undefined;
    candidates.push({ site, lib: w ? `${key} wrapper` : site.lib, base, sure: creds, endpoint });
  }
  const mocks = findV1Mocks(nodes, b);
  const bases = new Set(candidates.filter((c) => c.sure && c.base !== undefined).map((c) => c.base));
  for (const m of mocks) bases.add(m.base);
  for (const w of wrappers.values())
    if (partnerCodeHeader(wrapperHeaders(w), b)) bases.add(baseOf(flatten(w.base).text));
  // A V1 endpoint under /v1 without a V1 credential in sight may be another API: marked, never rewritten.
  const sites = candidates
    .filter((c) => c.sure || c.endpoint || (c.base !== undefined && bases.has(c.base)))
    .map((c) => ({ ...c, unsure: !c.sure && !(c.base !== undefined && bases.has(c.base)) }));
  return { links, sites, wrappers, bases, mocks };
}

/**
 * The axios instances this module exports that another module of the run sets up (interceptors, defaults), and
 * axios itself when one does: the calls through them carry that set-up, which the V2 client would not, so they are
 * marked as an instance set up in its own file is.
 */
function setUpElsewhere(
  nodes: N[],
  libs: Map<string, string>,
  instances: Map<string, Instance>,
  elsewhere: ReadonlyMap<string, string>,
): void {
  for (const [local, names] of exportsOf(nodes))
    for (const name of names) {
      const why = elsewhere.get(SETUP_KEY + name);
      const inst = instances.get(local);
      if (why && inst) inst.extra.push(why);
    }
  const own = elsewhere.get(`${SETUP_KEY}axios`);
  const defaults = elsewhere.get(`${SETUP_KEY}axios.defaults`);
  for (const [local, lib] of libs) {
    if (lib !== 'axios' || !(own || defaults)) continue;
    const inst = instances.get(local) ?? { lib: 'axios', base: [], headers: [], extra: [] };
    inst.extra.push(...[own, defaults].filter((w): w is string => !!w));
    instances.set(local, inst);
  }
  // axios.defaults are taken by the instances axios creates (those created after they are set).
  if (defaults)
    for (const inst of instances.values())
      if (inst.lib === 'axios' && !inst.extra.includes(defaults)) inst.extra.push(defaults);
}

/**
 * Whether the headers carry the V1 partner code (what only Partner Print V1 asks for; an API-key header alone
 * is common to many APIs). Headers built at run time are looked into as far as their constants go.
 */
/** The headers a wrapper's own fetch sends. */
const wrapperHeaders = (w: Wrapper): N[] => {
  const init = w.fetchCall.arguments[1];
  const h =
    init?.type === 'ObjectExpression' ? init.properties.find((p: N) => propName(p) === 'headers') : undefined;
  return h ? [h.value] : [];
};

function partnerCodeHeader(headers: N[], b: Bindings): boolean {
  const names = new Set<string>();
  for (const h of headers) for (const n of headerNames([h], b) ?? partialNames(h, b)) names.add(n);
  return [...names].some((n) => v1CredentialKind(n) === 'partner-code');
}

/** The statically known names of a header object with some unknown parts. */
function partialNames(h: N, b: Bindings): string[] {
  const v = b.resolve(h);
  if (v.type !== 'ObjectExpression') return [];
  return v.properties.flatMap((p: N) =>
    p.type === 'SpreadElement' ? partialNames(p.argument, b) : [propName(p) ?? ''],
  );
}

/** What is left of V1 after the rewrite (base URLs, credential headers, wrappers still called): marked. */
function markLeftovers(
  ctx: Context,
  wrappers: Map<string, Wrapper>,
  bases: Set<string | undefined>,
  before: Refs,
): void {
  const { nodes, links } = indexTree(ctx.ast.program);
  const present = new Set(nodes);
  const partnerCode = nodes.some(
    (n) => isCredentialKey(n) && v1CredentialKind(propName(n)!) === 'partner-code',
  );
  if (!bases.size && !partnerCode) return;
  const ours = (url: string) => isV1Url(url) && (bases.has(baseOf(url)) || (partnerCode && !bases.size));
  for (const w of wrappers.values())
    if (present.has(w.fetchCall) && bases.has(baseOf(flatten(w.base).text)))
      ctx.todo(
        w.fetchCall,
        'V1 request wrapper',
        'a request wrapper on the V1 base URL; its calls with a known path are rewritten, the others are marked.',
        links,
      );
  let unused: Set<N> | undefined;
  for (const n of nodes) {
    const url = isString(n) ? n.value : n.type === 'TemplateElement' ? (n.value.cooked ?? '') : undefined;
    // The V2 client's own base URL, derived from a V1 one (its TODO says so): not V1 left over.
    if (url !== undefined && ours(url) && !inClient(n, links, ctx.names.client, ctx.factories))
      ctx.todo(
        n,
        'V1 base URL',
        'the V1 base URL is still used by code this tool did not rewrite.',
        links,
        true,
      );
    else if (isCredentialKey(n)) {
      unused ??= leftUnused(ctx.ast.program, before);
      ctx.todo(
        n,
        'V1 credential header',
        unused.has(declaratorOf(n, links))
          ? `a V1 credential header is left in a value nothing in this file uses; V2 takes one secret key (${V2_SECRET_KEY_HEADER}), which the V2 client sends: remove it.`
          : `a V1 credential header is still sent; V2 takes one secret key (${V2_SECRET_KEY_HEADER}), which the V2 client sends.`,
        links,
        true,
      );
    }
  }
}

/** The declarator whose value holds `n` (through objects and their properties), if any. */
function declaratorOf(n: N, links: Map<N, Link>): N | undefined {
  for (let l = links.get(n); l; l = links.get(l.parent)) {
    if (l.parent.type === 'VariableDeclarator') return l.key === 'init' ? l.parent : undefined;
    if (!/^(ObjectProperty|Property|ObjectExpression)$/.test(l.parent.type)) return undefined;
  }
  return undefined;
}

/**
 * The environment variables the V2 client derives its base URL from, where V1 code left in the file still reads
 * them: read with a `/v2` value turned to `/v1` of the same host (`v1Of`), so the variable may hold either base URL
 * and no V1 call goes to V2 with V1 credentials. A `/v1` value (or any other) reads as it did.
 */
function keepV1Reads(program: N, reads: N[]): void {
  const { nodes, links } = indexTree(program);
  const present = new Set(nodes);
  // Not one read through `v1Of` already (the object of its `?.replace`); each read once, however many calls left
  // on V1 go through it (a base-URL constant several of them read).
  for (const read of new Set(reads))
    if (present.has(read) && !/Member/.test(links.get(read)?.parent.type ?? ''))
      replaceNode(links, read, parseExpressionCode(v1Of(envCode(read))));
}

/** Whether the node is part of the declaration of the file's V2 client. */
function inClient(n: N, links: Map<N, Link>, client: string, factories: Factories): boolean {
  for (let cur = links.get(n)?.parent; cur; cur = links.get(cur)?.parent)
    if (cur.type === 'VariableDeclarator' && isIdent(cur.id, client))
      return callsOneOf(cur.init, factories.client);
  return false;
}

const isCredentialKey = (n: N) =>
  (n.type === 'ObjectProperty' || n.type === 'Property') &&
  propName(n) !== undefined &&
  isV1CredentialHeader(propName(n)!) &&
  isHeaderKey(propName(n)!);

/** Header spellings only (`X-Partner-Code`, `api-key`), not body fields like `store_code`. */
const isHeaderKey = (name: string) =>
  name.includes('-') || /^x/i.test(name) || /^(apikey|partnerkey|partnercode|storecode)$/i.test(name);

/**
 * Whether the text can hold V1 usage at all: a `/v1`, a V1 credential header name, a callback's
 * `order_reference`, an earlier run's TODO, V1 adapter or look-up (`.orderReference(`: of an adapter it may
 * import). Other files are only parsed (so one that does not parse is still reported), with Babel alone: the
 * rewrite's parse keeps what it needs to reprint, which costs four times more.
 */
function mayHoldV1(text: string): boolean {
  const lower = text.toLowerCase();
  return (
    lower.includes('/v1') ||
    lower.includes('order_reference') ||
    text.includes(TODO_TAG) ||
    text.includes('createV1Adapter') ||
    text.includes('.orderReference(') ||
    V1_CREDENTIAL_HEADERS.some((h) => lower.includes(h))
  );
}

export function transformSource(text: string, file: string, options: CodeOptions = {}): TransformResult {
  const { secrets: _, ...result } = transformWithSecrets(text, file, options);
  return result;
}

/**
 * {@link transformSource}, and the keys written out in the file (V1 API keys, V2 secret keys), which whatever
 * shows the file's text (the CLI's diff) redacts.
 */
export function transformWithSecrets(
  text: string,
  file: string,
  options: CodeOptions = {},
  elsewhere?: ReadonlyMap<string, string>,
  adapterOf?: AdapterOf,
  project?: FileProject,
): TransformResult & { secrets: string[] } {
  try {
    return {
      secrets: [],
      ...parsesAgain(rewrite(text, file, options, elsewhere, adapterOf, project), text, file),
    };
  } catch (e) {
    // A file this tool fails on (a syntax it mishandles, a tree too deep to reprint) is reported and left
    // as it is; the run goes on with the other files.
    const msg = e instanceof Error ? e.message : String(e);
    return {
      file,
      output: text,
      changed: false,
      findings: [],
      error: `could not be rewritten: ${msg}`,
      secrets: [],
    };
  }
}

/**
 * The rewrite's result where its output parses; else the file as it was, byte for byte, with the error: what the
 * rewrite printed is parsed again before anything is written, so a file is never left broken by it.
 */
export function parsesAgain<T extends TransformResult>(r: T, text: string, file: string): T {
  if (!r.changed || r.error) return r;
  const error = checkParses(r.output, file);
  if (!error) return r;
  return {
    ...r,
    output: text,
    changed: false,
    findings: [],
    error: `could not be rewritten: the rewritten code ${error}`,
  };
}

/** The file rewritten; the keys written out in it once it was parsed (none before). */
function rewrite(
  text: string,
  file: string,
  options: CodeOptions,
  elsewhere?: ReadonlyMap<string, string>,
  adapterOf?: AdapterOf,
  project?: FileProject,
): TransformResult & { secrets?: string[] } {
  if (!mayHoldV1(text)) {
    const error = checkParses(text, file);
    return { file, output: text, changed: false, findings: [], ...(error ? { error } : {}) };
  }
  let ast: Ast;
  try {
    ast = parseSource(text, file);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return { file, output: text, changed: false, findings: [], error: `does not parse: ${msg}` };
  }
  // What the nodes' offsets index (line endings and a byte order mark as recast gave them to the parser).
  const code = parsedText(ast);
  const index = indexTree(ast.program);
  const b = new Bindings(index.nodes, index.links);
  const secrets = secretsIn(index.nodes, b);
  const before = countRefs(ast.program);
  const seen = new Set<N>();
  const reported = new Set<string>();
  const added = new Set<N>();
  const { names, free, release, factories, factory } = chooseNames(index.nodes);
  const keyExpression = options.keyExpression ?? DEFAULT_KEY_EXPRESSION;
  // What an earlier version of this tool wrote for a base URL read from the environment, as this one writes it.
  const repaired = text.includes('createClient')
    ? repairEarlierBase(ast.program, names.client, factories, b, code)
    : undefined;
  const existing = existingBase(index.nodes, names.client, factories, code, repaired?.code);
  const found = v1Sites(ast, b, elsewhere);
  // The file's adapter, and those it imports from another module of the run (or may: the run cannot tell). An
  // earlier run's adapter imported where the file makes no client or adapter is the one its rewritten calls use,
  // with the client it is made from (one client, one rate-limit budget): where the file can name that client and
  // its calls go to its base URL. An adapter goes with its client (its look-ups and uploads on the calls' API and
  // key), so where that client is out of reach the file makes both, its client marked as a second one.
  // A file that imports only such a client (the adapter it makes goes with it, or is made from it already) uses it.
  const imported = adapterOf ? importedAdapters(index.nodes, adapterOf) : undefined;
  const own = b.get(names.adapter);
  const theirs = own || existing ? undefined : imported?.known[0];
  let shared: ReturnType<typeof sharedClient> | undefined = theirs
    ? sharedClient(index.nodes, theirs, imported!, adapterOf!)
    : existing
      ? undefined
      : importedClient(index.nodes, imported, own, adapterOf);
  if (typeof shared === 'object') {
    const code = shared.base;
    const other = found.sites.some(({ site }) => {
      const v2 = v2BaseUrl(site.pieces, b, found.links);
      return typeof v2 === 'object' && v2.code !== code;
    });
    if (other) shared = undefined;
  }
  if (typeof shared === 'object') {
    if (theirs) release(names.adapter);
    release(names.client);
    names.adapter = theirs ?? names.adapter;
    names.client = shared.name ?? free(shared.export!);
  }
  // The adapter the module of the imported client exports made from it, where the file imports no adapter.
  const sharedAdapter = typeof shared === 'object' && !theirs ? shared.adapter : undefined;
  if (sharedAdapter) {
    release(names.adapter);
    names.adapter = sharedAdapter.name ?? free(sharedAdapter.export);
  }
  const base = typeof shared === 'object' ? { code: shared.base, envs: [], after: [] } : existing;
  const ctx: Context = {
    file,
    ...(project ? { project } : {}),
    ...(elsewhere ? { elsewhere } : {}),
    source: code,
    ast,
    b,
    names,
    factories,
    uploads: new ImageUploads(names.client, free, release),
    render: false,
    maps: { stores: options.stores ?? {}, products: options.productReferences ?? {} },
    findings: [],
    base,
    // A client the file already has (or imports) reads its key where it is.
    key: base ? [] : keyReadOrder(ast.program, keyExpression, b),
    adapter: false,
    rewrites: 0,
    left: [],
    codes: [],
    todo(node, what, reason, links, leftover = false) {
      const stmt = statementOf(links, node) ?? node;
      // One comment per statement; each V1 call in it is reported, what is left of V1 only once.
      if (seen.has(stmt) && (leftover || reported.has(`${what}@${node.start}`))) return;
      reported.add(`${what}@${node.start}`);
      seen.add(stmt);
      const had = hasTodo(stmt) && !added.has(stmt);
      if (addTodo(stmt, reason)) added.add(stmt);
      this.findings.push({
        // A node the rewrite made has no place in the source: its statement has.
        // A node the rewrite parsed from its own code has another text's lines: its statement has a place.
        ...position(file, node.loc && node.loc.lines === ast.loc?.lines ? node : stmt),
        kind: 'todo',
        what,
        detail: had ? `${reason} (TODO already in place)` : reason,
      });
    },
  };
  if (repaired?.detail)
    ctx.findings.push({
      ...position(file, repaired.at),
      kind: 'rewritten',
      what: 'V2 client of an earlier run',
      detail: repaired.detail,
    });
  const { links, sites, wrappers, bases, mocks } = found;
  for (const m of mocks) ctx.todo(m.node, `V1 mock (${m.lib})`, MOCK_REASON, links);
  for (const { site, lib, unsure } of sites) {
    if (unsure) ctx.left.push(site);
    if (unsure)
      ctx.todo(
        site.node,
        describe(site, lib),
        'a V1 endpoint under /v1, but without a V1 partner-code header in sight: if this is Partner Print V1, its credentials are built where this tool cannot see them.',
        links,
      );
    else handleSite(ctx, site, links, lib);
  }
  const adapters = adapterNames(names.adapter, factories, b, imported?.known);
  // The callback's order_reference_v2 is what V2 calls take: read it only where its value goes to V2 order calls
  // alone; order_reference stays the V1 code wherever else it goes (a log, a stored value, a V1 call), marked
  // unless its function reads order_reference_v2 too (the V1 code kept there on purpose).
  // A V1 order read this run rewrote by the callback's order_reference sends it to the adapter this run adds.
  const takes = ctx.adapter ? new Set([...adapters, names.adapter]) : adapters;
  const cb = indexTree(ast.program);
  const left: N[] = [];
  const v2 = new Set<N>();
  for (const n of cb.nodes) {
    if (callbackRead(n, cb.links, CALLBACK_ORDER_REFERENCE)) v2.add(functionOf(cb.links, n));
    const read = callbackRead(n, cb.links);
    if (!read) continue;
    const uses = usesOf(n, cb.nodes, cb.links, b);
    if (uses?.length && uses.every((u) => takesOrderReference(u, cb.links, takes))) {
      v2.add(functionOf(cb.links, n));
      queryType(ctx, n, cb);
      ctx.findings.push({
        ...position(file, n),
        kind: 'rewritten',
        what: CALLBACK_WHAT,
        detail: `${read()} (the Order_ reference V2 calls take)`,
      });
    } else left.push(n);
  }
  // A read left as it is (its V1 code logged, stored, …): the rewritten order read reads order_reference_v2 beside it.
  for (const { value, id, read } of ctx.codes)
    if (left.includes(read)) {
      const call = indexTree(value).nodes.find((n) => n.type === 'CallExpression' && n.arguments[0] === id);
      const code = v2ReadAt(read, call, cb.nodes, cb.links, ctx.source);
      // Seen at the call when it was planned: the file is reported as not rewritten rather than left wrong.
      if (!code) throw new Error('the callback read of order_reference_v2 is not where it was planned');
      call.arguments[0] = parseExpressionCode(code);
      queryType(ctx, read, cb);
      v2.add(functionOf(cb.links, read));
      ctx.findings.push({
        ...position(file, read),
        kind: 'rewritten',
        what: CALLBACK_WHAT,
        detail: `kept (its V1 code is used otherwise); the V2 order read reads ${code} (the Order_ reference of the same order)`,
      });
    }
  for (const n of left)
    if (!v2.has(functionOf(cb.links, n))) ctx.todo(n, CALLBACK_WHAT, CALLBACK_V1_CODE, cb.links);
  const now = indexTree(ast.program);
  for (const call of earlierOrderReferences(now.nodes, adapters, b))
    ctx.todo(call, 'order look-up of an earlier run', EARLIER_ORDER_REFERENCE, now.links);
  for (const [name, spec] of imported?.unknown ?? [])
    for (const call of earlierOrderReferences(now.nodes, new Set([name]), b))
      ctx.todo(
        call,
        'order look-up of an earlier run',
        `\`${name}\` is imported from ${spec}, which this run does not show to export a createV1Adapter(…) (a file left out of the run, or an export this tool does not follow); if it is the V1 adapter: ${EARLIER_ORDER_REFERENCE}`,
        now.links,
      );
  if (ctx.rewrites > 0) {
    if (typeof shared === 'object') shared.add?.(names.client);
    if (ctx.adapter) sharedAdapter?.add?.(names.adapter);
    const client = addSetup(ast.program, file, {
      keyExpression,
      stores: options.stores ?? {},
      baseUrl: ctx.base!.code,
      after: [...ctx.base!.after, ...(typeof ctx.key === 'string' ? [] : ctx.key)],
      adapter: ctx.adapter && !(typeof shared === 'object' && theirs) && !sharedAdapter,
      client: typeof shared !== 'object',
      render: ctx.render,
      names: ctx.names,
      // `createClient as createPartnerPrintClient` where the file binds `createClient` to another library's.
      factories: {
        client: factory('client', 'createPartnerPrintClient'),
        adapter: factory('adapter', 'createPartnerPrintV1Adapter'),
      },
    });
    // What the client reads otherwise is said above it, or above the import of the one the file shares.
    const now = typeof shared === 'object' ? indexTree(ast.program) : undefined;
    const imports =
      now &&
      statementOf(
        now.links,
        now.nodes.find((n) => isIdent(n, (theirs ?? names.client).split('.')[0])),
      );
    if (client ?? imports)
      markClient(
        ctx,
        client ?? imports,
        keyExpression,
        seen,
        typeof shared === 'string' ? [shared, theirs!] : undefined,
        typeof shared === 'object' ? shared.key : undefined,
      );
    removeUnused(ast.program, before);
    keepV1Reads(ast.program, ctx.base?.whole ?? []);
  }
  // The V1 calls left on a base-URL variable read its /v2 value as /v1 in every file, a client or not: a V2 client
  // of another file may derive its base URL from that variable, which may then hold V2's.
  keepV1Reads(
    ast.program,
    ctx.left.flatMap((site) => {
      const base = v2BaseUrl(site.pieces, b, links);
      return typeof base === 'string' ? [] : (base.whole ?? []);
    }),
  );
  markLeftovers(ctx, wrappers, bases, before);
  reportTodosInPlace(ctx, seen);
  const output = ctx.findings.length ? printAst(ast, text) : text;
  ctx.findings.sort((x, y) => x.line - y.line || x.column - y.column);
  return { file, output, changed: output !== text, findings: ctx.findings, secrets };
}

/** The query type of a callback read that now reads order_reference_v2: widened, or marked where another module writes it. */
function queryType(ctx: Context, read: N, cb: { nodes: N[]; links: Map<N, Link> }): void {
  const type = widenQueryType(
    read,
    cb.nodes,
    cb.links,
    ctx.source,
    /\.[cm]?jsx?$/.test(ctx.file),
    ctx.project,
  );
  if (type)
    ctx.todo(
      read,
      'legacy callback: query type',
      `order_reference_v2 is read from a query typed by ${type}: add it there beside order_reference, of the same type, where that type lacks it (the callback always sends both), or this read does not type-check.`,
      cb.links,
    );
}

/**
 * What the V2 client reads differently from the V1 code, said once above it (and in the report): a base URL derived
 * from an environment variable that held the V1 one (what it may hold, which this tool cannot see), and a
 * V1 key that was passed in at run time (the client reads one key, when the module loads).
 */
function markClient(
  ctx: Context,
  client: N,
  keyExpression: string,
  seen: Set<N>,
  apart?: [reason: string, adapter: string],
  /** Where the client another module makes (which the file shares) reads its key. */
  sharedKey?: string,
): void {
  const reasons: string[] = [];
  if (apart) {
    // Reported where the file names the adapter it imports.
    const at = indexTree(ctx.ast.program).nodes.find((n) => isIdent(n, apart[1].split('.')[0]));
    reasons.push(apart[0]);
    ctx.findings.push({
      ...position(ctx.file, at),
      kind: 'todo',
      what: 'second V2 client',
      detail: apart[0],
    });
  }
  const envs = ctx.base!.envs;
  if (envs.length) {
    const it = envs.join(' and ');
    const reason = derivedBaseReason(it);
    reasons.push(reason);
    ctx.findings.push({
      ...position(ctx.file, ctx.base!.at),
      kind: 'todo',
      what: `V1 base URL read from ${it}`,
      detail: reason,
    });
  }
  if (ctx.keyFrom) {
    const reason = `the V1 API key was passed in where the calls ran (\`${ctx.keyFrom.code}\`); this client reads one secret key, from ${sharedKey ?? (keyExpression === DEFAULT_KEY_EXPRESSION ? 'process.env.PARTNER_PRINT_SECRET_KEY' : 'the --key-expression')}, when ${sharedKey ? 'its' : 'the'} module loads: every caller now shares that key (one per organization), and it must be set there (a Workers runtime has no process.env without nodejs_compat).`;
    reasons.push(reason);
    ctx.findings.push({
      ...position(ctx.file, ctx.keyFrom.at),
      kind: 'todo',
      what: 'V1 credentials passed in at run time',
      detail: reason,
    });
  }
  if (!reasons.length) return;
  addTodo(client, reasons.join(' '));
  seen.add(client);
}

/** TODOs an earlier run left (on code that no longer looks like a V1 call, e.g. a field read): reported again. */
function reportTodosInPlace(ctx: Context, seen: Set<N>): void {
  for (const n of indexTree(ctx.ast.program).nodes) {
    if (seen.has(n)) continue;
    const c = (n.comments ?? []).find((x: N) => x.leading && String(x.value).includes(TODO_TAG));
    if (!c) continue;
    seen.add(n);
    const reason = String(c.value)
      .replace(TODO_TAG, '')
      .replace(/\s+—\s+\S+\s*$/, '')
      .trim();
    ctx.findings.push({
      ...position(ctx.file, n),
      kind: 'todo',
      what: 'TODO in place',
      detail: `${reason} (TODO already in place)`,
    });
  }
}

/**
 * A literal V1 order body without `partner_reference` (or `custom_identifier`): converted, it has no
 * `customIdentifier`, and V2 cannot tell a rerun from a new order. Say so where the order is created.
 */
function withoutIdentifier(body: N | 'opaque' | undefined, b: Bindings): string | undefined {
  const v = body && body !== 'opaque' ? b.resolve(body) : undefined;
  if (v?.type !== 'ObjectExpression' || v.properties.some((p: N) => p.type === 'SpreadElement'))
    return undefined;
  const keys = new Set(v.properties.map((p: N) => propName(p)));
  const inner = keys.has('order') && keys.size === 1 ? undefined : keys;
  if (!inner || inner.has('partner_reference') || inner.has('custom_identifier')) return undefined;
  return 'this V1 order has no partner_reference, so the V2 order has no customIdentifier and running this code again creates it again; add one (your order id) to make it exactly once.';
}
