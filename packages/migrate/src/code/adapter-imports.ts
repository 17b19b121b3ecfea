import {
  bare,
  indexTree,
  isIdent,
  isString,
  memberPath,
  type N,
  objectProps,
  propName,
  singleQuoted,
} from './ast.ts';
import { exportsOf } from './catches.ts';
import { callsOneOf, type Factories, factoriesOf } from './factories.ts';
import { importsOf, isRequire, moduleOf, RE_EXPORT, specOf } from './importers.ts';
import { parsePlain, parseStatementsCode } from './parse.ts';
import { Bindings } from './values.ts';

/**
 * What an export of a module of the run is: a V1 adapter bound by a `const` to `createV1Adapter(…)` (`adapter`,
 * with the `client` it is made from where that is a `createClient(…)` bound by a `const`, of its module or imported
 * there), such a V2 client (`client`: its module and name there, its `base` URL as code where it is a string, and
 * the `process.env` variable its `key` is read from), or neither (false).
 */
export type Made = false | { adapter?: true; client?: string; base?: string; key?: string };

export interface AdapterOf {
  /** What a module's export (by the import's specifier and name) is; undefined where the run cannot tell. */
  (spec: string, name: string): Made | undefined;
  /**
   * The name under which the module `spec` exports the client `client` (a `Made`'s `client`), or with `adapter`
   * an adapter made from it, if it does.
   */
  exportOf(spec: string, client: string, adapter?: boolean): string | undefined;
  /** The names the module `spec` exports, as far as the run reads them (what a namespace import of it holds). */
  names(spec: string): string[];
}

interface Exports {
  /** Whether the module calls `createV1Adapter`. */
  makes: boolean;
  /** Exported name → what it is. */
  names: Map<string, Made>;
  /** The module's names it imports from modules of the run: [module, its name there]. */
  imports: Map<string, [string | undefined, string]>;
  /** `export … from`, `module.exports = require(…)`: [exported name (`*`: any), module, its name there]. */
  from: Array<[string, string | undefined, string]>;
}

/**
 * Whether a module may make a V1 adapter or a V2 client, or pass another module's exports on: the texts
 * `adapterExports` reads.
 */
export const mayExportAdapter = (text: string): boolean =>
  /createV1Adapter|createClient/.test(text) || RE_EXPORT.test(text);

/**
 * Reads the modules of the run that make a V1 adapter or a V2 client or pass exports on (`texts`, by real path; the
 * other files of the run make none), before any is rewritten: for each file, what tells whether a name it imports
 * from a module of the run is an adapter (or a client).
 */
