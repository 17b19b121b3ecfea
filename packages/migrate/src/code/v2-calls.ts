import { ENDPOINT_MAP, type EndpointMapping, mapV1Endpoint } from '../endpoints.ts';
import { V2_ORDER_REFERENCE } from '../references.ts';
import { bare, isIdent, isString, type N } from './ast.ts';
import {
  CALLBACK_ORDER_REFERENCE,
  isQueryObject,
  readsCallbackOrderReference,
  resolveRead,
} from './callbacks.ts';
import { orderReads, type ReadMapper } from './consumers.ts';
import { imageReads, planImageUpload } from './image-call.ts';
import type { StaticImage } from './images.ts';
import { parseExpressionCode } from './parse.ts';
import { planRender, renderReads } from './render-call.ts';
import type { StaticOrder } from './static-order.ts';
import { stockReads, stockTarget, stockValue } from './stock.ts';
import type { Bindings } from './values.ts';
import { v1Split } from './values.ts';

/**
 * The names the rewritten code binds: the V2 client, the run-time V1 adapter and `renderMockup` (free names of
 * the file, or the ones an earlier run bound).
 */
export interface Names {
  client: string;
  adapter: string;
  render: string;
}

/** What a plan reads the V1 call's values with. */
export interface PlanContext {
  names: Names;
  b: Bindings;
  /** The V2 order body written out, when the V1 body converts without running. */
  staticOrder(body: N): StaticOrder | undefined;
  /** A base64 image written out in the code, decoded (undefined for anything else). */
  staticBytes(image: N): StaticImage | undefined;
  /** The name a static image's upload is bound to, declared above the call once it is rewritten. */
  image(image: N): string | undefined;
  /**
   * The callback's read of `order_reference` an order identifier is, where `order_reference_v2` can be read
   * instead at the call (`callbackCodeRead`, `v2ReadAt`).
   */
  callbackCode(id: N): N | undefined;
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
  | {
      ok: true;
      endpoint: EndpointMapping;
      value: () => N;
      needsAdapter: boolean;
      /** How the code's reads of the V1 answer map to the V2 value. */
      reads: ReadMapper;
      /** Whether the value calls `renderMockup` (imported from `@partner-print/render`). */
      render?: boolean;
      /** The V2 calls the value makes, when the reads chose among the endpoint's (`GET /items`). */
      target?: (value: N) => string | undefined;
      /**
       * Why the call is left on V1 even if everything else maps (an order identifier that may be a V1 code),
       * said together with any other reason the call has, so one TODO names all that is to be done by hand.
       */
      unproven?: string;
      /**
       * The identifier is the callback's `order_reference` (`read`): once rewritten, the read becomes
       * `order_reference_v2` where its value goes to V2 order calls alone, else the call reads that beside it.
       */
      callbackCode?: { id: N; read: N };
    }
  | { ok: false; endpoint?: EndpointMapping; reason: string };

/** The V2 order read; `resolve` the adapter's method that turns the identifier into an `Order_` reference. */
const orderRead = (n: Names, resolve?: 'orderReference' | 'orderReferenceByPartnerReference') =>
  `(await ${n.client}.get('/orders/{orderReference}', { params: { path: { orderReference: ${resolve ? `await ${n.adapter}.${resolve}(__pp0__)` : '__pp0__'} } } })).order`;

/**
 * Why V1's GET /orders/{reference} is left on V1 when its identifier is not known to be an `Order_` reference:
 * V1 reads it by V1 code, and V2 has no look-up by V1 code.
 */
export const V1_ORDER_CODE_REASON =
  "its identifier may be a V1 order code (<store_code>-<number>), and V2 has no look-up by V1 order code (the custom-identifier look-up would find another order): use the Order_ reference V2 gives (its POST /orders answer, the callback's order_reference_v2) and a mapping of V1 codes for older orders; a partner reference goes through v1.orderReferenceByPartnerReference";

/**
 * How an order identifier of V1's GET /orders/{reference} is known to be an `Order_` reference: written out (or
 * a constant of one), or read from the legacy callback's `order_reference_v2`. Undefined when it is not known.
 */
export function orderReferenceKind(id: N, b: Bindings): 'literal' | 'callback' | undefined {
  const v = resolveRead(id, b);
  if (isString(v) && V2_ORDER_REFERENCE.test(v.value)) return 'literal';
  if (readsCallbackOrderReference(v)) return 'callback';
  // `const { order_reference_v2: ref } = req.query`.
  const picked = b.pickedAt(v);
  if (picked?.key === CALLBACK_ORDER_REFERENCE && isQueryObject(bare(picked.from))) return 'callback';
  return undefined;
}

/** `encodeURIComponent(x)` → x: the SDK encodes path parameters itself. */
function unencoded(n: N): N {
  const b = bare(n);
  return b.type === 'CallExpression' && isIdent(b.callee, 'encodeURIComponent') && b.arguments.length === 1
    ? b.arguments[0]
    : n;
}

/**
 * The one order identifier in a V1 path: the whole segment after `/orders/`, or the whole value of the
 * partner reference (a run-time part, or literal text). A part of one (`/orders/ACME1-${n}`) is not it.
 */
function orderIdentifier(path: string, holes: N[], endpoint: string): N | undefined {
  const m =
    endpoint === 'get-order'
      ? /^\/orders\/([^/?#]+)\/?$/.exec(path)
      : /partner[-_]?reference[=/]([^/?&#]+)\/?$/i.exec(path);
  const value = m?.[1];
  // The path's own run-time parts (a run-time host before the `/v1` is no part of the identifier).
  const inPath = path.match(/\{h\d+\}/g)?.length ?? 0;
  if (value === undefined || inPath > 1) return undefined;
  const hole = /^\{h(\d+)\}$/.exec(value);
  if (hole) return unencoded(holes[Number(hole[1])]);
  if (inPath) return undefined;
  return { type: 'StringLiteral', value: decodeURIComponent(value) };
}

/**
 * The query of a V1 path the V2 call would drop (undefined when there is none): only the look-up by partner
 * reference takes one, the partner reference itself.
 */
function droppedQuery(path: string, endpoint: string): string | undefined {
  const at = path.search(/[?#]/);
  if (at < 0) return undefined;
  const query = path.slice(at + 1);
  const params = query.split('&').filter((p) => p !== '');
  if (endpoint === 'lookup-by-partner-reference' && path[at] === '?')
    return params.every((p) => /^partner[-_]?reference=/i.test(p)) && params.length === 1 ? undefined : query;
  return query;
}

/** A query's parameter names (`api_key, include`), without their values. */
const queryNames = (query: string) =>
  query
    .split('&')
    .filter((p) => p !== '')
    .map((p) => p.split('=')[0]!.replace(/\{h\d+\}/g, '…'))
    .join(', ');

/** What a V1 call becomes, or why it is left as it is. */
export function planCall(
  ctx: PlanContext,
  method: string | undefined,
  url: { text: string; holes: N[] },
  body: N | 'opaque' | undefined,
): Plan {
  const names = ctx.names;
  const at = v1Split(url.text);
  // Sent with a V1 credential header, but no `/v1` in what is known of the URL.
  if (at < 0) return { ok: false, reason: 'its base URL is only known at run time' };
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
  const query = endpoint.id === 'stock' ? undefined : droppedQuery(path, endpoint.id);
  if (query !== undefined)
    return {
      ok: false,
      endpoint,
      // Named by its parameters: a value may be a key.
      reason: `its query (${queryNames(query)}) has no place in the V2 call`,
    };
  // A created order is answered with its reference only; the look-up by partner reference reads the order.
  const reads = orderReads(endpoint.id === 'create-order' ? 'create' : 'read');
  const ok = { ok: true as const, endpoint, reads };
  switch (endpoint.id) {
    case 'create-order': {
      if (body === undefined || body === 'opaque')
        return { ok: false, endpoint, reason: 'the order body is not JSON built from a value' };
      const known = ctx.staticOrder(body);
      return {
        ...ok,
        needsAdapter: known ? known.needsAdapter : true,
        value: () =>
          known
            ? fill(`(await ${names.client}.createOrder(${known.code})).order`, known.nodes)
            : fill(`(await ${names.client}.createOrder(await ${names.adapter}.toV2Order(__pp0__))).order`, [
                body,
              ]),
      };
    }
    case 'get-order':
    case 'lookup-by-partner-reference': {
      const id = orderIdentifier(path, url.holes, endpoint.id);
      if (!id) return { ok: false, endpoint, reason: 'the order identifier in its path is not one value' };
      if (endpoint.id === 'lookup-by-partner-reference')
        return {
          ...ok,
          needsAdapter: true,
          value: () => fill(orderRead(names, 'orderReferenceByPartnerReference'), [id]),
        };
      const kind = orderReferenceKind(id, ctx.b);
      const read = kind ? undefined : ctx.callbackCode(id);
      if (read)
        return {
          ...ok,
          needsAdapter: true,
          value: () => fill(orderRead(names, 'orderReference'), [id]),
          callbackCode: { id, read },
        };
      if (!kind)
        return {
          ...ok,
          needsAdapter: false,
          value: () => fill(orderRead(names), [id]),
          unproven: V1_ORDER_CODE_REASON,
        };
      const literal = kind === 'literal' && isString(id);
      return {
        ...ok,
        needsAdapter: !literal,
        value: () => fill(orderRead(names, literal ? undefined : 'orderReference'), [id]),
      };
    }
    case 'stock':
      if (/\?/.test(path))
        return { ok: false, endpoint, reason: 'it passes a query V2 lists do not document' };
      return {
        ...ok,
        needsAdapter: false,
        reads: stockReads,
        value: () => fill(stockValue(names.client), []),
        target: stockTarget,
      };
    case 'images':
    case 'render': {
      const planned = endpoint.id === 'images' ? planImageUpload(body, ctx) : planRender(body, ctx);
      if (typeof planned === 'string') return { ok: false, endpoint, reason: planned };
      return {
        ...ok,
        needsAdapter: planned.slots.needsAdapter,
        reads: endpoint.id === 'images' ? imageReads : renderReads,
        render: endpoint.id === 'render',
        value: () => fill(planned.code, planned.slots.nodes),
      };
    }
  }
  return { ok: false, endpoint, reason: endpoint.note };
}

export { ENDPOINT_MAP };
