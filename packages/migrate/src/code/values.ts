import {
  bare,
  isIdent,
  isLiteralFallback,
  isReference,
  isString,
  type Link,
  memberPath,
  type N,
  propName,
  within,
} from './ast.ts';

/**
 * What a file's constants hold, as far as it can be read without running it: a name (or `this.x`) bound
 * exactly once, by a `const` (or a `var` whose binding is certain, see {@link VarScopes}; or a class field, or one
 * `this.x =` assignment), to an expression; an identifier whose name is bound more than once, through the
 * declaration its scope gives it (`declaratorAt`).
 */
export class Bindings {
  private readonly values = new Map<string, N[]>();
  /** Names also bound where the file says nothing of their value: parameters, destructuring, catch. */
  private readonly shadowed = new Set<string>();
  /** Names a `const` destructuring binds to one property of a value (`const { a: x } = v`: x ← v.a). */
  private readonly picked = new Map<string, { from: N; property: N }>();
  /** Where each `var` binds, and the names a `var` binds whose binding is not certain (not followed). */
  readonly vars: VarScopes;

  constructor(
    nodes: N[],
    private readonly links: Map<N, Link>,
  ) {
    this.vars = new VarScopes(nodes, links);
    for (const n of nodes) {
      if (/Function|ObjectMethod|ClassMethod|ClassPrivateMethod/.test(n.type) && Array.isArray(n.params)) {
        for (const p of n.params) for (const name of boundNames(p)) this.shadowed.add(name);
      } else if (n.type === 'CatchClause' && n.param) {
        for (const name of boundNames(n.param)) this.shadowed.add(name);
      }
      if (n.type === 'VariableDeclarator' && n.id.type !== 'Identifier') {
        for (const name of boundNames(n.id)) this.add(name, null);
        if (n.id.type === 'ObjectPattern' && n.init && this.fixed(n))
          for (const p of n.id.properties)
            if (p.type === 'ObjectProperty' && !p.computed) {
              // `{ a: x }`, or with a default written out (`{ a: x = '' }`), which the property's read keeps.
              const x =
                p.value.type === 'AssignmentPattern' && isLiteralFallback(p.value.right)
                  ? p.value.left
                  : p.value;
              if (x.type === 'Identifier') this.picked.set(x.name, { from: n.init, property: p });
            }
      } else if (n.type === 'VariableDeclarator' && n.id.type === 'Identifier') {
        this.add(n.id.name, n.init && this.fixed(n) ? n.init : null);
      } else if (
        (n.type === 'ClassProperty' || n.type === 'PropertyDefinition') &&
        !n.computed &&
        isIdent(n.key)
      ) {
        this.add(`this.${n.key.name}`, n.value ?? null);
      } else if (n.type === 'AssignmentExpression') {
        const key = memberPath(n.left);
        if (key) this.add(key, n.operator === '=' && key.startsWith('this.') ? n.right : null);
      } else if ((n.type === 'FunctionDeclaration' || n.type === 'ClassDeclaration') && n.id) {
        this.add(n.id.name, null);
      }
    }
  }

  private add(key: string, value: N | null) {
    this.values.set(key, [...(this.values.get(key) ?? []), value]);
  }

  /** Whether the declarator binds its names for good: a `const`, or a `var` whose binding is certain. */
  private fixed(d: N): boolean {
    const kind = this.links.get(d)?.parent?.kind;
    return kind === 'const' || (kind === 'var' && boundNames(d.id).every((x) => this.vars.certain(x)));
  }

  /** Whether the file declares or assigns `key` anywhere (a local `fetch` is not the global one). */
  declared(key: string): boolean {
    return this.values.has(key);
  }

  /** Whether the file binds `name` anywhere: a declaration, an assignment, a parameter, a catch clause. */
  bound(name: string): boolean {
    return this.values.has(name) || this.shadowed.has(name);
  }

