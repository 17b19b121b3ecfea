/**
 * A small generic walk over Babel's AST with parent links: the rewrites replace nodes in place, and recast
 * reprints only what changed.
 */

// biome-ignore lint/suspicious/noExplicitAny: Babel's AST is walked generically; each access checks `type` first.
export type N = any;

export interface Link {
  parent: N;
  key: string;
  index?: number;
}

const SKIP = new Set(['loc', 'start', 'end', 'comments', 'tokens', 'extra', 'original', 'range']);
const SKIP_COMMENTS = new Set(['leadingComments', 'trailingComments', 'innerComments']);

export const isNode = (v: unknown): v is N =>
  v !== null && typeof v === 'object' && typeof (v as { type?: unknown }).type === 'string';

/** Every node under `root` in source order, with its parent link. */
export function indexTree(root: N): { nodes: N[]; links: Map<N, Link> } {
  const nodes: N[] = [];
  const links = new Map<N, Link>();
  const stack: Array<[N, Link | undefined]> = [[root, undefined]];
  while (stack.length) {
    const [node, link] = stack.pop()!;
    nodes.push(node);
    if (link) links.set(node, link);
    const children: Array<[N, Link]> = [];
    for (const key of Object.keys(node)) {
      if (SKIP.has(key) || SKIP_COMMENTS.has(key)) continue;
      const v = node[key];
      if (Array.isArray(v)) {
        v.forEach((c, index) => {
          if (isNode(c)) children.push([c, { parent: node, key, index }]);
        });
      } else if (isNode(v)) children.push([v, { parent: node, key }]);
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return { nodes, links };
}

/**
 * Records the tree under `root` as it is (every node's own properties and every array's entries, the nodes
 * themselves kept): the function returned puts it back so, undoing a rewrite that turned out not to be one.
 */
export function snapshotTree(root: N): () => void {
  const nodes: Array<[N, Record<string, unknown>]> = [];
  const arrays: Array<[unknown[], unknown[]]> = [];
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) {
      arrays.push([v, [...v]]);
      stack.push(...v);
      continue;
    }
    if (!isNode(v)) continue;
    const node: N = v;
    nodes.push([node, { ...node }]);
    for (const key of Object.keys(node)) if (!SKIP.has(key) || key === 'comments') stack.push(node[key]);
  }
  return () => {
    for (const [array, entries] of arrays) array.splice(0, array.length, ...entries);
    for (const [node, props] of nodes) {
      for (const k of Object.keys(node)) delete node[k];
      Object.assign(node, props);
    }
  };
}

export function replaceNode(links: Map<N, Link>, old: N, next: N): void {
  const l = links.get(old);
  if (!l) throw new Error('Cannot replace the root node');
  if (l.index === undefined) l.parent[l.key] = next;
  else {
    // Statements may have been inserted before it since the tree was indexed: find it where it is now.
    const list: N[] = l.parent[l.key];
    const at = list.indexOf(old);
    list[at < 0 ? l.index : at] = next;
  }
  links.set(next, l);
  links.delete(old);
}

/**
 * Removes a statement from its block (or program body). The comments heading the file (a licence, `// @ts-check`)
 * stay: those above its first statement go to the statement after it.
 */
export function removeStatement(links: Map<N, Link>, stmt: N): boolean {
  const l = links.get(stmt);
  if (!l || l.index === undefined) return false;
  const list: N[] = l.parent[l.key];
  const i = list.indexOf(stmt);
  if (i < 0) return false;
  const heading = (stmt.comments ?? []).filter((c: N) => c.leading);
  const next = list[i + 1];
  if (l.parent.type === 'Program' && i === 0 && heading.length && next)
    next.comments = [...heading, ...(next.comments ?? [])];
  list.splice(i, 1);
  links.delete(stmt);
  return true;
}

/** Whether the node linked by `l` is the name after a dot (`x.name`, `x?.name`): a property, not a variable's use. */
export const isMemberProperty = (l: Link | undefined): boolean =>
  /Member/.test(l?.parent.type ?? '') && l?.key === 'property' && !l.parent.computed;

/**
 * Whether the identifier linked by `l` is a use of a variable: not a property's name (after a dot, or the key of
 * an object, class or type member), nor the name a declaration, a function, a class or an import binds.
 */
