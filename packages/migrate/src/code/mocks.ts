import { isIdent, memberPath, type N, propName } from './ast.ts';
import { type Bindings, evalString, flatten, v1Split } from './values.ts';

/**
 * Tests that mock the V1 API (nock, msw) describe V1 answers; the rewritten code asks V2, whose answers
 * have another shape. A mock is never translated: it is marked, with the V2 way to test (the sandbox).
 */
const MOCK_MODULES = new Set(['nock', 'msw']);
const MSW_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'all']);

export interface V1Mock {
  node: N;
  lib: 'nock' | 'msw';
  base: string;
}

function mockNames(nodes: N[]): Map<string, 'nock' | 'msw'> {
  const out = new Map<string, 'nock' | 'msw'>();
  for (const n of nodes) {
    if (n.type === 'ImportDeclaration' && MOCK_MODULES.has(n.source.value))
      for (const s of n.specifiers) out.set(s.local.name, n.source.value);
    if (
      n.type === 'VariableDeclarator' &&
      isIdent(n.id) &&
      n.init?.type === 'CallExpression' &&
      isIdent(n.init.callee, 'require')
    ) {
      const mod = n.init.arguments[0]?.value;
      if (MOCK_MODULES.has(mod)) out.set(n.id.name, mod);
    }
    if (
      n.type === 'VariableDeclarator' &&
      n.id.type === 'ObjectPattern' &&
      n.init?.type === 'CallExpression' &&
      isIdent(n.init.callee, 'require') &&
      n.init.arguments[0]?.value === 'msw'
    )
      for (const p of n.id.properties) if (isIdent(p.value)) out.set(p.value.name, 'msw');
  }
  return out;
}

export function findV1Mocks(nodes: N[], b: Bindings): V1Mock[] {
  const names = mockNames(nodes);
  if (!names.size) return [];
  const out: V1Mock[] = [];
  for (const n of nodes) {
    if (n.type !== 'CallExpression' || !n.arguments[0]) continue;
    const callee = n.callee;
    const lib = isIdent(callee)
      ? names.get(callee.name)
      : callee.type === 'MemberExpression' && MSW_METHODS.has(propName(callee) ?? '')
        ? names.get(memberPath(callee.object) ?? '')
        : undefined;
    if (!lib || (lib === 'nock' && !isIdent(callee))) continue;
    const { text } = flatten(evalString(n.arguments[0], b));
    const at = v1Split(text);
    if (at >= 0 && /^https?:\/\//i.test(text)) out.push({ node: n, lib, base: text.slice(0, at) });
  }
  return out;
}

export const MOCK_REASON =
  'this mocks the V1 API; the rewritten code calls V2, whose answers are shaped differently. Test it against @partner-print/sandbox (its fetch in process, or its server) instead of a V1 mock.';
