import { V2_SECRET_KEY_HEADER, v1CredentialKind } from '@partner-print/openapi/wire';
import { bare, isIdent, isString, type N, propName } from './ast.ts';
import type { Bindings } from './values.ts';

/** Shorter values are not keys (and redacting them would blank out ordinary code). */
const MIN_SECRET = 8;

/** A V1 API-key header, the V2 secret-key header, or the V2 client's `secretKey` option. */
const isSecretName = (name: string | undefined): boolean =>
  name !== undefined &&
  (v1CredentialKind(name) === 'api-key' ||
    name.toLowerCase() === V2_SECRET_KEY_HEADER.toLowerCase() ||
    /^secret[-_]?key$/i.test(name));

/**
 * The strings a value may be: a literal or a constant of one, and through what passes one on as it is: a
 * fallback (`process.env.K || 'live_…'`, `??`), either branch of a ternary, `String(…)`, a cast, parentheses;
 * and the pieces of one built by concatenation, a template or `join`. Each as its value and as written in the
 * source (`'live_\\u0039…'` is the same key): a diff shows the source.
 */
function literals(n: N, b: Bindings, out: Set<string>, depth = 0): void {
  if (!n || depth > 20) return;
  const v = bare(b.resolve(n));
  if (v !== n) {
    literals(v, b, out, depth + 1);
    return;
  }
  const add = (value: string | undefined | null, raw: string | undefined) => {
    if (typeof value !== 'string' || value.trim().length < MIN_SECRET) return;
    out.add(value);
    if (raw && raw !== value && raw.trim().length >= MIN_SECRET) out.add(raw);
  };
  if (isString(v)) add(v.value, typeof v.extra?.raw === 'string' ? v.extra.raw.slice(1, -1) : undefined);
  else if (v.type === 'TemplateLiteral') {
    // A key built of pieces (`live_${'…'}`, `'…' + '…'`, `['…', '…'].join('')`): each piece long enough to be
    // part of one.
    for (const q of v.quasis) add(q.value.cooked, q.value.raw);
    for (const e of v.expressions) literals(e, b, out, depth + 1);
  } else if (v.type === 'BinaryExpression' && v.operator === '+') {
    literals(v.left, b, out, depth + 1);
    literals(v.right, b, out, depth + 1);
  } else if (
    v.type === 'CallExpression' &&
    v.callee.type === 'MemberExpression' &&
    propName(v.callee) === 'join' &&
    bare(v.callee.object).type === 'ArrayExpression'
  )
    for (const e of bare(v.callee.object).elements) literals(e, b, out, depth + 1);
  else if (v.type === 'LogicalExpression') {
    literals(v.left, b, out, depth + 1);
    literals(v.right, b, out, depth + 1);
  } else if (v.type === 'ConditionalExpression') {
    literals(v.consequent, b, out, depth + 1);
    literals(v.alternate, b, out, depth + 1);
  } else if (v.type === 'CallExpression' && isIdent(v.callee, 'String') && v.arguments.length === 1)
    literals(v.arguments[0], b, out, depth + 1);
}

/**
 * The keys written out in the code: the values (literals, or constants of one, also as a fallback or a branch)
 * of V1 API-key headers, of the V2 secret-key header and of `secretKey` options, in objects,
 * `headers.set(name, value)` and assignments. What the CLI prints of a file (its diff) has them redacted.
 */
export function secretsIn(nodes: N[], b: Bindings): string[] {
  const out = new Set<string>();
  const add = (n: N) => literals(n, b, out);
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
