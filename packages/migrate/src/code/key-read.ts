import { isV1CredentialHeader, v1CredentialKind } from '@partner-print/openapi/wire';
import { bare, indexTree, isIdent, isNode, isString, memberPath, type N, propName } from './ast.ts';
import { requiredModule } from './calls.ts';
import { parseExpressionCode } from './parse.ts';
import { lastHeaderIndex } from './setup.ts';
import type { Bindings } from './values.ts';

/**
 * Where the V2 client can read its secret key. The client is created once, when the module loads, and reads the
 * key then (the V1 code may have read its credentials later, where each call ran): after what the key expression
 * names (a constant of the file) and, for a key read from `process.env`, after what loads the environment (a
 * dotenv `config()`, `process.loadEnvFile()`, an assignment to `process.env`) and after where the V1 code read its
 * credentials when the module loaded. A key expression naming what the file binds only inside a function (a
 * handler's `env`) cannot be read there: why, as a string.
 */
export function keyReadOrder(program: N, keyExpression: string, b: Bindings): N[] | string {
  const body: N[] = program.body;
  const header = lastHeaderIndex(body);
  const after = new Set<N>();
  const roots = rootNames(keyExpression);
  for (const name of roots) {
    const decl = body.find((s) => declares(s, name));
    if (decl) {
      if (!/^(Import|Function)/.test(unexported(decl).type)) after.add(decl);
    } else if (b.bound(name))
      return `the V2 client is created when the module loads and reads its secret key (the --key-expression) there, but this file binds \`${name}\` only inside a function`;
  }
  if (roots.has('process')) {
    const loaders = dotenvNames(body);
    // Code run when the module loads, below the imports: it may load the environment in a way not seen here.
    let ran = false;
    body.forEach((s, i) => {
      if (/^(Function|Class|Import|TS)/.test(unexported(s).type)) return;
      const nodes = atLoad(s);
      if (nodes.some((n) => loadsEnv(n, loaders))) after.add(s);
      // Where the V1 code read its credentials from the environment, it was loaded.
      else if (ran && nodes.some(readsCredentialFromEnv)) after.add(s);
      if (i > header && nodes.some(runsCode)) ran = true;
    });
  }
  return [...after];
}

/** The free names the key expression reads (`process` of `process.env.X ?? ''`, `config` of `config.key`). */
function rootNames(code: string): Set<string> {
  const { nodes, links } = indexTree(parseExpressionCode(code));
  const out = new Set<string>();
  for (const n of nodes) {
    if (n.type !== 'Identifier') continue;
    const l = links.get(n);
    if (l?.parent.type === 'MemberExpression' && l.key === 'property' && !l.parent.computed) continue;
    if (/^(ObjectProperty|Property)$/.test(l?.parent.type ?? '') && l?.key === 'key') continue;
    out.add(n.name);
  }
  return out;
}

const unexported = (s: N): N => (/^Export(Named|Default)Declaration$/.test(s.type) && s.declaration) || s;

function declares(stmt: N, name: string): boolean {
  const s = unexported(stmt);
  if (s.type === 'VariableDeclaration')
    return s.declarations.some((d: N) => indexTree(d.id).nodes.some((n) => isIdent(n, name)));
  if (s.type === 'ImportDeclaration') return s.specifiers.some((sp: N) => sp.local?.name === name);
  return /^(Function|Class)Declaration$/.test(s.type) && isIdent(s.id, name);
}

/** The nodes of a top-level statement that run when the module loads (not those inside functions). */
function atLoad(stmt: N): N[] {
  const out: N[] = [];
  const stack: N[] = [stmt];
  while (stack.length) {
    const n = stack.pop();
    out.push(n);
    if (n !== stmt && /Function|ObjectMethod|ClassMethod|ClassPrivateMethod/.test(n.type)) continue;
    for (const key of Object.keys(n)) {
      if (key === 'loc' || key === 'comments' || key === 'tokens' || /Comments$/.test(key)) continue;
      const v = n[key];
      for (const c of Array.isArray(v) ? v : [v]) if (isNode(c)) stack.push(c);
    }
  }
  return out;
}