  /** The one expression bound to `key`, or undefined (unknown, rebound, or a parameter shadowing it). */
  get(key: string): N | undefined {
    if (this.shadowed.has(key)) return undefined;
    const v = this.values.get(key);
    return v && v.length === 1 && v[0] ? v[0] : undefined;
  }

  /**
   * The value and property a name was destructured from by a `const` (`const { a: x } = v` → v, 'a' and the
   * property's node), when the file binds that name nowhere else; undefined otherwise.
   */
  pickedFrom(name: string): { from: N; key: string | undefined; property: N } | undefined {
    const v = this.values.get(name);
    const p = this.shadowed.has(name) || v?.length !== 1 ? undefined : this.picked.get(name);
    // Its key as it is now (a rewrite may have changed it).
    return p && { ...p, key: propName(p.property) };
  }

  /** Resolves identifiers and `this.x` through constants (a few steps at most). */
  resolve(n: N, depth = 0): N {
    const b = bare(n);
    const key = memberPath(b);
    if (depth > 4 || !key || (b.type !== 'Identifier' && !key.startsWith('this.'))) return b;
    const v = this.get(key) ?? this.constAt(b)?.init;
    return v ? this.resolve(v, depth + 1) : b;
  }

  /**
   * The declarator binding the identifier `id` where it stands, by scope (the nearest function, block, catch clause
   * or loop binding its name; a `var` binds in its whole function): null where that is no declarator (a parameter, a
   * catch binding, a function's or class's name, or nothing of the file); undefined where this cannot tell (a `var`
   * of that name whose binding is not certain, an identifier not in the tree the bindings were read from).
   */
  declaratorAt(id: N): N | null | undefined {
    if (!isIdent(id) || !this.vars.certain(id.name) || !this.links.has(id)) return undefined;
    // No declarator of the file binds that name.
    if (!this.values.has(id.name)) return null;
    const c = scopeOf(id, this.links, this.vars);
    if (!c) return null;
    const hoisted = this.vars.hoisted.get(c)?.get(id.name);
    if (hoisted) return hoisted[0];
    return (
      scopeStatements(c)
        .flatMap((s) => (s.type === 'VariableDeclaration' ? s.declarations : []))
        .find((d: N) => boundNames(d.id).includes(id.name)) ?? null
    );
  }

  /**
   * The declarator of one name with a value (`const x = v`, or a `var` whose binding is certain) binding `id` where
   * it stands, by scope.
   */
  constAt(id: N): N | undefined {
    const d = this.declaratorAt(id);
    return d?.init && isIdent(d.id) && this.fixed(d) ? d : undefined;
  }

  /**
   * What `pickedFrom` says of the name of `id`, or, where that name is bound more than once in the file, of the
   * `const` destructuring binding `id` where it stands (by scope).
   */
  pickedAt(id: N): { from: N; key: string | undefined; property: N } | undefined {
    const byName = isIdent(id) ? this.pickedFrom(id.name) : undefined;
    if (byName) return byName;
    const d = this.declaratorAt(id);
    if (d?.id.type !== 'ObjectPattern' || !d.init || !this.fixed(d)) return undefined;
    const property = d.id.properties.find(
      (p: N) =>
        p.type === 'ObjectProperty' &&
        !p.computed &&
        isIdent(
          p.value.type === 'AssignmentPattern' && isLiteralFallback(p.value.right) ? p.value.left : p.value,
          id.name,
        ),
    );
    return property && { from: d.init, key: propName(property), property };
  }
}

/** Whether `n` opens the scope a `var` binds in: a function, the program, a class's static block, a namespace. */
const isVarScope = (n: N): boolean =>
  Array.isArray(n?.params) || /^(Program|StaticBlock|TSModuleBlock)$/.test(n?.type);

const varScopeOf = (n: N, links: Map<N, Link>): N | undefined => {
  let c = links.get(n)?.parent;
  while (c && !isVarScope(c)) c = links.get(c)?.parent;
  return c;
};

