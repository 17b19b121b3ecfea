import { isV1CredentialHeader } from '@partner-print/openapi/wire';
import { bare, isIdent, isString, type Link, memberPath, type N, objectProps, propName } from './ast.ts';
import { type Bindings, evalString, flatten, type Piece } from './values.ts';

/** The HTTP libraries a V1 integration calls the API with. */
export type HttpLib = 'fetch' | 'axios' | 'got' | 'ky';

const MODULES: Record<string, HttpLib> = { 'node-fetch': 'fetch', axios: 'axios', got: 'got', ky: 'ky' };
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head']);
/** Request options whose loss changes nothing a V2 call does (the client has its own timeouts and JSON). */
const HARMLESS = new Set([
  'method',
  'headers',
  'body',
  'json',
  'data',
  'url',
  'baseURL',
  'prefixUrl',
  'timeout',
  'responseType',
]);
const HARMLESS_HEADERS = new Set(['content-type', 'accept']);

export interface Instance {
  lib: HttpLib;
  base: Piece[];
  headers: N[];
  extra: string[];
}

export interface CallSite {
  node: N;
  /** `wrapper`: a fetch wrapper's call, which yields the parsed JSON. */
  lib: HttpLib | 'wrapper';
  method: string | undefined;
  /** The URL as text with `{hN}` for run-time parts; undefined when nothing of it is known. */
  url: { text: string; holes: N[] } | undefined;
  /** The URL's parts, with where each comes from (the V2 client's base URL is made of them). */
  pieces: Piece[];
  /** The JSON body's expression; 'opaque' for a body that is not JSON built from a value. */
  body: N | 'opaque' | undefined;
  headers: N[];
  /** The headers its V1 credentials are in, when not only `headers` (a fetch wrapper's own). */
  auth?: N[];
  /** Options the rewrite cannot carry over. */
  extra: string[];
}

/** Local names bound to the HTTP libraries (imports and requires), and the global `fetch`. */
export function libraryNames(nodes: N[], b: Bindings): Map<string, HttpLib> {
  const out = new Map<string, HttpLib>();
  for (const n of nodes) {
    if (n.type === 'ImportDeclaration' && MODULES[n.source.value]) {
      for (const s of n.specifiers) out.set(s.local.name, MODULES[n.source.value]!);
    } else if (n.type === 'TSImportEqualsDeclaration' && MODULES[importEqualsSource(n) ?? '']) {
      // TypeScript's `import axios = require('axios')`.
      out.set(n.id.name, MODULES[importEqualsSource(n)!]!);
    } else if (n.type === 'VariableDeclarator' && n.id.type === 'Identifier' && n.init) {
      const mod = requiredModule(n.init);
      if (mod && MODULES[mod]) out.set(n.id.name, MODULES[mod]!);
    } else if (n.type === 'VariableDeclarator' && n.id.type === 'ObjectPattern' && n.init) {
      const mod = requiredModule(n.init);
      if (mod && MODULES[mod])
        for (const p of n.id.properties) if (isIdent(p.value)) out.set(p.value.name, MODULES[mod]!);
    }
  }
  if (!out.has('fetch') && !b.declared('fetch')) out.set('fetch', 'fetch');
  return out;
}

/** The module of `import x = require('m')` ('m'), undefined for `import x = A.B`. */
export const importEqualsSource = (n: N): string | undefined =>
  n.moduleReference?.type === 'TSExternalModuleReference' ? n.moduleReference.expression?.value : undefined;

/** `require('x')` or `require('x').default` → 'x'. */
export function requiredModule(init: N): string | undefined {
  let n = bare(init);
  if (n.type === 'MemberExpression' && propName(n) === 'default') n = bare(n.object);
  if (n.type === 'AwaitExpression') n = n.argument;
  if (n.type === 'CallExpression' && isIdent(n.callee, 'require') && isString(n.arguments[0]))
    return n.arguments[0].value;
  if (n.type === 'ImportExpression' && isString(n.source)) return n.source.value;
  return undefined;
}

function configOf(lib: HttpLib, cfg: N | undefined, b: Bindings): Instance | undefined {
  const c = cfg ? objectProps(b.resolve(cfg)) : new Map<string, N>();
  if (!c) return undefined;
  const baseNode = c.get(lib === 'axios' ? 'baseURL' : 'prefixUrl');
  return {
    lib,
    base: baseNode ? evalString(baseNode, b) : [],
    headers: c.has('headers') ? [c.get('headers')] : [],
    extra: [...c.keys()].filter((k) => !HARMLESS.has(k)),
  };
}

/**
 * What is set on an axios instance (or axios itself) outside its config object: `x.defaults.… = …` and
 * `x.interceptors.request|response.use(…)`. A base URL and headers set there are read like the config's; any of
 * it is named in `extra`, so the calls through it are marked (a default or an interceptor is global, mutable
 * state the V2 client would not have).
 */