/** dotenv, and the loaders named after it (dotenv-flow, @dotenvx/dotenvx). */
const DOTENV = /dotenv/i;

/** Local names bound to a dotenv module (`import dotenv from 'dotenv'`, `const { config } = require('dotenv')`). */
function dotenvNames(body: N[]): Set<string> {
  const out = new Set<string>();
  for (const s of body) {
    if (s.type === 'ImportDeclaration' && DOTENV.test(s.source.value))
      for (const sp of s.specifiers) out.add(sp.local.name);
    if (s.type !== 'VariableDeclaration') continue;
    for (const d of s.declarations) {
      const mod = d.init ? requiredModule(d.init) : undefined;
      if (mod && DOTENV.test(mod))
        for (const n of indexTree(d.id).nodes) if (n.type === 'Identifier') out.add(n.name);
    }
  }
  return out;
}

/** A dotenv call, `process.loadEnvFile()`, an assignment to `process.env` or `Object.assign(process.env, …)`. */
function loadsEnv(n: N, loaders: Set<string>): boolean {
  if (n.type === 'AssignmentExpression') return envMember(n.left);
  if (n.type !== 'CallExpression') return false;
  const callee = bare(n.callee);
  const path = memberPath(callee) ?? '';
  if (path === 'process.loadEnvFile') return true;
  if (path === 'Object.assign' && n.arguments[0] && memberPath(bare(n.arguments[0])) === 'process.env')
    return true;
  if (loaders.has(path.split('.')[0] ?? '')) return true;
  if (isIdent(callee, 'require') && isString(n.arguments[0])) return DOTENV.test(n.arguments[0].value);
  return false;
}

const envMember = (n: N) => {
  const m = bare(n);
  return m?.type === 'MemberExpression' && memberPath(bare(m.object)) === 'process.env';
};

/** A call (other than a require), an assignment or an await: code that may change what the module reads. */
const runsCode = (n: N) =>
  (n.type === 'CallExpression' && requiredModule(n) === undefined) ||
  /^(NewExpression|AssignmentExpression|AwaitExpression|TaggedTemplateExpression|UpdateExpression)$/.test(
    n.type,
  );

/** A V1 credential header (`'X-Api-Key': process.env.PP_API_KEY`) read from the environment. */
function readsCredentialFromEnv(n: N): boolean {
  if (n.type !== 'ObjectProperty' && n.type !== 'Property') return false;
  const name = propName(n);
  return (
    name !== undefined &&
    isV1CredentialHeader(name) &&
    indexTree(n.value).nodes.some((v) => v.type === 'MemberExpression' && envMember(v))
  );
}

/**
 * Where a rewritten call's V1 API key came from when it was passed in at run time (a parameter such as a Workers
 * handler's `env`, or a constructor's `apiKey`, or a field set from one): its code (`env.PP_API_KEY`). The V2
 * client reads one key, once, where the module loads, so such code (one key per caller, or a runtime without
 * `process`) is told so. Undefined for a key read from the environment or a constant of the module.
 */
export function runTimeKeySource(headers: N[], b: Bindings, body: N[]): { code: string; at: N } | undefined {
  for (const h of headers) {
    const obj = b.resolve(h);
    if (obj?.type !== 'ObjectExpression') continue;
    for (const p of obj.properties) {
      const name = p.type === 'SpreadElement' ? undefined : propName(p);
      if (name === undefined || v1CredentialKind(name) !== 'api-key') continue;
      const value = b.resolve(p.value);
      let root = bare(value);
      while (root?.type === 'MemberExpression') root = bare(root.object);
      const top = root?.type === 'Identifier' && body.some((s) => declares(s, root.name));
      const passed =
        root?.type === 'ThisExpression' || (root?.type === 'Identifier' && !top && b.bound(root.name));
      if (passed) return { code: memberPath(value) ?? 'a value passed in', at: p };
    }
  }
  return undefined;
}