/**
 * Where each `var` of a tree binds (its function, or the program: hoisted from any block of it), and whether that
 * binding is certain, as a `const`'s is: its name declared by one `var` in its function, not in a loop's head,
 * never assigned anywhere in the file, bound no other way in that function (a parameter, a `let`, a function
 * declaration…), and no `eval` or `with` in the file (`opaque`). A function declared in a block (whose name sloppy
 * code also binds in the enclosing function) is not certain either.
 */
export class VarScopes {
  /** Scope → name → its `var` declarators there. */
  readonly hoisted = new Map<N, Map<string, N[]>>();
  /** `eval` or `with` in the tree: what a name reads may be bound where the tree does not say. */
  readonly opaque: boolean;
  private readonly uncertain = new Set<string>();

  constructor(nodes: N[], links: Map<N, Link>) {
    this.opaque = nodes.some(
      (n) => n.type === 'WithStatement' || (n.type === 'CallExpression' && isIdent(n.callee, 'eval')),
    );
    const assigned = new Set<string>();
    const other = new Map<N, Set<string>>();
    const bindOther = (scope: N | undefined, names: string[]) => {
      const set = other.get(scope) ?? new Set<string>();
      for (const x of names) set.add(x);
      other.set(scope, set);
    };
    for (const n of nodes) {
      const l = links.get(n);
      if (n.type === 'VariableDeclaration' && n.kind === 'var') {
        const scope = varScopeOf(n, links);
        const head = /^For/.test(l?.parent.type) && (l?.key === 'init' || l?.key === 'left');
        const own = this.hoisted.get(scope) ?? new Map<string, N[]>();
        this.hoisted.set(scope, own);
        for (const d of n.declarations)
          for (const x of boundNames(d.id)) {
            if (head || x === 'arguments' || x === 'eval') this.uncertain.add(x);
            own.set(x, [...(own.get(x) ?? []), d]);
          }
      } else if (n.type === 'VariableDeclaration') {
        bindOther(
          varScopeOf(n, links),
          n.declarations.flatMap((d: N) => boundNames(d.id)),
        );
      } else if (Array.isArray(n.params)) {
        const own = n.id && /Expression$/.test(n.type) ? [n.id.name] : [];
        bindOther(n, [...n.params.flatMap(boundNames), ...own]);
      }
      if (/^(Function|Class)Declaration$/.test(n.type) && n.id) {
        bindOther(varScopeOf(n, links), [n.id.name]);
        // Declared in a block (not a function's body, nor the program's): sloppy code binds it outside too.
        const at = (/^Export/.test(l?.parent.type) ? links.get(l!.parent) : l)?.parent;
        const up = links.get(at);
        const inBody =
          /^(Program|StaticBlock|TSModuleBlock)$/.test(at?.type) ||
          (up?.key === 'body' && Array.isArray(up.parent.params));
        if (n.type === 'FunctionDeclaration' && !inBody) this.uncertain.add(n.id.name);
      } else if (n.type === 'CatchClause') {
        bindOther(varScopeOf(n, links), boundNames(n.param));
      } else if (n.type === 'ImportDeclaration') {
        bindOther(
          varScopeOf(n, links),
          n.specifiers.map((sp: N) => sp.local.name),
        );
      } else if (n.type === 'AssignmentExpression') {
        for (const x of boundNames(n.left)) assigned.add(x);
      } else if (n.type === 'UpdateExpression' && isIdent(n.argument)) {
        assigned.add(n.argument.name);
      } else if (/^For(In|Of)Statement$/.test(n.type) && n.left.type !== 'VariableDeclaration') {
        for (const x of boundNames(n.left)) assigned.add(x);
      }
    }
    for (const [scope, own] of this.hoisted)
      for (const [x, ds] of own)
        if (ds.length > 1 || other.get(scope)?.has(x) || assigned.has(x) || this.opaque)
          this.uncertain.add(x);
    this.readBeforeSet(nodes, links);
  }