export function adapterExports(
  files: string[],
  texts: ReadonlyMap<string, string>,
): (real: string) => AdapterOf {
  const inRun = new Set(files);
  const modules = new Map<string, Exports>();
  for (const [real, text] of texts) {
    try {
      const makes = text.includes('createV1Adapter');
      const program = parsePlain(text, real).program;
      const { nodes, links } = indexTree(program);
      const b = new Bindings(nodes, links);
      const imports = new Map<string, [string | undefined, string]>();
      for (const [local, { spec, name }] of importsOf(nodes))
        imports.set(local, [moduleOf(real, spec, inRun), name]);
      const m: Exports = { makes, names: new Map(), imports, from: [] };
      // `createClient` and `createV1Adapter` by where the module imports them from (not another library's).
      const factories = factoriesOf(program);
      const made = (local: string): Made => {
        const init = b.get(local);
        const call = (f: keyof Factories) => callsOneOf(init, factories[f]);
        if (call('adapter')) {
          const arg = init.arguments[0];
          return { adapter: true, ...(isIdent(arg) ? { client: `${real}\0${arg.name}` } : {}) };
        }
        const props = call('client') ? objectProps(init.arguments[0]) : undefined;
        const base = props?.get('baseUrl');
        const secret = props?.get('secretKey');
        const key =
          secret &&
          indexTree(b.resolve(secret))
            .nodes.map(memberPath)
            .find((p) => /^process\.env\./.test(p!));
        return (
          call('client') && {
            client: `${real}\0${local}`,
            ...(isString(base) ? { base: singleQuoted(base.value) } : {}),
            ...(key ? { key } : {}),
          }
        );
      };
      for (const [local, names] of exportsOf(nodes)) for (const name of names) m.names.set(name, made(local));
      // The clients of the module not exported (an adapter may be made from one).
      for (const n of nodes)
        if (n.type === 'VariableDeclarator' && isIdent(n.id) && !m.names.has(`#${n.id.name}`))
          m.names.set(`#${n.id.name}`, made(n.id.name));
      for (const n of program.body as N[]) {
        const e = n.expression;
        const target = n.source && moduleOf(real, n.source.value, inRun);
        // `export * from …`, `export { a as b } from …`; a namespace passed on (`export * as ns from …`) is not followed.
        if (n.type === 'ExportAllDeclaration')
          m.from.push(n.exported ? [propName({ key: n.exported })!, undefined, '*'] : ['*', target, '*']);
        else if (n.type === 'ExportNamedDeclaration' && n.source)
          for (const sp of n.specifiers)
            m.from.push([
              propName({ key: sp.exported })!,
              sp.local && target,
              sp.local ? propName({ key: sp.local })! : '*',
            ]);
        else if (memberPath(e?.left) === 'module.exports' && isRequire(e.right))
          m.from.push(['*', moduleOf(real, specOf(e.right), inRun), '*']);
      }
      modules.set(real, m);
    } catch {}
  }
  const resolveIn = (real: string | undefined, name: string, depth = 0): Made | undefined => {
    const m = real && depth < 9 ? modules.get(real) : undefined;
    // Not a file of the run (or a chain too long): unknown. A file of the run making none and passing none on: none.
    if (!m) return real && depth < 9 ? false : undefined;
    const own = m.names.get(name);
    if (own) return own.adapter ? { adapter: true, ...clientOf(own.client, depth) } : own;
    if (own !== undefined) return own;
    for (const [as, target, there] of m.from)
      if (as === name || (as === '*' && name !== 'default')) {
        const r = resolveIn(target, there === '*' ? name : there, depth + 1);
        if (r !== false) return r;
      }
    return m.makes ? undefined : false;
  };
  /** An adapter's client (`<module>\0<local>`): a client of that module, or the one it imports. */
  const clientOf = (id: string | undefined, depth: number): { client?: string } => {
    const [real, local] = id?.split('\0') ?? [];
    const own = real ? modules.get(real)?.names.get(`#${local}`) : undefined;
    if (own && !own.adapter && own.client) return { client: own.client };
    const from = real ? modules.get(real)?.imports.get(local!) : undefined;
    const r = from && resolveIn(from[0], from[1], depth + 1);
    return r && !r.adapter && r.client ? { client: r.client } : {};
  };
  return (real) =>
    Object.assign((spec: string, name: string) => resolveIn(moduleOf(real, spec, inRun), name), {
      exportOf(spec: string, client: string, adapter = false) {
        const there = moduleOf(real, spec, inRun);
        for (const [name, m] of modules.get(adapter ? there! : client.split('\0')[0]!)?.names ?? [])
          if (m && !m.adapter === !adapter && !name.startsWith('#')) {
            const r = resolveIn(there, name);
            if (r && !r.adapter === !adapter && r.client === client) return name;
          }
        return undefined;
      },
      names(spec: string) {
        const out = new Set<string>();
        const walk = (m: Exports | undefined, depth: number): void => {
          for (const name of m && depth < 9 ? m.names.keys() : []) if (name[0] !== '#') out.add(name);
          for (const [as, target] of m && depth < 9 ? m.from : [])
            as === '*' ? walk(modules.get(target!), depth + 1) : out.add(as);
        };
        walk(modules.get(moduleOf(real, spec, inRun)!), 0);
        return [...out];
      },
    });
}

/**
 * The V1 adapters a file imports from modules of the run (`v1`, or `sdk.v1` of a namespace), the names it imports
 * that may be one, with the module (the run cannot tell), and what each name it imports from one is (`made`).
 */
export function importedAdapters(
  nodes: N[],
  adapterOf: AdapterOf,
): { known: string[]; unknown: Map<string, string>; made: Map<string, { spec: string; made: Made }> } {
  const known: string[] = [];
  const unknown = new Map<string, string>();
  const made = new Map<string, { spec: string; made: Made }>();
  const add = (name: string, spec: string, is: Made | undefined) => {
    if (is) made.set(name, { spec, made: is });
    if (is ? is.adapter : is === undefined) is ? known.push(name) : unknown.set(name, spec);
  };
  for (const [local, { spec, name }] of importsOf(nodes)) {
    if (name !== '*') add(local, spec, adapterOf(spec, name));
    else {
      const named = new Set<string>();
      for (const n of nodes)
        if (n.type === 'MemberExpression' && isIdent(bare(n.object), local) && propName(n)) {
          named.add(propName(n)!);
          add(`${local}.${propName(n)}`, spec, adapterOf(spec, propName(n)!));
        }
      // An earlier run's client or adapter the module exports, which the file does not name (yet): `ns.client`.
      for (const x of adapterOf.names(spec))
        if (!named.has(x) && adapterOf(spec, x)) add(`${local}.${x}`, spec, adapterOf(spec, x));
    }
  }
  return { known, unknown, made };
}

