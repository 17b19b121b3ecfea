import { ENDPOINT_MAP, type EndpointMapping, mapV1Endpoint } from '../endpoints.ts';
import { bare, isIdent, type N } from './ast.ts';
import { parseExpressionCode } from './parse.ts';
import type { StaticOrder } from './static-order.ts';
import { v1Split } from './values.ts';

/** The names the rewritten code binds: the V2 client and the run-time V1 adapter (free names of the file). */
export interface Names {
  client: string;
  adapter: string;
}

/** An expression from code with `__ppN__` placeholders replaced by existing nodes. */
export function fill(code: string, nodes: N[]): N {
  const expr = parseExpressionCode(code);
  const stack: N[] = [expr];
  while (stack.length) {
    const n = stack.pop()!;
    for (const key of Object.keys(n)) {
      if (key === 'loc' || key === 'tokens') continue;
      const v = n[key];
      const list = Array.isArray(v) ? v : [v];
      list.forEach((c: N, i: number) => {
        if (!c || typeof c !== 'object' || typeof c.type !== 'string') return;
        const m = c.type === 'Identifier' ? /^__pp(\d+)__$/.exec(c.name) : null;
        if (m) {
          if (Array.isArray(v)) v[i] = nodes[Number(m[1])];
          else n[key] = nodes[Number(m[1])];
        } else stack.push(c);
      });
    }
  }
  return expr;
}

export type Plan =
  | { ok: true; endpoint: EndpointMapping; value: () => N; needsAdapter: boolean }
  | { ok: false; endpoint?: EndpointMapping; reason: string };

const orderRead = (n: Names) =>
  `(await ${n.client}.get('/orders/{orderReference}', { params: { path: { orderReference: await ${n.adapter}.orderReference(__pp0__) } } })).order`;

/** `encodeURIComponent(x)` → x: the SDK encodes path parameters itself. */
function unencoded(n: N): N {
  const b = bare(n);
  return b.type === 'CallExpression' && isIdent(b.callee, 'encodeURIComponent') && b.arguments.length === 1
    ? b.arguments[0]
    : n;
}

/** The one order identifier in a V1 path (a run-time part, or a literal segment). */
function orderIdentifier(path: string, holes: N[], endpoint: string): N | undefined {
  const all = [...path.matchAll(/\{h(\d+)\}/g)];
  if (all.length === 1) return unencoded(holes[Number(all[0]![1])]);
  if (all.length > 0) return undefined;
  const m =
    endpoint === 'get-order'
      ? /^\/orders\/([^/?#]+)\/?$/.exec(path)
      : /partner[-_]?reference[=/]([^/&#]+)/i.exec(path);
  return m ? { type: 'StringLiteral', value: decodeURIComponent(m[1]!) } : undefined;
}

/** What a V1 call becomes, or why it is left as it is. */
export function planCall(
  names: Names,
  method: string | undefined,
  url: { text: string; holes: N[] },
  body: N | 'opaque' | undefined,
  /** The V2 body written out, when the V1 body converts without running. */
  toStatic?: (body: N) => StaticOrder | undefined,
): Plan {
  const at = v1Split(url.text);
  const path = url.text.slice(at) || '/';
  if (!method) return { ok: false, reason: 'its HTTP method is only known at run time' };
  if (/^\/?\{h\d+\}/.test(path))
    return { ok: false, reason: 'the V1 path is only known at run time (a request wrapper?)' };
  const endpoint = mapV1Endpoint(method, path);
  if (!endpoint)
    return {
      ok: false,
      reason: `${method} ${path.replace(/\{h\d+\}/g, '…')} is not a V1 endpoint of the reference`,
    };
  if (endpoint.id === 'create-order') {
    if (body === undefined || body === 'opaque')
      return { ok: false, endpoint, reason: 'the order body is not JSON built from a value' };
    const known = toStatic?.(body);
    return {
      ok: true,
      endpoint,
      needsAdapter: known ? known.needsAdapter : true,
      value: () =>
        known
          ? fill(`(await ${names.client}.createOrder(${known.code})).order`, known.nodes)
          : fill(`(await ${names.client}.createOrder(await ${names.adapter}.toV2Order(__pp0__))).order`, [
              body,
            ]),
    };
  }
  if (endpoint.id === 'get-order' || endpoint.id === 'lookup-by-partner-reference') {
    const id = orderIdentifier(path, url.holes, endpoint.id);
    if (!id) return { ok: false, endpoint, reason: 'the order identifier in its path is not one value' };
    return { ok: true, endpoint, needsAdapter: true, value: () => fill(orderRead(names), [id]) };
  }
  return { ok: false, endpoint, reason: endpoint.note };
}

export { ENDPOINT_MAP };
