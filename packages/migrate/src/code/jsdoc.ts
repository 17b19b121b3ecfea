import { isIdent, type Link, type N, propName } from './ast.ts';
import { parseStatementsCode } from './parse.ts';
import type { FileProject } from './project-imports.ts';

/**
 * JavaScript checked by its JSDoc types (`// @ts-check`, `checkJs`): the query of a legacy callback typed in a JSDoc
 * comment gets `order_reference_v2` beside `order_reference` there, as a TypeScript type of the file does.
 */
const V1 = 'order_reference';
const V2 = 'order_reference_v2';
const PARAM = /^(param|arg|argument)$/;
const PROPERTY = /^(property|prop)$/;

/** A tag of a JSDoc comment (`@tag {type} name`), by offsets in the comment's value. */
interface Tag {
  tag: string;
  type: string;
  typeStart: number;
  /** The name as written (`[req.query.order_reference='']`), where it starts and ends. */
  nameStart: number;
  nameEnd: number;
  /** The name without brackets or default (`req.query.order_reference`). */
  name: string;
}

/** Where a JSDoc comment is: its holder's `comments`, at `index` (replaced there when it changes). */
interface Doc {
  holder: N;
  index: number;
}

const textOf = (d: Doc): string => d.holder.comments[d.index].value;