/** A V2 client of another module the file uses (`name`, or `export` that `add` imports), and that module's adapter. */
export interface Shared {
  name?: string;
  export?: string;
  base: string;
  key: string;
  add?: (local: string) => void;
  adapter?: { name?: string; export: string; add?: (local: string) => void };
}

/**
 * The client the imported adapter `adapter` is made from, as this file can name it: a name it imports already, or
 * an export of the adapter's module (`add` puts it into the adapter's import, as `free(name)`), with its base URL
 * (a string); else why this file's own client would be a second one.
 */
export function sharedClient(
  nodes: N[],
  adapter: string,
  imported: ReturnType<typeof importedAdapters>,
  adapterOf: AdapterOf,
): Shared | string {
  const { spec, made } = imported.made.get(adapter)!;
  const id = made ? made.client : undefined;
  const apart = (why: string) =>
    `\`${adapter}\` (imported from ${spec}) is made from a V2 client ${why}, so this file makes its own client and adapter: two clients in one program spend two rate-limit budgets; where these calls go to its base URL, import that client and \`${adapter}\` here instead`;
  if (!id) return apart('this tool does not follow to its createClient(…)');
  const mine = [...imported.made].find(([, m]) => m.made && !m.made.adapter && m.made.client === id);
  const name = mine?.[0];
  const exported = name ? undefined : adapterOf.exportOf(spec, id);
  const what = name ? mine![1].made : exported ? adapterOf(spec, exported) : undefined;
  const base = what ? what.base : undefined;
  if (!name && !exported) return apart(`${spec} does not export`);
  if (!base) return apart('whose base URL is not written out as a string');
  const key = keyOf(what ? what.key : undefined, mine?.[1].spec ?? spec);
  if (name || adapter.includes('.'))
    return { name: name ?? `${adapter.split('.')[0]}.${exported}`, base, key };
  // The import of the adapter, to name the client in too (a require: another beside it, printed on one line).
  const add = importBeside(nodes, adapter, spec, exported!);
  if (add) return { export: exported, base, key, add };
  return apart('that its import here (`require(…).x`) cannot name');
}

/**
 * What adds `exported` of `spec` to the file's import of `local` from it, as the name it is given (a require: another
 * beside it, printed on one line); undefined where that import cannot name it (`require(…).x`).
 */
function importBeside(nodes: N[], local: string, spec: string, exported: string) {
  const { links } = indexTree(nodes[0]);
  for (const n of nodes) {
    const cjs =
      n.type === 'VariableDeclarator' &&
      n.id.type === 'ObjectPattern' &&
      isRequire(n.init) &&
      n.id.properties.some((p: N) => isIdent(p.value, local));
    if (cjs || (n.type === 'ImportDeclaration' && n.specifiers.some((sp: N) => sp.local.name === local)))
      return (as: string) => {
        const named = as === exported ? as : `${exported}${cjs ? ':' : ' as'} ${as}`;
        const [stmt] = parseStatementsCode(
          cjs ? `const { ${named} } = require(${singleQuoted(spec)});` : `import { ${named} } from 'x';`,
          'x.ts',
        ) as N[];
        if (!cjs) return n.specifiers.push(stmt.specifiers[0]);
        const decl = links.get(n)!.parent;
        const body: N[] = links.get(decl)!.parent[links.get(decl)!.key];
        body.splice(body.indexOf(decl) + 1, 0, stmt);
      };
  }
  return undefined;
}

/**
 * The V2 client of another module of the run a file that makes none imports (its base URL written out): the one
 * its own adapter (`own`: `createV1Adapter(…)`, an earlier run's) is made from, else the first; with no adapter of
 * its own, the `adapter` its module exports made from it (`sdk.v1`, or an export `add` imports as `free(export)`).
 */
export function importedClient(
  nodes: N[],
  imported: ReturnType<typeof importedAdapters> | undefined,
  own: N | undefined,
  adapterOf: AdapterOf | undefined,
): Shared | undefined {
  for (const [name, { spec, made }] of imported?.made ?? [])
    if (made && !made.adapter && made.base && (!own || memberPath(own.arguments?.[0]) === name)) {
      const exported = own ? undefined : adapterOf?.exportOf(spec, made.client!, true);
      const ns = exported && name.includes('.') ? `${name.split('.')[0]}.${exported}` : undefined;
      const add = exported && !ns ? importBeside(nodes, name, spec, exported) : undefined;
      const adapter = ns || add ? { ...(ns ? { name: ns } : { add }), export: exported! } : undefined;
      return { name, base: made.base, key: keyOf(made.key, spec), ...(adapter ? { adapter } : {}) };
    }
  return undefined;
}

/** Where a client another module makes reads its secret key, as a TODO says it (never the key written out). */
const keyOf = (key: string | undefined, spec: string) =>
  key ? `${key} (as ${spec} makes it)` : `the secretKey ${spec} makes it with`;
