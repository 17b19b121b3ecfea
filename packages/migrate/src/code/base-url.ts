import {
  bare,
  indexTree,
  isIdent,
  isString,
  type Link,
  memberPath,
  type N,
  objectProps,
  propName,
  replaceNode,
  singleQuoted,
  v1Of,
  within,
} from './ast.ts';
import { callsOneOf, type Factories } from './factories.ts';
import { parseExpressionCode } from './parse.ts';
import { addTodo, TODO_TAG } from './todo.ts';
import { type Bindings, evalString, flatten, isEnv, type Piece, v1Split } from './values.ts';

/** The V2 client's base URL, made of what a V1 call's base URL is made of. */
export interface V2Base {
  /**
   * Its expression, as code: the V1 one with `/v1` turned to `/v2`, its run-time parts kept; a variable that holds
   * the whole V1 base URL keeps it (V1 calls left in the file read it), its value's `/v1` turned to `/v2` where the
   * client reads it.
   */
  code: string;
  /** The environment variables that held the whole V1 base URL (`process.env.PP_URL`): the client derives V2's from them. */
  envs: string[];
  /** Where the first of them is read (the report's position). */
  at?: N;
  /** Where they are read in the V1 code: a V1 call left on one reads it through `v1Of` (it may hold V2's). */
  whole?: N[];
  /** The top-level statements its run-time parts are read in: the client is created after them. */
  after: N[];
}

/** What building the code collects: the environment reads, and those that held the whole base URL. */
interface Reads {
  env: N[];
  whole: N[];
}

/**
 * The V2 base URL of a V1 call whose URL is `pieces`, or why it cannot be kept: the V1 base URL's run-time parts
 * (an environment variable, a constant made of one) are kept as they are and only its `/v1` becomes `/v2`, which
 * the reference says is the same API version on the same hosts. A run-time part is only kept when it is read
 * once, when the module loads (where the client is created), from the environment: a parameter, a config
 * object or a value read each time the call runs is not there, so such a call is marked.
 */
export function v2BaseUrl(pieces: Piece[], b: Bindings, links: Map<N, Link>): V2Base | string {
  const { parts, at, ends } = split(pieces);
  if (at < 0) return 'its base URL is only known at run time';
  const reads: Reads = { env: [], whole: [] };
  const segments: Array<{ text: string } | { code: string }> = [];
  for (let i = 0; i < parts.length; ) {
    const p = parts[i]!;
    const runtime = p.piece.runtime;
    if (!runtime) {
      if ('text' in p.piece) segments.push({ text: p.text });
      else {
        const code = asCode(p.piece.hole, b, reads);
        if (!code)
          return `its base URL is built from ${describe(p.piece.hole)}, which is not known where the V2 client is created`;
        segments.push({ code });
      }
      i++;
      continue;
    }
    // The parts one `process.env.X ?? <fallback>` gave, as one.
    let j = i;
    while (j < parts.length && parts[j]!.piece.runtime === runtime) j++;
    const start = p.start;
    const end = ends.get(runtime)!;
    // What it is read from: an environment variable, or (a base URL chosen by a ternary) its condition.
    const env = runtime.type === 'ConditionalExpression' ? 'a condition' : envCode(runtime.left);
    if (end <= at - 3) {
      // Before the `/v1`: a host or a path prefix, the same for V2.
      const code = asCode(runtime, b, reads);
      if (!code)
        return `its base URL is built from ${env}, which is not known where the V2 client is created`;
      segments.push({ code });
    } else if (end === at && start <= at - 3) {
      // The whole V1 base URL (or what ends it) is in the variable, which V1 code left in the file may still
      // read: it keeps the V1 base URL, and the V2 client takes it with its `/v1` turned to `/v2`.
      const whole = reads.whole.length;
      const code = v2Fallback(runtime, b, reads);
      if (!code)
        return runtime.type === 'ConditionalExpression'
          ? 'its base URL is chosen by a condition that is not known where the V2 client is created'
          : `its base URL is read from ${env} with a fallback this tool cannot turn to V2`;
      const v1 = reads.whole.length > whole ? asCode(runtime, b, reads) : undefined;
      segments.push({ code: v1 ? `(${v1}).replace(${V1_END}, '/v2')` : code });
    } else return `its URL is read from ${env} with more than the V1 base URL in it (its path)`;
    i = j;
  }
  const code = codeOfSegments(segments);
  if (!code) return 'its base URL does not end in /v1 where this tool can change it';
  for (const e of reads.env)
    if (!atModuleLevel(e, links))
      return `its base URL reads ${envCode(e)} each time it runs; the V2 client reads it once, where it is created`;
  const after = [...new Set(reads.env.map((e) => topStatement(e, links)))].filter((s): s is N => !!s);
  return {
    code,
    envs: [...new Set(reads.whole.map(envCode))],
    at: reads.whole[0],
    whole: reads.whole,
    after,
  };
}