  /**
   * A `var` read where its value may not be set is not certain: a read before its declaration, or outside the
   * block the declaration stands in (`if (k) { var x = … } use(x)`: undefined when the block did not run), or in
   * a parameter's default (which the function's `var`s do not bind: the name there is the one outside). Any
   * identifier of that name in its function counts (cautious: one an inner scope binds again too).
   */
  private readBeforeSet(nodes: N[], links: Map<N, Link>): void {
    const names = new Set<string>();
    for (const own of this.hoisted.values())
      for (const x of own.keys()) if (!this.uncertain.has(x)) names.add(x);
    if (!names.size) return;
    for (const r of nodes) {
      if (r.type !== 'Identifier' || !names.has(r.name) || this.uncertain.has(r.name)) continue;
      if (!isReference(links.get(r))) continue;
      // Up to the function (or program) whose `var` it is, noting whether it is in a function's parameters.
      let inParams = false;
      for (let c: N = r; ; ) {
        const up = links.get(c);
        if (!up) break;
        if (up.key === 'params') inParams = true;
        const declarators = this.hoisted.get(up.parent)?.get(r.name);
        if (declarators) {
          const d = declarators[0];
          const statement = links.get(d)?.parent;
          const block = statement && links.get(statement)?.parent;
          if (inParams || !block || r.start < d.end || !within(r, block, links)) this.uncertain.add(r.name);
          break;
        }
        c = up.parent;
      }
    }
  }

  /**
   * Whether the scope walk tells what binds `name` (a `var` whose binding is certain, or a name no `var` binds;
   * not a function declared in a block).
   */
  certain(name: string): boolean {
    return !this.uncertain.has(name);
  }
}

/** The scope binding the identifier `id` where it stands (by the scopes between, `var`s hoisted), or undefined. */
export function scopeOf(id: N, links: Map<N, Link>, vars?: VarScopes): N | undefined {
  for (let c = links.get(id)?.parent; c; c = links.get(c)?.parent) if (binds(c, id.name, vars)) return c;
  return undefined;
}

/** The statements whose declarations the scope `n` opens holds (a block's, a switch's cases', a loop's head). */
const scopeStatements = (n: N): N[] => {
  const own = (s: N): N[] => (s?.type === 'ExportNamedDeclaration' ? own(s.declaration) : s ? [s] : []);
  if (/^For/.test(n.type)) return own(n.init ?? n.left);
  // The cases of a switch share one scope.
  const lists = n.type === 'SwitchStatement' ? n.cases.map((c: N) => c.consequent) : [n.body];
  return lists.flatMap((b: N) => (Array.isArray(b) ? b.flatMap(own) : []));
};

/**
 * Whether the scope `n` opens binds `name`: a parameter, a declaration of its block or switch, a catch or loop
 * binding, a function's or class's own name inside it; with `vars`, a `var` of its function (hoisted) where `n` is
 * that function or the program (without, a `var` binds in the block it stands in).
 */
export function binds(n: N, name: string, vars?: VarScopes): boolean {
  // Where the `var`s are known, they bind in their function (or the program), not in the block they stand in.
  if (vars?.hoisted.get(n)?.has(name)) return true;
  const declared = (s: N): string[] =>
    s?.type === 'VariableDeclaration'
      ? vars && s.kind === 'var'
        ? []
        : s.declarations.flatMap((d: N) => boundNames(d.id))
      : /^(Function|Class|TSEnum)Declaration$/.test(s?.type) && s.id
        ? [s.id.name]
        : s?.type === 'ImportDeclaration'
          ? s.specifiers.map((sp: N) => sp.local.name)
          : /^Export(Named|Default)Declaration$/.test(s?.type)
            ? declared(s.declaration)
            : [];
  const names = Array.isArray(n.params)
    ? [...n.params.flatMap(boundNames), ...(/Expression$/.test(n.type) && n.id ? [n.id.name] : [])]
    : n.type === 'CatchClause'
      ? boundNames(n.param)
      : n.type === 'ClassExpression' && n.id
        ? [n.id.name]
        : scopeStatements(n).flatMap(declared);
  return names.includes(name);
}

