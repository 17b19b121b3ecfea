import { isV1CredentialHeader } from '@partner-print/openapi/wire';
import { bare, functionOf, indexTree, isIdent, type Link, memberPath, type N, propName } from './ast.ts';
import type { HttpLib } from './calls.ts';
import { type Bindings, evalString, flatten, type Piece, v1Split } from './values.ts';

/**
 * A fetch wrapper: `async function request(path, init) { const res = await fetch(BASE + path, { ...init,
 * headers: { V1 credentials, ...init.headers } }); if (!res.ok) throw …; return res.json(); }`. Its calls
 * (`await request('/orders', { method: 'POST', body: JSON.stringify(order) })`) are V1 calls whose path is
 * known where they are made; they are read as fetch calls on the wrapper's base URL.
 */
export interface Wrapper {
  key: string;
  base: Piece[];
  /** The wrapper's own fetch (left alone: it goes away with the wrapper once no call uses it). */
  fetchCall: N;
}

const HARMLESS_HEADERS = new Set(['content-type', 'accept']);

function paramName(p: N): string | undefined {
  const b = p?.type === 'AssignmentPattern' ? p.left : p;
  return isIdent(b) ? b.name : undefined;
}

/** The wrapper's fetch init only forwards the caller's init and adds V1 credentials. */
function forwardsOnly(init: N | undefined, initParam: string | undefined, b: Bindings): boolean {
  if (!init) return true;
  const v = b.resolve(init);
  if (initParam && isIdent(v, initParam)) return true;
  if (v.type !== 'ObjectExpression') return false;
  return v.properties.every((p: N) => {
    if (p.type === 'SpreadElement') return initParam !== undefined && isIdent(bare(p.argument), initParam);
    const name = propName(p);
    if (name === 'headers') return headersForward(p.value, initParam, b);
    return (
      name !== undefined &&
      ['method', 'body'].includes(name) &&
      memberPath(bare(p.value))?.startsWith(`${initParam}.`)
    );
  });
}

function headersForward(h: N, initParam: string | undefined, b: Bindings): boolean {
  const v = b.resolve(h);
  if (v.type !== 'ObjectExpression') return false;
  return v.properties.every((p: N) => {
    if (p.type === 'SpreadElement') {
      const path =
        memberPath(bare(p.argument)) ??
        (bare(p.argument).type === 'OptionalMemberExpression'
          ? `${memberPath(bare(p.argument).object)}.headers`
          : undefined);
      return (
        (initParam !== undefined && path === `${initParam}.headers`) ||
        headersForward(p.argument, initParam, b)
      );
    }
    const name = propName(p);
    return name !== undefined && (isV1CredentialHeader(name) || HARMLESS_HEADERS.has(name.toLowerCase()));
  });
}

/** `res` is only checked with `ok` and returned as `res.json()`. */
function returnsJson(fn: N, fetchCall: N, links: Map<N, Link>): boolean {
  const a = links.get(fetchCall)?.parent;
  if (a?.type !== 'AwaitExpression') return false;
  const d = links.get(a)?.parent;
  if (d?.type === 'MemberExpression' && propName(d) === 'json')
    return links.get(links.get(d)?.parent)?.parent?.type === 'ReturnStatement';
  if (d?.type !== 'VariableDeclarator' || !isIdent(d.id)) return false;
  const { nodes, links: l } = indexTree(fn.body);
  // `throw new Error(\`… ${res.status}\`)` reads the response only to fail.
  const inThrow = (n: N) => {
    for (let cur = l.get(n)?.parent; cur; cur = l.get(cur)?.parent)
      if (cur.type === 'ThrowStatement') return true;
    return false;
  };
  const uses = nodes.filter((n) => isIdent(n, d.id.name) && n !== d.id);
  return (
    uses.length > 0 &&
    uses.every((u) => {
      if (inThrow(u)) return true;
      const m = l.get(u)?.parent;
      if (m?.type !== 'MemberExpression' || m.object !== u) return false;
      if (propName(m) === 'ok') return true;
      const call = l.get(m)?.parent;
      let up = l.get(call)?.parent;
      while (up && /^(AwaitExpression|TSAsExpression|ParenthesizedExpression)$/.test(up.type))
        up = l.get(up)?.parent;
      return propName(m) === 'json' && call?.type === 'CallExpression' && up?.type === 'ReturnStatement';
    })
  );
}

function wrapperKey(fn: N, links: Map<N, Link>): string | undefined {
  if (fn.type === 'FunctionDeclaration' && fn.id) return fn.id.name;
  const l = links.get(fn);
  if (l?.parent.type === 'VariableDeclarator' && isIdent(l.parent.id)) return l.parent.id.name;
  if ((fn.type === 'ClassMethod' || fn.type === 'ObjectMethod') && isIdent(fn.key))
    return `this.${fn.key.name}`;
  return undefined;
}

export function findWrappers(
  nodes: N[],
  links: Map<N, Link>,
  libs: Map<string, HttpLib>,
  b: Bindings,
): Map<string, Wrapper> {
  const out = new Map<string, Wrapper>();
  for (const call of nodes) {
    if (
      call.type !== 'CallExpression' ||
      !isIdent(bare(call.callee)) ||
      libs.get(bare(call.callee).name) !== 'fetch'
    )
      continue;
    const fn = functionOf(links, call);
    if (!fn) continue;
    const pathParam = paramName(fn.params[0]);
    const initParam = paramName(fn.params[1]);
    const pieces = evalString(call.arguments[0], b);
    const last = pieces[pieces.length - 1];
    if (!pathParam || !last || !('hole' in last) || !isIdent(last.hole, pathParam)) continue;
    const base = pieces.slice(0, -1);
    const { text } = flatten(base);
    if (v1Split(text) < 0 || text.slice(v1Split(text)).replace(/\//g, '') !== '') continue;
    if (!forwardsOnly(call.arguments[1], initParam, b) || !returnsJson(fn, call, links)) continue;
    const key = wrapperKey(fn, links);
    if (key) out.set(key, { key, base, fetchCall: call });
  }
  return out;
}
