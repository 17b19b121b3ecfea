import { V2_SECRET_KEY_HEADER, v1CredentialKind } from '@partner-print/openapi/wire';
import { isString, type N, propName } from './ast.ts';
import type { Bindings } from './values.ts';

/** Shorter values are not keys (and redacting them would blank out ordinary code). */
const MIN_SECRET = 8;

/** A V1 API-key header, the V2 secret-key header, or the V2 client's `secretKey` option. */
const isSecretName = (name: string | undefined): boolean =>
  name !== undefined &&
  (v1CredentialKind(name) === 'api-key' ||
    name.toLowerCase() === V2_SECRET_KEY_HEADER.toLowerCase() ||
    /^secret[-_]?key$/i.test(name));

function literal(n: N, b: Bindings): string | undefined {
  const v = n ? b.resolve(n) : undefined;
  const text = isString(v)
    ? v.value
    : v?.type === 'TemplateLiteral' && v.expressions.length === 0
      ? (v.quasis[0]?.value.cooked ?? undefined)
      : undefined;
  return typeof text === 'string' && text.trim().length >= MIN_SECRET ? text : undefined;
}

/**
 * The keys written out in the code: the values (literals, or constants of one) of V1 API-key headers, of the V2
 * secret-key header and of `secretKey` options, in objects, `headers.set(name, value)` and assignments. What the
 * CLI prints of a file (its diff) has them redacted.
 */
export function secretsIn(nodes: N[], b: Bindings): string[] {
  const out = new Set<string>();
  const add = (n: N) => {
    const s = literal(n, b);
    if (s) out.add(s);
  };
  for (const n of nodes) {
    if ((n.type === 'ObjectProperty' || n.type === 'Property') && isSecretName(propName(n))) add(n.value);
    else if (n.type === 'AssignmentExpression' && n.left.type === 'MemberExpression') {
      if (isSecretName(propName(n.left))) add(n.right);
    } else if (
      n.type === 'CallExpression' &&
      n.callee.type === 'MemberExpression' &&
      /^(set|append)$/.test(propName(n.callee) ?? '') &&
      isString(n.arguments[0]) &&
      isSecretName(n.arguments[0].value)
    )
      add(n.arguments[1]);
    else if (n.type === 'VariableDeclarator' && n.id.type === 'Identifier' && isSecretName(n.id.name))
      add(n.init);
  }
  return [...out];
}