/** The names a parameter or a destructuring pattern binds. */
export function boundNames(p: N): string[] {
  if (!p) return [];
  switch (p.type) {
    case 'Identifier':
      return [p.name];
    case 'TSParameterProperty':
      return boundNames(p.parameter);
    case 'AssignmentPattern':
      return boundNames(p.left);
    case 'RestElement':
      return boundNames(p.argument);
    case 'ArrayPattern':
      return p.elements.flatMap((e: N) => boundNames(e));
    case 'ObjectPattern':
      return p.properties.flatMap((q: N) => boundNames(q.type === 'RestElement' ? q : q.value));
    default:
      return [];
  }
}

/**
 * A part of a string: text, or a hole (only known at run time). `runtime` is the outermost
 * `process.env.X ?? <fallback>` the part is the fallback of: known as text, but only a default.
 */
export type Piece = ({ text: string } | { hole: N }) & { runtime?: N };

/** A string expression as text and holes (the parts only known at run time). */
export function evalString(n: N, b: Bindings, depth = 0): Piece[] {
  const node = bare(n);
  if (depth > 6) return [{ hole: node }];
  if (isString(node)) return [{ text: node.value }];
  if (node.type === 'TemplateLiteral') {
    const out: Piece[] = [];
    node.quasis.forEach((q: N, i: number) => {
      const text = q.value.cooked ?? q.value.raw;
      if (text) out.push({ text });
      if (i < node.expressions.length) out.push(...evalString(node.expressions[i], b, depth + 1));
    });
    return out;
  }
  if (node.type === 'BinaryExpression' && node.operator === '+') {
    return [...evalString(node.left, b, depth + 1), ...evalString(node.right, b, depth + 1)];
  }
  if (
    node.type === 'LogicalExpression' &&
    (node.operator === '??' || node.operator === '||') &&
    isEnv(node.left)
  ) {
    // `process.env.X ?? 'https://…/v1'`: the fallback says which API it is (and is only a default).
    return evalString(node.right, b, depth + 1).map((p) => ({ ...p, runtime: node }));
  }
  if (node.type === 'ConditionalExpression') {
    // `cond ? 'https://…/v1' : 'https://test.…/v1'`: a V1 base URL either way, which one only known at run time.
    const [yes, no] = [node.consequent, node.alternate].map((x) => v1BaseText(evalString(x, b, depth + 1)));
    if (yes !== undefined && no !== undefined) return [{ text: yes, runtime: node }];
  }
  const resolved = b.resolve(node);
  if (resolved !== node) {
    // A constant whose value is only known at run time stays a hole under its own name.
    const inner = evalString(resolved, b, depth + 1);
    if (inner.some((p) => 'text' in p)) return inner;
  }
  return [{ hole: node }];
}

/** The text of pieces that are all text and make a whole V1 base URL (ending in `/v1`), else undefined. */
function v1BaseText(pieces: Piece[]): string | undefined {
  if (!pieces.every((p) => 'text' in p)) return undefined;
  const text = pieces.map((p) => ('text' in p ? p.text : '')).join('');
  return isV1Url(text) && v1Split(text) === text.length ? text : undefined;
}

export const isEnv = (n: N): boolean =>
  bare(n)?.type === 'MemberExpression' && memberPath(bare(n).object) === 'process.env';

/** The pieces as text with `{hN}` for holes, and the holes. */
export function flatten(pieces: Piece[]): { text: string; holes: N[] } {
  const holes: N[] = [];
  let text = '';
  for (const p of pieces) {
    if ('text' in p) text += p.text;
    else text += `{h${holes.push(p.hole) - 1}}`;
  }
  return { text, holes };
}

const V1_SEGMENT = /\/v1(?=[/?#]|$)/;

/** Where a V1 URL's path starts: the index just after `/v1`, or -1. */
export function v1Split(text: string): number {
  const m = V1_SEGMENT.exec(text);
  return m ? m.index + 3 : -1;
}

/** Whether a string constant is a V1 base URL (`https://…/v1…`). */
export function isV1Url(text: string): boolean {
  return /^https?:\/\//i.test(text) && v1Split(text) >= 0;
}
