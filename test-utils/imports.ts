import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import ts from 'typescript';

/**
 * The run-time imports of `specifier` in the library sources under `dir` (tests and `skip`ped paths, matched
 * against the path with `/` separators, left out), as `file: names`: every statement that loads the module when
 * the file runs, read with TypeScript's parser. Under Node, and in a CommonJS bundle (which takes a required
 * module whole), an import loads its module whatever it names.
 *
 * Not a load: `import type`, `export type`, and `import('…')` in a type position. A load: an import or
 * re-export of a value, a bare or side-effect import, an `import { type A }` or `export { type A } from` (the
 * packages compile with `verbatimModuleSyntax`, which keeps such a statement as `import '…'`), a dynamic
 * `import('…')` and a `require('…')`.
 */
export function valueImportsOf(dir: string, specifier: string, skip?: RegExp): string[] {
  const files = (readdirSync(dir, { recursive: true }) as string[])
    .map((file) => file.split(sep).join('/'))
    .filter((f) => /\.[cm]?tsx?$/.test(f) && !/\.test(-d)?\.[cm]?tsx?$/.test(f) && !skip?.test(f))
    .sort();
  const found: string[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(
      file,
      readFileSync(join(dir, file), 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    const loads = (what: string) => found.push(`${file}: ${what}`);
    const names = (elements: readonly (ts.ImportSpecifier | ts.ExportSpecifier)[]) =>
      elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text);
    const visit = (node: ts.Node): void => {
      const from = (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier;
      if (from && ts.isStringLiteral(from) && from.text === specifier) {
        if (ts.isImportDeclaration(node)) {
          const clause = node.importClause;
          if (!clause) loads('(loaded)');
          else if (!clause.isTypeOnly) {
            const bindings = clause.namedBindings;
            const named = bindings && ts.isNamedImports(bindings) ? names(bindings.elements) : [];
            const all = [
              ...(clause.name ? [clause.name.text] : []),
              ...(bindings && ts.isNamespaceImport(bindings) ? [`* as ${bindings.name.text}`] : named),
            ];
            loads(all.length ? all.join(', ') : '(loaded)');
          }
        } else if (!node.isTypeOnly) {
          const clause = node.exportClause;
          const named = clause && ts.isNamedExports(clause) ? names(clause.elements) : ['*'];
          loads(named.length ? named.join(', ') : '(loaded)');
        }
      }
      if (
        ts.isCallExpression(node) &&
        (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
          (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
        node.arguments[0] &&
        ts.isStringLiteralLike(node.arguments[0]) &&
        node.arguments[0].text === specifier
      )
        loads('(loaded)');
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