function configTweaks(nodes: N[], b: Bindings): Map<string, Omit<Instance, 'lib'>> {
  const out = new Map<string, Omit<Instance, 'lib'>>();
  const of = (owner: string) => {
    if (!out.has(owner)) out.set(owner, { base: [], headers: [], extra: [] });
    return out.get(owner)!;
  };
  for (const n of nodes) {
    const target =
      n.type === 'AssignmentExpression' ? n.left : n.type === 'CallExpression' ? n.callee : undefined;
    const chain = target ? memberChain(target) : undefined;
    if (!chain) continue;
    const { root, props } = chain;
    const at = props.findIndex((p) => p === 'defaults' || p === 'interceptors');
    if (at < 0) continue;
    const owner = [root, ...props.slice(0, at)].join('.');
    const rest = props.slice(at + 1);
    if (props[at] === 'interceptors' && n.type === 'CallExpression' && rest[rest.length - 1] === 'use') {
      of(owner).extra.push('interceptors');
    } else if (props[at] === 'defaults' && n.type === 'AssignmentExpression') {
      const t = of(owner);
      t.extra.push(`${owner}.defaults`);
      if (rest.length === 1 && rest[0] === 'baseURL') t.base = evalString(n.right, b);
      else if (rest[0] === 'headers' && rest.length >= 2) {
        const name = rest[rest.length - 1]!;
        t.headers.push({
          type: 'ObjectExpression',
          properties: [
            { type: 'ObjectProperty', key: { type: 'StringLiteral', value: name }, value: n.right },
          ],
        });
      }
    }
  }
  return out;
}

/** `a.b['c'].d` → root `a`, props [b, c, d] (a computed name not known statically is `?`). */
function memberChain(n: N): { root: string; props: string[] } | undefined {
  const props: string[] = [];
  let cur = bare(n);
  while (cur?.type === 'MemberExpression') {
    props.unshift(propName(cur) ?? '?');
    cur = bare(cur.object);
  }
  const root = memberPath(cur);
  return root && props.length ? { root, props } : undefined;
}

/** `axios.create(cfg)`, `got.extend(cfg)`, `ky.create(cfg)` bound to a name or `this.x`. */
export function findInstances(nodes: N[], libs: Map<string, HttpLib>, b: Bindings): Map<string, Instance> {
  const out = new Map<string, Instance>();
  const tweaks = configTweaks(nodes, b);
  // axios itself set up through axios.defaults: its calls (and the instances it creates) carry that.
  for (const [owner, t] of tweaks) if (libs.get(owner) === 'axios') out.set(owner, { lib: 'axios', ...t });
  const consider = (key: string | undefined, value: N) => {
    const v = bare(value ?? {});
    if (!key || v.type !== 'CallExpression' || v.callee.type !== 'MemberExpression') return;
    const owner = memberPath(v.callee.object);
    const verb = propName(v.callee);
    const lib = owner ? (libs.get(owner) ?? out.get(owner)?.lib) : undefined;
    if (!lib || lib === 'fetch' || !(verb === 'create' || verb === 'extend')) return;
    const inst = configOf(lib, v.arguments[0], b);
    const parent = owner ? out.get(owner) : undefined;
    if (inst) out.set(key, parent ? mergeInstance(parent, inst) : inst);
  };
  for (const n of nodes) {
    if (n.type === 'VariableDeclarator' && n.id.type === 'Identifier') consider(n.id.name, n.init);
    else if ((n.type === 'ClassProperty' || n.type === 'PropertyDefinition') && isIdent(n.key))
      consider(`this.${n.key.name}`, n.value);
    else if (n.type === 'AssignmentExpression') consider(memberPath(n.left), n.right);
  }
  for (const [owner, t] of tweaks) {
    const inst = out.get(owner);
    if (inst && !libs.has(owner)) out.set(owner, mergeInstance(inst, { lib: inst.lib, ...t }));
  }
  return out;
}

function mergeInstance(parent: Instance, child: Instance): Instance {
  return {
    lib: parent.lib,
    base: child.base.length ? child.base : parent.base,
    headers: [...parent.headers, ...child.headers],
    extra: [...parent.extra, ...child.extra],
  };
}

function joinUrl(base: Piece[], path: Piece[]): Piece[] {
  const first = path[0];
  if (!base.length || (first && 'text' in first && /^https?:/i.test(first.text))) return path;
  const last = base[base.length - 1];
  const endsSlash = last && 'text' in last && last.text.endsWith('/');
  const startsSlash = first && 'text' in first && first.text.startsWith('/');
  if (endsSlash && startsSlash)
    return [...base.slice(0, -1), { ...last, text: (last as { text: string }).text.slice(0, -1) }, ...path];
  if (!endsSlash && !startsSlash) return [...base, { text: '/' }, ...path];
  return [...base, ...path];
}

interface Raw {
  lib: HttpLib;
  inst?: Instance;
  method?: string;
  urlNode?: N;
  opts?: N;
  data?: N;
}

