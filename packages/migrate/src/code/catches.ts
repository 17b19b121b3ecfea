import { bare, indexTree, isIdent, type Link, memberPath, type N, propName } from './ast.ts';

/** Reads of an error that say the same of a V2 error (a log line's text). */
const PLAIN_READS = new Set(['message', 'stack']);

/**
 * Why a V1 call cannot be rewritten where it is: it runs inside a `try` (in its own function) whose `catch` reads
 * what the V1 HTTP library threw (`e.response.status`, `axios.isAxiosError(e)`, `e instanceof HTTPError`). The
 * V2 client throws a `PartnerPrintError` (`status`, `code`) instead, so such a catch would take another branch.
 * A catch that only logs, passes on or rethrows the error, or reads its message, is no reason.
 */
export function catchProblem(call: N, links: Map<N, Link>): string | undefined {
  let cur = call;
  for (let l = links.get(cur); l; cur = l.parent, l = links.get(cur)) {
    const p = l.parent;
    if (/Function|ObjectMethod|ClassMethod|ClassPrivateMethod/.test(p.type)) return undefined;
    if (p.type !== 'TryStatement' || l.key !== 'block' || !p.handler?.param) continue;
    const read = errorRead(p.handler);
    if (read)
      return `it is inside a try whose catch ${read}, and the V2 client throws a PartnerPrintError (status, code) instead of the V1 library's error`;
  }
  return undefined;
}

/** What the catch clause reads of its error beyond its message, or undefined. */
function errorRead(handler: N): string | undefined {
  const param = handler.param;
  if (!isIdent(param)) return 'destructures the error';
  const name = param.name;
  const { nodes, links } = indexTree(handler.body);
  for (const n of nodes) {
    if (!isIdent(n, name)) continue;
    const l = links.get(n);
    if (!l || (/Member/.test(l.parent.type) && l.key === 'property' && !l.parent.computed)) continue;
    // Through `(e as AxiosError)`, `e!`, parentheses.
    let at = n;
    let up = l;
    while (up && bare(up.parent) === n && up.parent !== n) {
      at = up.parent;
      up = links.get(at) as Link;
    }
    const parent = up?.parent;
    if (!parent) continue;
    if (/Member/.test(parent.type) && up.key === 'object') {
      const field = propName(parent);
      if (field !== undefined && PLAIN_READS.has(field)) continue;
      return `reads \`${name}.${field ?? '[…]'}\``;
    }
    if (parent.type === 'BinaryExpression' && parent.operator === 'instanceof' && up.key === 'left') {
      if (isIdent(parent.right, 'Error')) continue;
      return `tests \`${name} instanceof ${memberPath(parent.right) ?? '…'}\``;
    }
    if (parent.type === 'CallExpression' && up.key === 'arguments') {
      const callee = memberPath(parent.callee) ?? '';
      if (/isAxiosError|HTTPError|isHttpError/i.test(callee)) return `tests it with ${callee}`;
    }
  }
  return undefined;
}
