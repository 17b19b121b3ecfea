import {
  bare,
  indexTree,
  isIdent,
  isReference,
  type Link,
  memberPath,
  type N,
  removeStatement,
} from './ast.ts';
import { importEqualsSource, requiredModule } from './calls.ts';
import { binds, VarScopes } from './values.ts';

/**
 * After the rewrite, the V1 plumbing (the base URL constant, the credential headers, the axios instance, a
 * fetch wrapper, the HTTP library's import) may be left without a use. What the rewrite left unused, and
 * only that, is removed: a binding that had uses before and has none now, bound to an expression without
 * side effects. Each binding is judged by its own uses, found by scope (as `Bindings.declaratorAt` finds them:
 * a `const url` in each of two functions is two bindings); a name whose scope is not certain (a `var` declared
 * twice or reassigned, a function declared in a block, any name where the file has `eval` or `with`) by every use
 * of its name in the file, so it is kept while any is left.
 */
export interface Refs {
  /** Uses of each name (or `this.x`) anywhere in the file. */
  byName: Map<string, number>;
  /** Uses of each binding: the scope binding it, then its name. */
  byScope: Map<N, Map<string, number>>;
  vars: VarScopes;
  /** The tree counted, and the certain scope of an identifier in it (see `scopes`). */
  nodes: N[];
  links: Map<N, Link>;
  scoped: (id: N) => N | undefined;
}

export function countRefs(root: N): Refs {
  const { nodes, links } = indexTree(root);
  const vars = new VarScopes(nodes, links);
  const byName = new Map<string, number>();
  const byScope = new Map<N, Map<string, number>>();
  const bump = (k: string) => byName.set(k, (byName.get(k) ?? 0) + 1);
  const scoped = scopes(links, vars);
  for (const n of nodes) {
    if (n.type === 'Identifier' && isReference(links.get(n))) {
      bump(n.name);
      const s = scoped(n);
      if (s) {
        const own = byScope.get(s) ?? new Map<string, number>();
        byScope.set(s, own.set(n.name, (own.get(n.name) ?? 0) + 1));
      }
    } else if (n.type === 'MemberExpression' && n.object.type === 'ThisExpression' && !n.computed) {
      const l = links.get(n);
      if (!(l?.parent.type === 'AssignmentExpression' && l.key === 'left')) bump(memberPath(n) ?? '');
    }
  }
  return { byName, byScope, vars, nodes, links, scoped };
}

/**
 * The scope binding an identifier where it stands, where that is certain (else undefined): `scopeOf`, with the
 * names each scope binds read once.
 */
function scopes(links: Map<N, Link>, vars: VarScopes): (id: N) => N | undefined {
  const bound = new Map<N, Map<string, boolean>>();
  const binding = (c: N, name: string) => {
    const own = bound.get(c) ?? new Map<string, boolean>();
    bound.set(c, own);
    if (!own.has(name)) own.set(name, binds(c, name, vars));
    return own.get(name);
  };
  return (id) => {
    if (vars.opaque || !vars.certain(id.name)) return undefined;
    for (let c = links.get(id)?.parent; c; c = links.get(c)?.parent) if (binding(c, id.name)) return c;
    return undefined;
  };
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

/**
 * The tree now, and whether the rewrite left a name (at `id`, where given) without a use it had before (or, with
 * `anyBefore`, whether it has no use now, whatever it had before).
 */
function leftBy(root: N, before: Refs, anyBefore = false) {
  const now = countRefs(root);
  const { nodes, links, scoped } = now;
  // By its own uses where its scope is certain, before and now; else by its name's.
  const unused = (k: string, id?: N) => {
    const s = id && before.vars.certain(k) && !before.vars.opaque ? scoped(id) : undefined;
    const [was, is] = s
      ? [before.byScope.get(s)?.get(k), now.byScope.get(s)?.get(k)]
      : [before.byName.get(k), now.byName.get(k)];
    return (anyBefore || (was ?? 0) > 0) && (is ?? 0) === 0;
  };
  /** A declaration of one declarator whose every name the rewrite left unused. */
  const unusedDeclaration = (n: N) => {
    if (n.type !== 'VariableDeclaration' || n.declarations.length !== 1) return false;
    const d = n.declarations[0];
    const ids: N[] = isIdent(d.id)
      ? [d.id]
      : d.id.type === 'ObjectPattern'
        ? d.id.properties.map((p: N) => p.value)
        : [];
    return ids.length > 0 && ids.every((x) => isIdent(x) && unused(x.name, x));
  };
  return { nodes, links, unused, unusedDeclaration };
}

/**
 * The declarators without a use that stay (their value has side effects, so the cleanup does not remove them):
 * their V1 credential headers are sent by nothing, and their TODO says so. Whether the rewrite or the author left
 * them unused (a second run over the rewriter's own output finds them so), alike.
 */
export function leftUnused(root: N, before: Refs): Set<N> {
  const { nodes, links, unusedDeclaration } = leftBy(root, before, true);
  // An exported one is another file's to use.
  const exported = (n: N) => links.get(n)?.parent.type === 'ExportNamedDeclaration';
  return new Set(nodes.filter((n) => unusedDeclaration(n) && !exported(n)).map((n) => n.declarations[0]));
}

/** Removes one declaration the rewrite left unused; true when it did. */
function removeOne(root: N, before: Refs): boolean {
  const { nodes, links, unused, unusedDeclaration } = leftBy(root, before);
  for (const n of nodes) {
    if (n.type === 'VariableDeclaration' && n.declarations.length === 1) {
      if (unusedDeclaration(n) && isPure(n.declarations[0].init)) return removeStatement(links, n);
    } else if (
      n.type === 'FunctionDeclaration' &&
      n.id &&
      unused(n.id.name, n.id) &&
      links.get(n)?.parent.type !== 'ExportNamedDeclaration'
    ) {
      return removeStatement(links, n);
    } else if (n.type === 'ImportDeclaration' && HTTP_MODULES.has(n.source.value) && n.specifiers.length) {
      if (n.specifiers.every((s: N) => unused(s.local.name, s.local))) return removeStatement(links, n);
    } else if (
      n.type === 'TSImportEqualsDeclaration' &&
      HTTP_MODULES.has(importEqualsSource(n) ?? '') &&
      unused(n.id.name, n.id)
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

export function removeUnused(root: N, before: Refs): number {
  let removed = 0;
  while (removeOne(root, before)) removed++;
  return removed;
}
