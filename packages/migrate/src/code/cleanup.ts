import { bare, indexTree, isIdent, type Link, memberPath, type N, removeStatement } from './ast.ts';
import { importEqualsSource, requiredModule } from './calls.ts';

/**
 * After the rewrite, the V1 plumbing (the base URL constant, the credential headers, the axios instance, a
 * fetch wrapper, the HTTP library's import) may be left without a use. What the rewrite left unused, and
 * only that, is removed: a name that had uses before and has none now, bound to an expression without
 * side effects.
 */
export function countRefs(root: N): Map<string, number> {
  const { nodes, links } = indexTree(root);
  const out = new Map<string, number>();
  const bump = (k: string) => out.set(k, (out.get(k) ?? 0) + 1);
  for (const n of nodes) {
    if (n.type === 'Identifier' && isReference(links.get(n))) bump(n.name);
    else if (n.type === 'MemberExpression' && n.object.type === 'ThisExpression' && !n.computed) {
      const l = links.get(n);
      if (!(l?.parent.type === 'AssignmentExpression' && l.key === 'left')) bump(memberPath(n) ?? '');
    }
  }
  return out;
}

function isReference(l: Link | undefined): boolean {
  if (!l) return false;
  const p = l.parent;
  if (p.type === 'MemberExpression' && l.key === 'property' && !p.computed) return false;
  if (
    /^(ObjectProperty|Property|ClassProperty|PropertyDefinition|ClassMethod|ObjectMethod|TSPropertySignature)$/.test(
      p.type,
    ) &&
    l.key === 'key' &&
    !p.computed
  )
    return false;
  if (p.type === 'VariableDeclarator' && l.key === 'id') return false;
  if (/^(FunctionDeclaration|ClassDeclaration)$/.test(p.type) && l.key === 'id') return false;
  if (/^Import/.test(p.type) || (p.type === 'TSImportEqualsDeclaration' && l.key === 'id')) return false;
  return true;
}

const PURE = new Set([
  'StringLiteral',
  'NumericLiteral',
  'BooleanLiteral',
  'NullLiteral',
  'Literal',
  'Identifier',
  'ThisExpression',
  'ArrowFunctionExpression',
  'FunctionExpression',
]);

function isPure(n: N, depth = 0): boolean {
  const v = bare(n);
  if (!v || depth > 8) return !v;
  if (PURE.has(v.type)) return true;
  switch (v.type) {
    case 'TemplateLiteral':
      return v.expressions.every((e: N) => isPure(e, depth + 1));
    case 'ObjectExpression':
      return v.properties.every((p: N) =>
        p.type === 'SpreadElement'
          ? isPure(p.argument, depth + 1)
          : p.type !== 'ObjectMethod' && !p.computed && isPure(p.value, depth + 1),
      );
    case 'ArrayExpression':
      return v.elements.every((e: N) => isPure(e, depth + 1));
    case 'MemberExpression':
      return !v.computed && isPure(v.object, depth + 1);
    case 'LogicalExpression':
    case 'BinaryExpression':
      return isPure(v.left, depth + 1) && isPure(v.right, depth + 1);
    case 'ConditionalExpression':
      return [v.test, v.consequent, v.alternate].every((e: N) => isPure(e, depth + 1));
    case 'CallExpression':
      return (
        requiredModule(v) !== undefined ||
        (v.callee.type === 'MemberExpression' &&
          /^(create|extend)$/.test(v.callee.property?.name ?? '') &&
          v.arguments.every((a: N) => isPure(a, depth + 1)))
      );
    default:
      return false;
  }
}

const HTTP_MODULES = new Set(['node-fetch', 'axios', 'got', 'ky']);

/** Removes one declaration the rewrite left unused; true when it did. */
function removeOne(root: N, before: Map<string, number>): boolean {
  const now = countRefs(root);
  const unused = (k: string) => (before.get(k) ?? 0) > 0 && (now.get(k) ?? 0) === 0;
  const { nodes, links } = indexTree(root);
  for (const n of nodes) {
    if (n.type === 'VariableDeclaration' && n.declarations.length === 1) {
      const d = n.declarations[0];
      const names = isIdent(d.id)
        ? [d.id.name]
        : d.id.type === 'ObjectPattern'
          ? d.id.properties.map((p: N) => p.value?.name)
          : [];
      if (names.length && names.every((x: string) => x && unused(x)) && isPure(d.init))
        return removeStatement(links, n);
    } else if (
      n.type === 'FunctionDeclaration' &&
      n.id &&
      unused(n.id.name) &&
      links.get(n)?.parent.type !== 'ExportNamedDeclaration'
    ) {
      return removeStatement(links, n);
    } else if (n.type === 'ImportDeclaration' && HTTP_MODULES.has(n.source.value) && n.specifiers.length) {
      if (n.specifiers.every((s: N) => unused(s.local.name))) return removeStatement(links, n);
    } else if (
      n.type === 'TSImportEqualsDeclaration' &&
      HTTP_MODULES.has(importEqualsSource(n) ?? '') &&
      unused(n.id.name)
    ) {
      return removeStatement(links, n);
    } else if (
      (n.type === 'ClassProperty' || n.type === 'PropertyDefinition') &&
      isIdent(n.key) &&
      unused(`this.${n.key.name}`) &&
      isPure(n.value)
    ) {
      return removeStatement(links, n);
    } else if (n.type === 'ExpressionStatement' && n.expression.type === 'AssignmentExpression') {
      const key = memberPath(n.expression.left);
      if (key?.startsWith('this.') && unused(key) && isPure(n.expression.right))
        return removeStatement(links, n);
    }
  }
  return false;
}

export function removeUnused(root: N, before: Map<string, number>): number {
  let removed = 0;
  while (removeOne(root, before)) removed++;
  return removed;
}