/** The pieces before the URL's `/v1` (a text split there), their offsets, and where each fallback ends. */
function split(pieces: Piece[]) {
  let flat = '';
  let holes = 0;
  const all: Array<{ piece: Piece; text: string; start: number }> = [];
  const ends = new Map<N, number>();
  for (const piece of pieces) {
    const text = 'text' in piece ? piece.text : `{h${holes++}}`;
    all.push({ piece, text, start: flat.length });
    flat += text;
    if (piece.runtime) ends.set(piece.runtime, flat.length);
  }
  const at = v1Split(flat);
  const parts = all.filter((p) => p.start < at).map((p) => ({ ...p, text: p.text.slice(0, at - p.start) }));
  return { parts, at, ends };
}

/**
 * `process.env.X ?? <V1 URL>` with its fallback turned to V2, or `cond ? <V1 URL> : <V1 URL>` with each branch
 * turned to V2 and the condition kept (nested ones too), as code.
 */
function v2Fallback(n: N, b: Bindings, reads: Reads): string | undefined {
  const node = b.resolve(n);
  if (isEnvFallback(node, b)) {
    reads.env.push(bare(node.left));
    reads.whole.push(bare(node.left));
    const right = v2Fallback(node.right, b, reads);
    if (!right) return undefined;
    return `${envCode(node.left)} ${node.operator} ${wrap(b.resolve(node.right), right)}`;
  }
  if (node.type === 'ConditionalExpression') {
    const test = asCode(node.test, b, reads);
    const yes = v2Fallback(node.consequent, b, reads);
    const no = v2Fallback(node.alternate, b, reads);
    if (!test || !yes || !no) return undefined;
    const [t, c, a] = [node.test, node.consequent, node.alternate].map((x) => b.resolve(x));
    // Only a ternary binds looser than a ternary's test.
    const inTest = t.type === 'ConditionalExpression' ? `(${test})` : test;
    return `${inTest} ? ${wrap(c, yes)} : ${wrap(a, no)}`;
  }
  const pieces = evalString(node, b);
  if (!pieces.every((p) => 'text' in p && !p.runtime)) return undefined;
  const text = pieces.map((p) => ('text' in p ? p.text : '')).join('');
  return v1Split(text) === text.length && text.endsWith('/v1')
    ? singleQuoted(`${text.slice(0, -3)}/v2`)
    : undefined;
}

/**
 * The expression as code that can stand where the V2 client is created: literals, `process.env` and constants
 * of them (inlined), joined by operators; undefined for anything else (a parameter, a property, a call).
 */
function asCode(n: N, b: Bindings, reads: Reads, depth = 0): string | undefined {
  const node = bare(n);
  if (!node || depth > 6) return undefined;
  if (isString(node)) return singleQuoted(node.value);
  if (node.type === 'NumericLiteral') return String(node.value);
  if (isEnv(node)) {
    if (b.declared('process') || propName(node) === undefined) return undefined;
    reads.env.push(node);
    return envCode(node);
  }
  if (node.type === 'Identifier') {
    const v = b.get(node.name);
    return v ? asCode(v, b, reads, depth + 1) : undefined;
  }
  if (node.type === 'TemplateLiteral') {
    let out = '`';
    for (let i = 0; i < node.quasis.length; i++) {
      out += node.quasis[i].value.raw;
      if (i < node.expressions.length) {
        const e = asCode(node.expressions[i], b, reads, depth + 1);
        if (!e) return undefined;
        out += `\${${e}}`;
      }
    }
    return `${out}\``;
  }
  if (
    node.type === 'LogicalExpression' ||
    (node.type === 'BinaryExpression' && /^(\+|[!=]==?)$/.test(node.operator))
  ) {
    const l = asCode(node.left, b, reads, depth + 1);
    const r = asCode(node.right, b, reads, depth + 1);
    return l && r
      ? `${wrap(b.resolve(node.left), l)} ${node.operator} ${wrap(b.resolve(node.right), r)}`
      : undefined;
  }
  if (node.type === 'ConditionalExpression') {
    const [t, c, a] = [node.test, node.consequent, node.alternate].map((x) => asCode(x, b, reads, depth + 1));
    const [test, yes, no] = [node.test, node.consequent, node.alternate].map((x) => b.resolve(x));
    return t && c && a ? `${wrap(test, t)} ? ${wrap(yes, c)} : ${wrap(no, a)}` : undefined;
  }
  return undefined;
}