/** Splits a call into library, method, URL, body and options, or undefined when it is no HTTP call. */
function rawCall(call: N, libs: Map<string, HttpLib>, instances: Map<string, Instance>): Raw | undefined {
  const callee = bare(call.callee);
  const args = call.arguments;
  const direct = memberPath(callee);
  const target = direct
    ? (instances.get(direct) ?? (libs.has(direct) ? { lib: libs.get(direct)! } : undefined))
    : undefined;
  if (target) {
    const inst = 'base' in target ? (target as Instance) : undefined;
    const lib = target.lib;
    if (lib === 'axios' && args[0]?.type === 'ObjectExpression') return { lib, inst, opts: args[0] };
    return { lib, inst, urlNode: args[0], opts: args[1] };
  }
  if (callee.type !== 'MemberExpression') return undefined;
  const owner = memberPath(callee.object);
  const verb = propName(callee);
  if (!owner || !verb) return undefined;
  const inst = instances.get(owner);
  const lib = inst?.lib ?? libs.get(owner);
  if (!lib || lib === 'fetch') return undefined;
  if (verb === 'request' && lib === 'axios') return { lib, inst, opts: args[0] };
  if (!METHODS.has(verb)) return undefined;
  const method = verb.toUpperCase();
  if (lib === 'axios' && ['POST', 'PUT', 'PATCH'].includes(method))
    return { lib, inst, method, urlNode: args[0], data: args[1], opts: args[2] };
  return { lib, inst, method, urlNode: args[0], opts: args[1] };
}

/** Reads a call of one of the HTTP libraries. */
export function readCall(
  call: N,
  libs: Map<string, HttpLib>,
  instances: Map<string, Instance>,
  b: Bindings,
): CallSite | undefined {
  const raw = rawCall(call, libs, instances);
  if (!raw) return undefined;
  const opts = raw.opts ? objectProps(b.resolve(raw.opts)) : new Map<string, N>();
  const extra = [...(raw.inst?.extra ?? [])];
  if (!opts) extra.push('options not known statically');
  const o = opts ?? new Map<string, N>();
  for (const k of o.keys()) if (!HARMLESS.has(k)) extra.push(k);
  const methodNode = o.get('method');
  const method =
    raw.method ??
    (methodNode
      ? isString(b.resolve(methodNode))
        ? b.resolve(methodNode).value.toUpperCase()
        : undefined
      : 'GET');
  const urlNode = raw.urlNode ?? o.get('url');
  const base = raw.inst?.base ?? [];
  const ownBase = o.get(raw.lib === 'axios' ? 'baseURL' : 'prefixUrl');
  const path = urlNode ? evalString(urlNode, b) : [];
  const pieces = joinUrl(ownBase ? evalString(ownBase, b) : base, path);
  return {
    node: call,
    lib: raw.lib,
    method,
    url: pieces.length ? flatten(pieces) : undefined,
    pieces,
    body: bodyOf(raw, o, b),
    headers: [...(raw.inst?.headers ?? []), ...(o.has('headers') ? [o.get('headers')] : [])],
    extra,
  };
}

function bodyOf(raw: Raw, o: Map<string, N>, b: Bindings): N | 'opaque' | undefined {
  if (raw.data) return raw.data;
  if (raw.lib === 'axios' && o.has('data')) return o.get('data');
  if ((raw.lib === 'got' || raw.lib === 'ky') && o.has('json')) return o.get('json');
  const body = o.get('body');
  if (!body) return undefined;
  const v = b.resolve(body);
  if (v.type === 'CallExpression' && memberPath(v.callee) === 'JSON.stringify' && v.arguments.length === 1)
    return v.arguments[0];
  return 'opaque';
}

/** The header names of the objects, through constants and spreads; undefined when one is not known statically. */
export function headerNames(headers: N[], b: Bindings): string[] | undefined {
  const names: string[] = [];
  const read = (h: N, depth: number): boolean => {
    const v = b.resolve(h);
    if (v.type !== 'ObjectExpression' || depth > 4) return false;
    for (const p of v.properties) {
      if (p.type === 'SpreadElement') {
        if (!read(p.argument, depth + 1)) return false;
      } else {
        const name = propName(p);
        if (name === undefined) return false;
        names.push(name);
      }
    }
    return true;
  };
  for (const h of headers) if (!read(h, 0)) return undefined;
  return names;
}

/** Why the headers cannot be dropped (not all V1 credentials or harmless), or undefined when they can. */
export function headerProblem(headers: N[], b: Bindings): string | undefined {
  const names = headerNames(headers, b);
  if (!names) return 'its headers are not known statically';
  const other = names.filter((n) => !isV1CredentialHeader(n) && !HARMLESS_HEADERS.has(n.toLowerCase()));
  return other.length ? `it sends headers the V2 client would not send (${other.join(', ')})` : undefined;
}

/** Links of nodes for callers that need to climb from a call. */
export type Links = Map<N, Link>;
