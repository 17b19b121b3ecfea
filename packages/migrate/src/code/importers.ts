import { dirname, join, resolve } from 'node:path';
import { bare, indexTree, isIdent, isString, memberPath, type N, propName } from './ast.ts';
import { callCaught } from './catches.ts';
import { readSource } from './files.ts';
import { parsePlain } from './parse.ts';

/**
 * The catches of a run that read the V1 library's error of a call into another module of the run: module (its
 * real path) → the name it exports the called function under (`default` for a module's default) → where, in
 * words (`called as \`orderReference\` in routes.js inside a try whose catch reads \`e.response\``).
 */
export type CaughtElsewhere = Map<string, Map<string, string>>;

/** What a file must hold to import a module of the run and catch what it throws: `catch`, and a relative path. */
const MAY_CATCH = /\bcatch\b/;
const RELATIVE = /(?:\bfrom|\brequire\s*\()\s*['"]\.\.?\//;
/** What a file must hold to pass on another module's export: `export … from './…'`. */
const RE_EXPORT = /\bexport\b[^;]*?\bfrom\s*['"]\.\.?\//;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/**
 * Reads every file of the run once, before any is rewritten, for calls of functions imported from another file of
 * the run (`import { f } from './api'`, `import * as api`, `require('./api')`, destructured or not) whose error
 * reaches a catch there that reads it (a try around the call, a `.catch` on it, or around a caller a few callers up
 * in that file). A file without `catch` or a relative import is not parsed; one that does not parse is skipped
 * here (the rewrite reports it).
 */
export async function catchesElsewhere(
  files: string[],
  show: (real: string) => string,
): Promise<CaughtElsewhere> {
  const inRun = new Set(files);
  const out: CaughtElsewhere = new Map();
  // Module → its `export { f as g } from './x'` and `export * from './x'`: exported name (`*`: any) → the module
  // and the name there.
  const passed = new Map<string, Array<[string, string, string]>>();
  for (const real of files) {
    const program = await readProgram(real);
    // A tree too deep to walk is the rewrite's to report, not this look-out's.
    if (program)
      try {
        catchesIn(real, program, inRun, show, out);
        for (const n of program.body) {
          const target =
            n.source && /^Export(Named|All)Declaration$/.test(n.type) && n.exportKind !== 'type'
              ? moduleOf(real, n.source.value, inRun)
              : undefined;
          if (!target || target === real) continue;
          const list = passed.get(real) ?? [];
          passed.set(real, list);
          if (n.type === 'ExportAllDeclaration') {
            if (!n.exported) list.push(['*', target, '*']);
          } else
            for (const sp of n.specifiers ?? []) {
              const as = propName({ key: sp.exported });
              const name = sp.local && propName({ key: sp.local });
              if (as && name && sp.exportKind !== 'type') list.push([as, target, name]);
            }
        }
      } catch {}
  }
  // A catch of a call of a re-exported function is a catch of the function in the module it comes from.
  const queue = [...out].flatMap(([m, names]) =>
    [...names].map(([name, where]) => [m, name, where] as const),
  );
  for (const [m, name, where] of queue)
    for (const [as, target, local] of passed.get(m) ?? []) {
      const there = as === '*' ? (name === 'default' ? undefined : name) : as === name ? local : undefined;
      const caught = there === undefined ? undefined : (out.get(target) ?? new Map<string, string>());
      if (!caught || caught.has(there!)) continue;
      out.set(target, caught.set(there!, where));
      queue.push([target, there!, where]);
    }
  return out;
}

/** The catches of one file (its tree) that read the error of a call into another module of the run. */
function catchesIn(
  real: string,
  program: N,
  inRun: Set<string>,
  show: (real: string) => string,
  out: CaughtElsewhere,
): void {
  const { nodes, links } = indexTree(program);
  const imports = importsOf(nodes);
  if (imports.size)
    for (const c of nodes) {
      if (c.type !== 'CallExpression') continue;
      const callee = bare(c.callee);
      const member = callee.type === 'MemberExpression' && isIdent(callee.object);
      const from = imports.get(member ? callee.object.name : isIdent(callee) ? callee.name : '');
      if (!from) continue;
      const exported =
        from.name !== '*' ? (member ? undefined : from.name) : member ? propName(callee) : 'default';
      const target = exported === undefined ? undefined : moduleOf(real, from.spec, inRun);
      if (!target || target === real) continue;
      const where = callCaught(c, memberPath(callee) ?? exported!, links, () => nodes);
      if (!where) continue;
      const caught = out.get(target) ?? new Map<string, string>();
      out.set(target, caught);
      if (!caught.has(exported!))
        caught.set(
          exported!,
          where.replace(/^called as `[^`]*`/, (s) => `${s} in ${show(real)}`),
        );
    }
}

async function readProgram(real: string): Promise<N | undefined> {
  try {
    const src = await readSource(real);
    if (
      'skip' in src ||
      (!(MAY_CATCH.test(src.text) && RELATIVE.test(src.text)) && !RE_EXPORT.test(src.text))
    )
      return undefined;
    return parsePlain(src.text, real).program;
  } catch {
    return undefined;
  }
}

/** The file's bindings of relative modules: local name → the module and the name it exports (`*`: the module). */
function importsOf(nodes: N[]): Map<string, { spec: string; name: string }> {
  const out = new Map<string, { spec: string; name: string }>();
  for (const n of nodes) {
    if (n.type === 'ImportDeclaration' && n.importKind !== 'type' && isRelative(n.source)) {
      for (const sp of n.specifiers) {
        const name =
          sp.type === 'ImportDefaultSpecifier'
            ? 'default'
            : sp.type === 'ImportNamespaceSpecifier'
              ? '*'
              : propName({ key: sp.imported });
        if (name) out.set(sp.local.name, { spec: n.source.value, name });
      }
    } else if (n.type === 'VariableDeclarator' && isRequire(n.init)) {
      const spec = bare(n.init).arguments[0].value;
      if (isIdent(n.id)) out.set(n.id.name, { spec, name: '*' });
      else if (n.id.type === 'ObjectPattern')
        for (const p of n.id.properties) {
          const name = propName(p);
          if (name && isIdent(p.value)) out.set(p.value.name, { spec, name });
        }
    } else if (
      n.type === 'TSImportEqualsDeclaration' &&
      n.moduleReference?.type === 'TSExternalModuleReference' &&
      isRelative(n.moduleReference.expression)
    )
      out.set(n.id.name, { spec: n.moduleReference.expression.value, name: '*' });
  }
  return out;
}

const isRelative = (n: N) => isString(n) && /^\.\.?\//.test(n.value);

const isRequire = (n: N) => {
  const c = n && bare(n);
  return c?.type === 'CallExpression' && isIdent(c.callee, 'require') && isRelative(c.arguments[0]);
};

/** The file of the run a relative specifier names, as Node and TypeScript resolve it (`./api.js` may be `api.ts`). */
function moduleOf(from: string, spec: string, inRun: Set<string>): string | undefined {
  const base = resolve(dirname(from), spec);
  const swapped = base.replace(/\.([mc]?)js(x?)$/, '.$1ts$2');
  const candidates = [
    base,
    swapped,
    ...EXTENSIONS.map((e) => base + e),
    ...EXTENSIONS.map((e) => join(base, `index${e}`)),
  ];
  return candidates.find((c) => inRun.has(c));
}