/** Text and code as one expression: a string, the code alone, or a template literal. */
function codeOfSegments(segments: Array<{ text: string } | { code: string }>): string | undefined {
  const merged: typeof segments = [];
  for (const s of segments) {
    const last = merged[merged.length - 1];
    if (last && 'text' in last && 'text' in s) last.text += s.text;
    else merged.push({ ...s });
  }
  const last = merged[merged.length - 1];
  if (last && 'text' in last) {
    if (!last.text.endsWith('/v1')) return undefined;
    last.text = `${last.text.slice(0, -3)}/v2`;
  }
  if (merged.length === 1) return 'text' in merged[0]! ? singleQuoted(merged[0].text) : merged[0]!.code;
  const quasi = (t: string) => t.replace(/[\\`]|\$\{/g, (m) => `\\${m}`);
  return `\`${merged.map((s) => ('text' in s ? quasi(s.text) : `\${${s.code}}`)).join('')}\``;
}

/**
 * The `/v1` that ends a V1 base URL (a trailing slash too, as the client reads one): the reference puts V2 at
 * `/v2` on the same hosts. A URL already on `/v2` is left as it is.
 */
const V1_END = String.raw`/\/v1\/*$/`;

const isEnvFallback = (n: N, b: Bindings) =>
  n.type === 'LogicalExpression' &&
  (n.operator === '??' || n.operator === '||') &&
  isEnv(n.left) &&
  propName(bare(n.left)) !== undefined &&
  !b.declared('process');

const wrap = (n: N, code: string) =>
  /^(Logical|Binary|Conditional)Expression$/.test(bare(n).type) ? `(${code})` : code;

/** `process.env.PP_URL`, however it was written (`process.env['PP_URL']`, `process.env.PP_URL!`). */
export const envCode = (n: N): string => {
  const name = propName(bare(n)) ?? '';
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `process.env.${name}` : `process.env[${singleQuoted(name)}]`;
};

const describe = (n: N) => {
  const path = memberPath(bare(n));
  return path ? `\`${path}\`` : 'a value only known at run time';
};

/** Whether the node runs when the module loads: not in a function, a method or a class (its fields). */
export function atModuleLevel(node: N, links: Map<N, Link>): boolean {
  for (let cur = links.get(node)?.parent; cur; cur = links.get(cur)?.parent)
    if (/Function|Method|Class/.test(cur.type)) return false;
  return true;
}

export function topStatement(node: N, links: Map<N, Link>): N | undefined {
  let cur = node;
  for (let l = links.get(cur); l; l = links.get(cur)) {
    if (l.parent.type === 'Program') return cur;
    cur = l.parent;
  }
  return undefined;
}

/**
 * What the TODO above the V2 client says of a base URL derived from environment variables (`it`, their names) that
 * held the V1 one.
 */
export const derivedBaseReason = (it: string): string =>
  `the V2 base URL is derived from ${it}, as the V1 one was read from it: it may hold the V1 base URL (ending in /v1) or the V2 one (ending in /v2) of the environment (production or test); the V2 client takes it with /v1 turned to /v2, and the V1 calls left in this file with /v2 turned to /v1 (the same host); any other value makes createClient throw.`;

/** The base-URL sentence of a TODO any version of this tool wrote above the client (the earlier ones too). */
const BASE_REASON =
  /the V2 base URL is (?:read|derived) from .*?(?:throws V1CredentialsError|makes createClient throw)\./;

/** The V2 client an earlier version of this tool made, its base URL put as this version writes it. */
export interface RepairedBase {
  /** The client's base URL as code, now. */
  code: string;
  /** Where the client is (the report's position). */
  at: N;
  /** What changed, for the report; undefined when nothing did. */
  detail?: string;
}

/**
 * Repairs what earlier versions of this tool wrote for a V1 base URL read from an environment variable
 * (`process.env.PP_URL || '<host>/v1'`), so that a new run over their output leaves what this version writes:
 * - 74bf0d2..ad51cc8 made the client `baseUrl: process.env.PP_URL || '<host>/v2'` while the V1 calls left in the
 *   file read PP_URL as the V1 base URL: with a /v1 value the client threw, with a /v2 one those V1 calls went to
 *   V2 with V1 credentials. The client now derives its base URL from the V1 one, `(process.env.PP_URL ||
 *   '<host>/v1').replace(/\/v1\/*$/, '/v2')`, which takes either (the same URL as before for a /v2 value).
 * - up to 1108026 the V1 calls left read the variable as it is: they now read it through `v1Of` (a /v2 value as
 *   /v1 of the same host), as this version writes them.
 * - up to 74bf0d2 the client was on a fixed `'<host>/v2'`, the variable dropped: where the V1 base URL it left for
 *   the calls it marked still reads it (`leftBase`), the client is derived from it as above.
 * The base-URL sentence of the TODO above the client is the current one. Only the file's client (`createClient`
 * of the client package bound to the rewriter's name) is looked at; undefined when there is none.
 */
export function repairEarlierBase(
  program: N,
  client: string,
  factories: Factories,
  b: Bindings,
  source: string,
): RepairedBase | undefined {
  const { nodes, links } = indexTree(program);
  const decl = nodes.find(
    (n) => n.type === 'VariableDeclarator' && isIdent(n.id, client) && callsOneOf(n.init, factories.client),
  );
  const value = decl ? objectProps(decl.init.arguments[0])?.get('baseUrl') : undefined;
  if (!decl || !value) return undefined;
  const changes: string[] = [];
  let code = value.start !== undefined ? source.slice(value.start, value.end) : '';
  const derived = derivedFrom(value);
  // 74bf0d2's `process.env.X || '<host>/v2'`: the V1 base URL it came from, derived as this version does.
  let v1 = derived ? undefined : asV1(value);
  let envs = derived ?? (v1 ? fallbackEnvs(value) : []);
  // The oldest output (up to 74bf0d2): a fixed `'<host>/v2'`, the variable dropped from the client but read by the V1
  // base URL it left for the calls it marked (`process.env.X || '<host>/v1'`, under its "still used" TODO).
  if (!envs.length && v1 && isString(bare(value)) && source.includes(LEFT_BASE_TODO)) {
    const left = leftBase(nodes, links, decl, v1.value, b);
    if (left) {
      envs = [left.env];
      v1 = { type: 'LogicalExpression', operator: left.operator, left: left.read, right: v1 };
    }
  }
  if (!envs.length) return { code, at: decl };
  // V1 code left in the file reads the variable as the V1 base URL (`process.env.PP_URL || '<host>/v1'`).
  const v1Reads = nodes.filter((n) => {
    const l = links.get(n);
    return (
      n.type === 'MemberExpression' &&
      isEnv(n) &&
      envs.includes(envCode(n)) &&
      l?.key === 'left' &&
      l.parent.type === 'LogicalExpression' &&
      /^(\?\?|\|\|)$/.test(l.parent.operator) &&
      !within(n, decl, links) &&
      v1Split(flatten(evalString(l.parent.right, b)).text) >= 0
    );
  });
  const stmt = links.get(decl)?.parent;
  const todo = (stmt?.comments ?? []).find((c: N) => c.leading && String(c.value).includes(TODO_TAG));
  const earlier = todo !== undefined && BASE_REASON.test(todo.value);
  if (v1) {
    // Only a client an earlier run made (its TODO says so), or one whose variable V1 code left here reads: a V2
    // client the partner wrote on a V2 base-URL variable is theirs.
    const reads: Reads = { env: [], whole: [] };
    const v1Code = asCode(v1, b, reads);
    if (!v1Code || (!earlier && !v1Reads.length)) return { code, at: decl };
    code = `(${v1Code}).replace(${V1_END}, '/v2')`;
    replaceNode(links, value, parseExpressionCode(code));
    changes.push(
      `the base URL derived from ${envs.join(' and ')} (/v1 → /v2), which may hold the V1 or the V2 base URL`,
    );
  }
  for (const n of v1Reads) replaceNode(links, n, parseExpressionCode(v1Of(envCode(n))));
  const reads = v1Reads.length;
  if (reads) changes.push('the V1 calls left read it with /v2 turned to /v1 (the same host)');
  const reason = derivedBaseReason(envs.join(' and '));
  if (todo && earlier && !String(todo.value).includes(reason)) {
    // A new comment: recast reprints one it parsed from its place in the source.
    const value = String(todo.value).replace(BASE_REASON, reason);
    stmt.comments = stmt.comments.map((c: N) =>
      c === todo ? { type: c.type, value, leading: true, trailing: false } : c,
    );
    changes.push('its TODO says so');
  } else if (!todo && changes.length && stmt) addTodo(stmt, reason);
  return { code, at: decl, ...(changes.length ? { detail: `→ ${changes.join('; ')}` } : {}) };
}

/** The TODO the oldest versions (as this one) wrote above a V1 base URL the calls they left still read. */
const LEFT_BASE_TODO = 'the V1 base URL is still used by code this tool did not rewrite.';

/**
 * The V1 base URL read from one environment variable that V1 code left in the file reads (`process.env.X ||
 * '<v1>'`, its fallback `v1` as evaluated), outside the client: its variable, read and operator; undefined when
 * there is none, or when reads of several variables fall back to it (which one the client dropped is not known).
 */
function leftBase(
  nodes: N[],
  links: Map<N, Link>,
  client: N,
  v1: string,
  b: Bindings,
): { env: string; read: N; operator: string } | undefined {
  const found = nodes.filter((n) => {
    const l = links.get(n);
    return (
      isEnv(n) &&
      l?.key === 'left' &&
      l.parent.type === 'LogicalExpression' &&
      /^(\?\?|\|\|)$/.test(l.parent.operator) &&
      !within(n, client, links) &&
      flatten(evalString(l.parent.right, b)).text === v1
    );
  });
  const envs = new Set(found.map((n) => envCode(n)));
  if (envs.size !== 1) return undefined;
  const read = found[0];
  return { env: envCode(read), read, operator: links.get(read)!.parent.operator };
}

/** The variables (as `envCode`) whose value `(…).replace(/\/v1\/*$/, '/v2')` derives the base URL from. */
function derivedFrom(value: N): string[] | undefined {
  const n = bare(value);
  if (
    n.type !== 'CallExpression' ||
    propName(n.callee) !== 'replace' ||
    n.arguments[0]?.type !== 'RegExpLiteral' ||
    `/${n.arguments[0].pattern}/` !== V1_END ||
    n.arguments[1]?.value !== '/v2'
  )
    return undefined;
  return fallbackEnvs(n.callee.object);
}

/** The variables of `process.env.X || …` fallbacks in the URL positions of an expression (not a ternary's test). */
function fallbackEnvs(value: N): string[] {
  const n = bare(value);
  if (n.type === 'LogicalExpression' && /^(\?\?|\|\|)$/.test(n.operator) && isEnv(n.left))
    return [...new Set([envCode(n.left), ...fallbackEnvs(n.right)])];
  if (n.type === 'ConditionalExpression')
    return [...new Set([...fallbackEnvs(n.consequent), ...fallbackEnvs(n.alternate)])];
  return [];
}

/**
 * 74bf0d2's client base URL as the V1 base URL it was made of: its `/v2` literals in URL positions (a fallback, a
 * ternary's branch) back on `/v1`, as a tree `asCode` reads; undefined when it is not of that shape.
 */
function asV1(value: N): N | undefined {
  const n = bare(value);
  if (isString(n))
    return /^https?:\/\/.*\/v2$/.test(n.value)
      ? { type: 'StringLiteral', value: `${n.value.slice(0, -3)}/v1` }
      : undefined;
  if (n.type === 'LogicalExpression' && /^(\?\?|\|\|)$/.test(n.operator) && isEnv(n.left)) {
    const right = asV1(n.right);
    return right && { ...n, right };
  }
  if (n.type === 'ConditionalExpression') {
    const [consequent, alternate] = [asV1(n.consequent), asV1(n.alternate)];
    return consequent && alternate && { ...n, consequent, alternate };
  }
  return undefined;
}
