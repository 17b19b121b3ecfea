import { bare, indexTree, isIdent, memberPath, type N, propName } from './ast.ts';
import { exportsOf } from './catches.ts';
import { importsOf, isRequire, moduleOf, RE_EXPORT, specOf } from './importers.ts';
import { parsePlain } from './parse.ts';
import { Bindings } from './values.ts';

/**
 * Whether a module's export (by the import's specifier and name) is a V1 adapter, `createV1Adapter(…)`'s result:
 * undefined where the run cannot tell (a module left out of it, an export this tool does not follow).
 */
export type AdapterOf = (spec: string, name: string) => boolean | undefined;

interface Exports {
  /** Whether the module calls `createV1Adapter`. */
  makes: boolean;
  /** Exported name → whether it is an adapter bound by a `const`. */
  names: Map<string, boolean>;
  /** `export … from`, `module.exports = require(…)`: [exported name (`*`: any), module, its name there]. */
  from: Array<[string, string | undefined, string]>;
}

/** Whether a module may make a V1 adapter or pass another module's exports on: the texts `adapterExports` reads. */
export const mayExportAdapter = (text: string): boolean =>
  text.includes('createV1Adapter') || RE_EXPORT.test(text);

/**
 * Reads the modules of the run that make a V1 adapter or pass exports on (`texts`, by real path; the other files of
 * the run make none), before any is rewritten: for each file, what tells whether a name it imports from a module
 * of the run is an adapter.
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
      const m: Exports = { makes, names: new Map(), from: [] };
      for (const [local, names] of exportsOf(nodes)) {
        const init = b.get(local);
        for (const name of names)
          m.names.set(name, init?.type === 'CallExpression' && isIdent(init.callee, 'createV1Adapter'));
      }
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
  const resolveIn = (real: string | undefined, name: string, depth = 0): boolean | undefined => {
    const m = real && depth < 9 ? modules.get(real) : undefined;
    // Not a file of the run (or a chain too long): unknown. A file of the run making none and passing none on: none.
    if (!m) return real && depth < 9 ? false : undefined;
    const own = m.names.get(name);
    if (own !== undefined) return own;
    for (const [as, target, there] of m.from)
      if (as === name || (as === '*' && name !== 'default')) {
        const r = resolveIn(target, there === '*' ? name : there, depth + 1);
        if (r !== false) return r;
      }
    return m.makes ? undefined : false;
  };
  return (real) => (spec, name) => resolveIn(moduleOf(real, spec, inRun), name);
}

/**
 * The V1 adapters a file imports from modules of the run (`v1`, or `sdk.v1` of a namespace), and the names it
 * imports that may be one, with the module: the run cannot tell.
 */
export function importedAdapters(
  nodes: N[],
  adapterOf: AdapterOf,
): { known: string[]; unknown: Map<string, string> } {
  const known: string[] = [];
  const unknown = new Map<string, string>();
  const add = (name: string, spec: string, is: boolean | undefined) =>
    is ? known.push(name) : is === undefined && unknown.set(name, spec);
  for (const [local, { spec, name }] of importsOf(nodes)) {
    if (name !== '*') add(local, spec, adapterOf(spec, name));
    else
      for (const n of nodes)
        if (n.type === 'MemberExpression' && isIdent(bare(n.object), local) && propName(n))
          add(`${local}.${propName(n)}`, spec, adapterOf(spec, propName(n)!));
  }
  return { known, unknown };
}