/** The typed tags of a JSDoc comment's value (it starts with `*`): `@param {type} name`, `@typedef {type} Name`. */
function tagsOf(value: string): Tag[] {
  const out: Tag[] = [];
  const re = /@(\w+)[ \t]*\{/g;
  for (;;) {
    const m = re.exec(value);
    if (!m) break;
    let depth = 1;
    let i = re.lastIndex;
    for (; i < value.length && depth; i++) depth += value[i] === '{' ? 1 : value[i] === '}' ? -1 : 0;
    if (depth) break;
    const name = /^[ \t]*(\[[^\]\n]*\]|[\w$.]+)?/.exec(value.slice(i))!;
    const nameStart = i + name[0].length - (name[1]?.length ?? 0);
    out.push({
      tag: m[1]!,
      type: value.slice(re.lastIndex, i - 1),
      typeStart: re.lastIndex,
      nameStart,
      nameEnd: i + name[0].length,
      name: /^\[?([\w$.]*)/.exec(name[1] ?? '')![1]!,
    });
    re.lastIndex = i;
  }
  return out;
}

/** The JSDoc comments of the file, where they are. */
function docsOf(nodes: N[]): Doc[] {
  const out: Doc[] = [];
  for (const holder of nodes)
    (holder.comments ?? []).forEach((c: N, index: number) => {
      if (c.type === 'CommentBlock' && c.value.startsWith('*')) out.push({ holder, index });
    });
  return out;
}

/** Inserts texts (at offsets of the comment's value) into a JSDoc comment, in a new comment object recast prints. */
function edit(d: Doc, inserts: Array<[number, string]>): void {
  let value = textOf(d);
  for (const [at, text] of inserts.sort((a, b) => b[0] - a[0]))
    value = value.slice(0, at) + text + value.slice(at);
  d.holder.comments[d.index] = { ...d.holder.comments[d.index], value };
}

/** The statements or declarations a function's JSDoc comment may be on: the function, its `const`, its export. */
function holdersOf(fn: N, links: Map<N, Link>): N[] {
  const out = [fn];
  for (let p = links.get(fn)?.parent; p; p = links.get(p)?.parent) {
    if (
      !/^(VariableDeclarator|VariableDeclaration|Export\w+Declaration|AssignmentExpression|ExpressionStatement|ObjectProperty|ClassProperty)$/.test(
        p.type,
      )
    )
      break;
    out.push(p);
  }
  return out;
}

export interface JsdocQuery {
  /** A JSDoc type on the query's way names order_reference (widened, or had order_reference_v2). */
  typed: boolean;
  /** Where the type to add it to is not this file's to change: for a TODO. */
  marked?: string;
}

/**
 * Adds `order_reference_v2` beside `order_reference` in the JSDoc types the query `query` is typed by on its way
 * (a `@type` cast of it, the `@param` of the function whose parameter it is read from, with its nested
 * `@param {…} req.query…` tags, a `@type` of the `const` it is bound to, and the `@typedef` they name), the type of
 * the query alone (not the request's `body`). A typedef also named for another value (not as the query of a function
 * that reads the callback's parameters, `readsCallback`) is marked instead, and so is a type imported from a module
 * of the project (`import('./types').Query`).
 */
export function widenJsdoc(
  query: N,
  nodes: N[],
  links: Map<N, Link>,
  source: string,
  readsCallback: (fn: N) => boolean,
  bindingOf: (id: N) => N | undefined,
  project?: FileProject,
): JsdocQuery {
  const result: JsdocQuery = { typed: false };
  const docs = docsOf(nodes);
  const seen = new Set<string>();
  /** Widens the type of `tag` (found again by `find`, as edits move offsets) at the member path `path`. */
  const widen = (d: Doc, find: (t: Tag) => boolean, path: string[], depth: number, nested = true): void => {
    const key = `${d.holder.start}:${d.index}:${path.join('.')}:${tagsOf(textOf(d)).findIndex(find)}`;
    if (depth > 5 || seen.has(key)) return;
    seen.add(key);
    const tag = tagsOf(textOf(d)).find(find);
    if (!tag) return;
    widenType(d, tag, path, depth);
    if (!nested) return;
    // Its nested tags: `@param {…} req.query`, `@param {string} req.query.order_reference`, a typedef's `@property`.
    const value = textOf(d);
    const tags = tagsOf(value);
    const at = tags.findIndex(find);
    const inner = PARAM.test(tag.tag)
      ? tags.filter((t) => PARAM.test(t.tag) && t.name.startsWith(`${tag.name}.`))
      : tag.tag === 'typedef'
        ? tags
            .slice(at + 1)
            .filter(
              (t, i, after) => PROPERTY.test(t.tag) && !after.slice(0, i).some((x) => x.tag === 'typedef'),
            )
        : [];
    const rel = (t: Tag) => (PARAM.test(tag.tag) ? t.name.slice(tag.name.length + 1) : t.name).split('.');
    const inserts: Array<[number, string]> = [];
    for (const t of inner) {
      const r = rel(t);
      const same = (n: string) => r.length === path.length + 1 && r.every((x, i) => x === (path[i] ?? n));
      if (r.length <= path.length && r.every((x, i) => x === path[i]))
        // Its own nested tags are among these.
        widen(d, (x) => x.tag === t.tag && x.name === t.name, path.slice(r.length), depth + 1, false);
      else if (same(V1)) {
        result.typed = true;
        if (inner.some((x) => rel(x).join('.') === [...path, V2].join('.'))) continue;
        const end = value.indexOf('\n', t.nameEnd);
        const written = value.slice(t.nameStart, t.nameEnd).replace(/order_reference(?![\w$])/, V2);
        const line = value.lastIndexOf('\n', t.nameStart) + 1;
        inserts.push([end < 0 ? value.length : end, `\n${value.slice(line, t.nameStart)}${written}`]);
      }
    }
    if (inserts.length) edit(d, inserts);
  };
  /** Widens the object types of a tag's `{…}` text at `path`; the typedefs it names there in turn. */
  const widenType = (d: Doc, tag: Tag, path: string[], depth: number): void => {
    const head = 'type T = ';
    // A type over several lines of the comment: each line's leading `*` read as a space (the offsets kept).
    const code = `${head}${tag.type.replace(/(\n[ \t]*)\*/g, '$1 ')}`;
    let t: N;
    try {
      t = (parseStatementsCode(`${code};`, 'x.ts')[0] as N).typeAnnotation;
    } catch {
      return;
    }
    const inserts: Array<[number, string]> = [];
    const at = (n: number) => tag.typeStart + n - head.length;
    const visit = (n: N, rest: string[]): void => {
      if (n.type === 'TSParenthesizedType') visit(n.typeAnnotation, rest);
      else if (/^TS(Union|Intersection)Type$/.test(n.type)) for (const x of n.types) visit(x, rest);
      else if (n.type === 'TSTypeLiteral') {
        if (rest.length) {
          const m = n.members.find((x: N) => x.type === 'TSPropertySignature' && propName(x) === rest[0]);
          if (m?.typeAnnotation) visit(m.typeAnnotation.typeAnnotation, rest.slice(1));
          return;
        }
        const v1 = n.members.find((x: N) => x.type === 'TSPropertySignature' && propName(x) === V1);
        if (v1) result.typed = true;
        if (!v1 || n.members.some((x: N) => propName(x) === V2)) return;
        const type = v1.typeAnnotation?.typeAnnotation;
        const member = `${V2}${v1.optional ? '?' : ''}${type ? `: ${code.slice(type.start, type.end)}` : ''}`;
        const sep = /[;,]/.test(code[v1.end - 1]!) ? code[v1.end - 1]! : '';
        const seps = n.members.map((x: N) => code[x.end - 1]).filter((c: string) => /[;,]/.test(c));
        // A literal written over several lines gets a line of its own, indented (and `*`-prefixed) as order_reference's.
        const multi = code.slice(n.start, n.end).includes('\n');
        const add = sep ? '' : (seps[0] ?? (multi ? '' : ','));
        const written = `${head}${tag.type}`;
        const indent = written.slice(written.lastIndexOf('\n', v1.start) + 1, v1.start);
        inserts.push([at(v1.end), multi ? `${add}\n${indent}${member}${sep}` : `${add} ${member}${sep}`]);
      }
      // Express's Request<Params, ResBody, ReqBody, ReqQuery>, also as import('express').Request<…>.
      else if (rest[0] === 'query' && (n.typeArguments ?? n.typeParameters)?.params.length === 4)
        visit((n.typeArguments ?? n.typeParameters).params[3], rest.slice(1));
      else if (n.type === 'TSImportType') {
        const spec: unknown = (n.source ?? n.argument)?.value ?? n.argument?.literal?.value;
        // The project's (relative, or an alias by its config; without one, any but the request's own package type).
        const own =
          typeof spec === 'string' &&
          (/^[.#]/.test(spec) || (project?.imports ? project.imports(spec) : rest.length === 0));
        if (own)
          result.marked ??= `\`import('${spec}')${n.qualifier ? `.${code.slice(n.qualifier.start, n.qualifier.end)}` : ''}\``;
      } else if (n.type === 'TSTypeReference' && isIdent(n.typeName))
        typedef(n.typeName.name, rest, d, tag, depth);
    };
    visit(t, path);
    if (inserts.length) edit(d, inserts);
  };
  /** The file's `@typedef {…} name`, widened at `path` where every other use of it types a callback's query. */
  const typedef = (name: string, path: string[], from: Doc, by: Tag, depth: number): void => {
    const def = docs.find((d) => tagsOf(textOf(d)).some((t) => t.tag === 'typedef' && t.name === name));
    if (!def) return;
    const word = new RegExp(`(^|[^\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
    const other = docs.some((d) =>
      tagsOf(textOf(d)).some(
        (t) =>
          word.test(t.type) &&
          !(d.holder === from.holder && d.index === from.index && t.tag === by.tag && t.name === by.name) &&
          !queryUse(d, t, name),
      ),
    );
    // A use outside a JSDoc type (a value of that name) is another value too.
    if (other || nodes.some((n) => isIdent(n, name))) {
      result.marked ??= `\`${name}\` of this file, which types other values too`;
      return;
    }
    // Another module of the run naming it may type a value of its own with it, which would then need order_reference_v2.
    const elsewhere = project?.typesNamed?.(name);
    if (elsewhere) {
      result.marked ??= `\`${name}\` of this file, which ${elsewhere} of the run names too (a value typed by it there would need order_reference_v2 as well)`;
      return;
    }
    widen(def, (t) => t.tag === 'typedef' && t.name === name, path, depth + 1);
  };
  /** Whether tag `t` names `name` as the query of a function that reads the callback's parameters from it. */
  const queryUse = (d: Doc, t: Tag, name: string): boolean => {
    const fn = [d.holder, d.holder.declaration, d.holder.declarations?.[0]?.init].find(
      (f) => Array.isArray(f?.params) && f.body,
    );
    const q = new RegExp(`(^|[{,;]\\s*)(query|Querystring)\\??\\s*:\\s*${name}\\s*($|[},;])`);
    return (
      !!fn &&
      PARAM.test(t.tag) &&
      (q.test(t.type) || (/(^|\.)query$/.test(t.name) && t.type.trim() === name)) &&
      readsCallback(fn)
    );
  };

  // The query's way, as for TypeScript: a cast of it, the parameter or `const` it is read from.
  const path: string[] = [];
  let e = query;
  for (let i = 0; e && i < 20; i++) {
    if (e.extra?.parenthesized) {
      const cast = docs.find((d) => {
        const c = d.holder.comments[d.index];
        return c.end <= e.start && /^\s*\(\s*$/.test(source.slice(c.end, e.start));
      });
      if (cast) widen(cast, (t) => t.tag === 'type', path, 0);
    }
    if (e.type === 'MemberExpression' && propName(e)) {
      path.unshift(propName(e)!);
      e = e.object;
    } else if (e.expression) e = e.expression;
    else if (e.type === 'Identifier') {
      const id = bindingOf(e);
      const l = id && links.get(id);
      if (l && Array.isArray(l.parent.params)) {
        const name = id.name;
        for (const h of holdersOf(l.parent, links))
          for (const d of docs.filter((x) => x.holder === h))
            widen(d, (t) => PARAM.test(t.tag) && t.name === name, path, 0);
        break;
      }
      const decl = l?.parent.type === 'VariableDeclarator' ? links.get(l.parent)?.parent : undefined;
      const typedConst = decl && docs.filter((d) => holdersOf(decl, links).includes(d.holder));
      for (const d of typedConst ?? []) widen(d, (t) => t.tag === 'type', path, 0);
      e = typedConst?.length ? undefined : l?.parent.init;
    } else break;
  }
  return result;
}
