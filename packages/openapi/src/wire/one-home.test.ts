import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { V2_SECRET_KEY_HEADER } from './index.ts';

/**
 * Rules with one home in this module stay there: the SDK's sources (not the sandbox, which keeps its own
 * half of the wire on purpose, and not tests) may not write the key header's name as a string, build the
 * default budget key (`sha256:` + hex) or read an error body's `code` themselves. Each would drift.
 */
const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const HOMES = new Set([
  'packages/openapi/src/wire/credentials.ts',
  'packages/openapi/src/wire/budget-key.ts',
  'packages/openapi/src/wire/error-code.ts',
]);
/** `sha256:` of an image's bytes (its identity when it has no reference yet), not a budget key. */
const IMAGE_IDENTITY = 'packages/render/src/many.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sources(path);
    return /\.ts$/.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name) ? [path] : [];
  });
}

const files = readdirSync(join(ROOT, 'packages'), { withFileTypes: true })
  .filter((p) => p.isDirectory() && p.name !== 'sandbox')
  .flatMap((p) => {
    try {
      return sources(join(ROOT, 'packages', p.name, 'src'));
    } catch {
      return [];
    }
  })
  .filter((path) => !HOMES.has(relative(ROOT, path)));

interface Finding {
  file: string;
  line: number;
  text: string;
}

/** Every node of every SDK source file passed to `visit`; what it returns is a finding there. */
let parsed: ts.SourceFile[] | undefined;
function scan(visit: (node: ts.Node) => string | undefined): Finding[] {
  parsed ??= files.map((file) =>
    ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true),
  );
  const found: Finding[] = [];
  for (const source of parsed) {
    const walk = (node: ts.Node): void => {
      const text = visit(node);
      if (text !== undefined) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        found.push({ file: relative(ROOT, source.fileName), line, text });
      }
      ts.forEachChild(node, walk);
    };
    walk(source);
  }
  return found;
}

const literalText = (node: ts.Node): string | undefined =>
  ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)
    ? node.text
    : ts.isTemplateExpression(node)
      ? node.head.text
      : undefined;

describe('rules with one home in @partner-print/openapi/wire are not written again', {
  timeout: 60_000,
}, () => {
  it('scans the SDK sources', () => {
    expect(files.some((f) => f.includes('packages/client/src/'))).toBe(true);
    expect(files.some((f) => f.includes('packages/ratelimit/src/'))).toBe(true);
  });

  it('the key header name: only V2_SECRET_KEY_HEADER', () => {
    const name = V2_SECRET_KEY_HEADER.toLowerCase();
    expect(
      scan((node) => (literalText(node)?.trim().toLowerCase() === name ? literalText(node) : undefined)),
    ).toEqual([]);
  });

  it('the default budget key: only budgetKeyOf', () => {
    const found = scan((node) => (literalText(node)?.startsWith('sha256:') ? literalText(node) : undefined));
    expect(found.filter((f) => f.file !== IMAGE_IDENTITY)).toEqual([]);
  });

  it("an error body's code: only errorCodeOf", () => {
    // A function that reads a response's body for its `code` (by name, the way both copies were written).
    const named = (node: ts.Node) =>
      (ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node)) &&
      node.name &&
      ts.isIdentifier(node.name)
        ? node.name.text
        : undefined;
    expect(scan((node) => (/^(error)?codeOf$/i.test(named(node) ?? '') ? named(node) : undefined))).toEqual(
      [],
    );
  });
});
