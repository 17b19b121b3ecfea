import { indexTree, isIdent, type N, propName, singleQuoted } from './ast.ts';
import { requiredModule } from './calls.ts';
import { CLIENT_MODULE, callsOneOf, type Factories, factoriesOf, MIGRATE_MODULE } from './factories.ts';
import { parseStatementsCode } from './parse.ts';
import type { Names } from './v2-calls.ts';

export interface SetupOptions {
  /** The expression the secret key is read from. */
  keyExpression: string;
  /** V1 store code → Store_ reference, written into the adapter. */
  stores: Readonly<Record<string, string>>;
}

export const RENDER_MODULE = '@partner-print/render';
export const DEFAULT_KEY_EXPRESSION = "process.env.PARTNER_PRINT_SECRET_KEY ?? ''";

const declares = (body: N[], name: string) =>
  body.some(
    (s) =>
      (s.type === 'VariableDeclaration' && s.declarations.some((d: N) => isIdent(d.id, name))) ||
      (s.type === 'ExportNamedDeclaration' &&
        s.declaration?.declarations?.some((d: N) => isIdent(d.id, name))),
  );

const isModuleHeader = (s: N) =>
  s.type === 'ImportDeclaration' ||
  s.type === 'TSImportEqualsDeclaration' ||
  (s.type === 'VariableDeclaration' &&
    s.declarations.every((d: N) => d.init && requiredModule(d.init) !== undefined)) ||
  (s.type === 'ExpressionStatement' && s.directive) ||
  s.type === 'Directive';

function importsName(body: N[], module: string, name: string): boolean {
  return body.some(
    (s) =>
      s.type === 'ImportDeclaration' &&
      s.source.value === module &&
      s.specifiers.some((sp: N) => sp.local?.name === name),
  );
}

export interface ClientSetup extends SetupOptions {
  /** The V2 base URL's expression, as code. */
  baseUrl: string;
  /** Top-level statements that read what the base URL is made of: the client is created after them. */
  after: N[];
  adapter: boolean;
  /** Whether the file needs a client of its own (not one it imports). */
  client: boolean;
  render: boolean;
  names: Names;
  /** The names the client's `createClient` and the adapter's `createV1Adapter` are called by, and whether the file binds them already. */
  factories: { client: Factory; adapter: Factory };
}

/** A factory's name in the file, and whether the file imports it by that name already. */
export interface Factory {
  name: string;
  imported: boolean;
}

/**
 * Adds the V2 client (and the V1 adapter when a rewrite needs it) after the file's imports (and after the
 * statements its base URL is read in), once: a file that already declares them is left as it is. Returns the
 * client's declaration when it added one.
 */
export function addSetup(program: N, file: string, opts: ClientSetup): N | undefined {
  const body: N[] = program.body;
  const cjs =
    !body.some((s) => s.type === 'ImportDeclaration' || /^Export/.test(s.type)) &&
    !/\.m[jt]s$/.test(file) &&
    (/\.c[jt]s$/.test(file) || usesCommonJs(program));
  const { factories } = opts;
  const wanted: Array<[string, string, Factory, string]> = [];
  if (opts.client && !declares(body, opts.names.client))
    wanted.push([CLIENT_MODULE, 'createClient', factories.client, clientCode(opts)]);
  if (opts.adapter && !declares(body, opts.names.adapter))
    wanted.push([
      MIGRATE_MODULE,
      'createV1Adapter',
      factories.adapter,
      adapterCode(opts.names, factories.adapter.name, opts.stores),
    ]);
  const lines: string[] = [];
  for (const [module, name, factory] of wanted) {
    if (factory.imported) continue;
    // Under another name where the file binds this one to something else (`createClient` of `redis`).
    const spec = factory.name === name ? name : `${name}${cjs ? ':' : ' as'} ${factory.name}`;
    lines.push(cjs ? `const { ${spec} } = require('${module}');` : `import { ${spec} } from '${module}';`);
  }
  const render = opts.names.render;
  if (opts.render && !importsName(body, RENDER_MODULE, render) && !declares(body, render)) {
    const spec = render === 'renderMockup' ? render : `renderMockup${cjs ? ':' : ' as'} ${render}`;
    lines.push(
      cjs
        ? `const { ${spec} } = require('${RENDER_MODULE}');`
        : `import { ${spec} } from '${RENDER_MODULE}';`,
    );
  }
  if (!lines.length && !wanted.length) return undefined;
  const decls = wanted.map(([, , , code]) => code);
  const at = lastHeaderIndex(body) + 1;
  const ts = file.replace(/\.[cm]?[jt]sx?$/, '.ts');
  // A base URL read from the environment is read where the V1 code read it (after a `dotenv` call, say).
  // An adapter made from a client the file declares already goes after that declaration (not before it: a
  // ReferenceError when the module loads).
  const client = wanted.some(([, name]) => name === 'createClient')
    ? -1
    : body.findIndex((s) => declares([s], opts.names.client));
  const after = Math.max(at, client + 1, ...opts.after.map((s) => body.indexOf(s) + 1));
  const later = after > at ? (parseStatementsCode(`${decls.join('\n')}\n`, ts) as N[]) : [];
  if (later.length) body.splice(after, 0, ...later);
  const stmts = parseStatementsCode(`${lines.join('\n')}\n${later.length ? '' : decls.join('\n')}\n`, ts);
  // A comment heading the file stays at the top, above what is added.
  const first = body[at];
  const head: N = stmts[0];
  if (at === 0 && head && first?.comments?.length) {
    const leading = first.comments.filter((c: N) => c.leading);
    first.comments = first.comments.filter((c: N) => !c.leading);
    head.comments = [...leading, ...(head.comments ?? [])];
  }
  body.splice(at, 0, ...stmts);
  const made = wanted.findIndex(([, name]) => name === 'createClient');
  return made < 0
    ? undefined
    : (later.length ? later : (stmts.slice(stmts.length - decls.length) as N[]))[made];
}

