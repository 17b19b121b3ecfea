/**
 * Build time (Node): a whole TypeScript sample → what the in-page runner executes. Types are removed and the
 * module becomes a CommonJS function body (`require` resolves the specifiers the page provides, see
 * modules.ts); nothing else of the code changes, so the page runs exactly the code it shows.
 */
import ts from 'typescript';
import type { RunnableSample } from './types.ts';

const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: false,
  verbatimModuleSyntax: false,
  isolatedModules: true,
  removeComments: false,
};

/** Names the code reads as `process.env.NAME`, in order of first use. */
export function envNames(source: string): string[] {
  return [...new Set([...source.matchAll(/process\.env\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!))];
}

/** Module specifiers the code imports (static imports and `import()` of a string literal). */
export function importedModules(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(/^\s*import\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)) found.add(m[1]!);
  for (const m of source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) found.add(m[1]!);
  return [...found];
}

export function compileSample(
  source: string,
  fields: Omit<RunnableSample, 'js' | 'env'>,
  fileName = 'sample.ts',
): RunnableSample {
  const out = ts.transpileModule(source, { compilerOptions: OPTIONS, fileName, reportDiagnostics: true });
  const errors = (out.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length) {
    const text = errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('; ');
    throw new Error(`${fileName}: ${text}`);
  }
  const js = out.outputText.replace(/^\/\/# sourceMappingURL=.*$/m, '');
  return { ...fields, js, env: envNames(source) };
}
