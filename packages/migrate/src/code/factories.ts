import { bare, isIdent, isString, memberPath, type N, propName } from './ast.ts';
import { requiredModule } from './calls.ts';

export const CLIENT_MODULE = '@partner-print/client';
export const MIGRATE_MODULE = '@partner-print/migrate';

/**
 * The names under which the file's top level binds a package's export: `import { createClient as makePP } from
 * '@partner-print/client'` (`makePP`), `const { createClient } = require(…)`, `require(…).createClient`, and
 * `pp.createClient` of a namespace import or `const pp = require(…)` (`import pp = require(…)`). A call is the
 * package's by where its callee's binding comes from, never by its name alone: `createClient` of `redis` is not.
 */
export function packageBindings(program: N, module: string, name: string): Set<string> {
  const out = new Set<string>();
  for (const s of program.body as N[]) {
    if (s.type === 'ImportDeclaration' && s.importKind !== 'type' && s.source.value === module)
      for (const sp of s.specifiers) {
        if (sp.type === 'ImportNamespaceSpecifier') out.add(`${sp.local.name}.${name}`);
        else if (
          sp.type === 'ImportSpecifier' &&
          sp.importKind !== 'type' &&
          propName({ key: sp.imported }) === name
        )
          out.add(sp.local.name);
      }
    else if (
      s.type === 'TSImportEqualsDeclaration' &&
      s.moduleReference?.type === 'TSExternalModuleReference' &&
      isString(s.moduleReference.expression) &&
      s.moduleReference.expression.value === module
    )
      out.add(`${s.id.name}.${name}`);
    else if (s.type === 'VariableDeclaration')
      for (const d of s.declarations) {
        const init = d.init && bare(d.init);
        if (!init) continue;
        if (requiredModule(init) === module) {
          if (isIdent(d.id)) out.add(`${d.id.name}.${name}`);
          else if (d.id.type === 'ObjectPattern')
            for (const p of d.id.properties) {
              const local = p.value?.type === 'AssignmentPattern' ? p.value.left : p.value;
              if (p.type !== 'RestElement' && propName(p) === name && isIdent(local)) out.add(local.name);
            }
        } else if (
          init.type === 'MemberExpression' &&
          propName(init) === name &&
          requiredModule(init.object) === module &&
          isIdent(d.id)
        )
          out.add(d.id.name);
      }
  }
  return out;
}

/** The file's names of the V2 client's `createClient` and of the V1 adapter's `createV1Adapter`. */
export interface Factories {
  client: Set<string>;
  adapter: Set<string>;
}

export const factoriesOf = (program: N): Factories => ({
  client: packageBindings(program, CLIENT_MODULE, 'createClient'),
  adapter: packageBindings(program, MIGRATE_MODULE, 'createV1Adapter'),
});

/** Whether `n` is a call of one of `names` (a factory's names in the file). */
export const callsOneOf = (n: N, names: ReadonlySet<string>): boolean =>
  n?.type === 'CallExpression' && names.has(memberPath(n.callee) ?? '');