/**
 * Whether a file without imports or exports is CommonJS: it calls `require` or assigns `module.exports` or
 * `exports.x` (a module that only uses the global fetch has no require at its top). `import` there would not load.
 */
function usesCommonJs(program: N): boolean {
  return indexTree(program).nodes.some(
    (n) =>
      (n.type === 'CallExpression' && isIdent(n.callee, 'require')) ||
      (n.type === 'MemberExpression' &&
        ((isIdent(n.object, 'module') && propName(n) === 'exports') || isIdent(n.object, 'exports'))),
  );
}

/** The index of the last import or require at the top of the file (the client goes after it), or -1. */
export function lastHeaderIndex(body: N[]): number {
  let last = -1;
  body.forEach((s, i) => {
    if (isModuleHeader(s)) last = i;
  });
  return last;
}

function clientCode(opts: ClientSetup): string {
  return `const ${opts.names.client} = ${opts.factories.client.name}({ secretKey: ${opts.keyExpression}, baseUrl: ${opts.baseUrl} });`;
}

function adapterCode(names: Names, factory: string, stores: Readonly<Record<string, string>>): string {
  const entries = Object.entries(stores).map(([k, v]) => `${singleQuoted(k)}: ${singleQuoted(v)}`);
  const arg = entries.length ? `, { stores: { ${entries.join(', ')} } }` : '';
  return `const ${names.adapter} = ${factory}(${names.client}${arg});`;
}

/** The names of an earlier run's client, adapter and renderMockup, or free names for new ones. */
export function chooseNames(nodes: N[]): {
  names: Names;
  free: (base: string) => string;
  /** Gives back a name `free` chose for code that was not written after all (a call left on V1). */
  release: (name: string) => void;
  /** The file's names of `createClient` of the client and `createV1Adapter` of this package. */
  factories: Factories;
  /** The name to call a factory by: the file's import of it, else its own name where free, else `alias`. */
  factory: (kind: keyof Factories, alias: string) => Factory;
} {
  const used = new Set<string>();
  let client: string | undefined;
  let adapter: string | undefined;
  let render: string | undefined;
  // Matched by where the callee's binding comes from: `createClient` of another library is not the V2 client's.
  const factories = factoriesOf(nodes[0]);
  for (const n of nodes) {
    if (n.type === 'Identifier') used.add(n.name);
    if (n.type === 'VariableDeclarator' && isIdent(n.id) && n.init?.type === 'CallExpression') {
      if (callsOneOf(n.init, factories.client)) client ??= n.id.name;
      if (callsOneOf(n.init, factories.adapter)) adapter ??= n.id.name;
    }
    if (n.type === 'ImportDeclaration' && n.source.value === RENDER_MODULE)
      for (const sp of n.specifiers) if (sp.imported?.name === 'renderMockup') render ??= sp.local.name;
  }
  /** The names `free` chose (a name of the file is never given back). */
  const chosen = new Set<string>();
  const free = (base: string) => {
    for (let i = 1; ; i++) {
      const name = i === 1 ? base : `${base}${i}`;
      if (!used.has(name)) {
        used.add(name);
        chosen.add(name);
        return name;
      }
    }
  };
  const chosenFactory = new Map<keyof Factories, Factory>();
  const factory = (kind: keyof Factories, alias: string): Factory => {
    const own = [...factories[kind]].find((f) => !f.includes('.')) ?? [...factories[kind]][0];
    if (own) return { name: own, imported: true };
    const name = kind === 'client' ? 'createClient' : 'createV1Adapter';
    let f = chosenFactory.get(kind);
    if (!f) {
      f = { name: free(used.has(name) ? alias : name), imported: false };
      chosenFactory.set(kind, f);
    }
    return f;
  };
  return {
    names: {
      client: client ?? free('partnerPrint'),
      adapter: adapter ?? free('partnerPrintV1'),
      render: render ?? free('renderMockup'),
    },
    factories,
    factory,
    free,
    release: (name) => {
      if (chosen.delete(name)) used.delete(name);
    },
  };
}