export function isReference(l: Link | undefined): boolean {
  if (!l) return false;
  const p = l.parent;
  if (isMemberProperty(l)) return false;
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

/** Whether `n` stands inside `ancestor` (below it in the tree). */
export const within = (n: N, ancestor: N, links: Map<N, Link>): boolean => {
  for (let cur = links.get(n)?.parent; cur; cur = links.get(cur)?.parent) if (cur === ancestor) return true;
  return false;
};

export const isIdent = (n: N, name?: string): boolean =>
  n?.type === 'Identifier' && (name === undefined || n.name === name);

export const isString = (n: N): boolean =>
  n?.type === 'StringLiteral' || (n?.type === 'Literal' && typeof n.value === 'string');

/** A fallback written out: a string, `null` or `undefined` (what a missing query parameter reads as instead). */
export const isLiteralFallback = (n: N): boolean =>
  isString(n) || n?.type === 'NullLiteral' || isIdent(n, 'undefined');

/** The name of a non-computed property or a string-keyed computed one. */
export function propName(n: N): string | undefined {
  if (!n) return undefined;
  const key = n.key ?? n.property;
  if (!n.computed && key?.type === 'Identifier') return key.name;
  if (isString(key)) return key.value;
  return undefined;
}

/** `a.b.c` as text, for `this.http`-style instance keys; undefined for anything else. */
export function memberPath(n: N): string | undefined {
  if (n?.type === 'Identifier') return n.name;
  if (n?.type === 'ThisExpression') return 'this';
  if (n?.type === 'MemberExpression' && !n.computed && n.property.type === 'Identifier') {
    const o = memberPath(n.object);
    return o ? `${o}.${n.property.name}` : undefined;
  }
  return undefined;
}

/** The object literal's properties by name; `undefined` when one is computed, spread or a method. */
export function objectProps(n: N): Map<string, N> | undefined {
  if (n?.type !== 'ObjectExpression') return undefined;
  const out = new Map<string, N>();
  for (const p of n.properties) {
    if (p.type !== 'ObjectProperty' && p.type !== 'Property') return undefined;
    const name = propName(p);
    if (name === undefined) return undefined;
    out.set(name, p.value);
  }
  return out;
}

/** The innermost statement holding `node` (a statement of a block or of the program). */
export function statementOf(links: Map<N, Link>, node: N): N | undefined {
  let cur = node;
  while (cur) {
    const l = links.get(cur);
    if (!l) return undefined;
    if (
      l.index !== undefined &&
      (l.key === 'body' || l.key === 'consequent') &&
      /Statement|Declaration/.test(cur.type)
    )
      return cur;
    cur = l.parent;
  }
  return undefined;
}

/** The innermost function around `node`. */
export function functionOf(links: Map<N, Link>, node: N): N | undefined {
  let cur = links.get(node)?.parent;
  while (cur) {
    if (/Function|ArrowFunction|ObjectMethod|ClassMethod/.test(cur.type)) return cur;
    cur = links.get(cur)?.parent;
  }
  return undefined;
}

/** Unwraps TS-only wrappers (`x as T`, `x!`, `<T>x`, `x satisfies T`) and parentheses. */
export function bare(n: N): N {
  let cur = n;
  for (;;) {
    if (
      cur &&
      /^(TSAsExpression|TSNonNullExpression|TSTypeAssertion|TSSatisfiesExpression|ParenthesizedExpression)$/.test(
        cur.type,
      )
    )
      cur = cur.expression;
    else if (isV1Of(cur)) cur = cur.callee.object;
    else return cur;
  }
}

/** A function declaration, or a variable given a function (`const f = async () => …`): its name and the function. */
export function namedFunction(n: N): { name: string; fn: N } | undefined {
  if (n.type === 'FunctionDeclaration') return n.id ? { name: n.id.name, fn: n } : undefined;
  if (n.type === 'VariableDeclarator' && isIdent(n.id) && /Function/.test(bare(n.init ?? {}).type))
    return { name: n.id.name, fn: bare(n.init) };
  return undefined;
}

/**
 * The `/v2` ending a base URL (its trailing slashes kept) turned to `/v1`: an environment variable that held the V1
 * base URL may hold the V2 one of the same host, and the V1 calls left on it read it through this (the reference:
 * V1 at `/v1` and V2 at `/v2` of the same hosts).
 */
const V2_TO_V1 = { pattern: String.raw`\/v2(\/*)$`, to: '/v1$1' };

/** `<env read>?.replace(/\/v2(\/*)$/, '/v1$1')`: what the V1 calls left on a base URL variable read. */
export const v1Of = (code: string): string => `${code}?.replace(/${V2_TO_V1.pattern}/, '${V2_TO_V1.to}')`;

/** Whether the node is `process.env.X?.replace(…)` as `v1Of` writes it: it reads as the variable itself. */
const isV1Of = (n: N): boolean =>
  n?.type === 'OptionalCallExpression' &&
  n.callee.property?.name === 'replace' &&
  memberPath(n.callee.object?.object) === 'process.env' &&
  n.arguments[0]?.pattern === V2_TO_V1.pattern &&
  n.arguments[1]?.value === V2_TO_V1.to;

/** A string as a single-quoted JavaScript literal (the quotes recast prints with). */
export const singleQuoted = (s: string) =>
  `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
