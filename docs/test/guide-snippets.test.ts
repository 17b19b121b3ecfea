import { describe, expect, it } from 'vitest';
import type { Guide } from '../../tools/docs/lib/guides.ts';
import { loadGuides } from '../../tools/docs/lib/guides.ts';
import { PATHS } from '../../tools/docs/lib/paths.ts';
import {
  guideSnippets,
  readmeSnippets,
  SNIPPET_PRELUDE,
  snippetModule,
} from '../../tools/docs/lib/snippets.ts';

// The blocks themselves are type-checked by `typecheck` (tools/docs/snippets.ts writes them into docs/.tmp).
describe('guide and README code blocks', () => {
  const fake = (markdown: string): Guide => ({
    file: 'fake.md',
    path: 'fake.md',
    tag: 'guide-fake',
    title: 'Fake',
    headings: [],
    markdown,
    related: [],
    missing: false,
  });

  it('are found in every guide that shows code', () => {
    const guides = loadGuides(PATHS.guides).filter((g) => !g.missing);
    expect(guides.flatMap(guideSnippets).length).toBeGreaterThan(20);
  });

  it('are found in every package README too', () => {
    const packages = new Set(readmeSnippets().map((s) => s.guide));
    for (const name of ['callback', 'client', 'migrate', 'openapi', 'ratelimit', 'render', 'sandbox']) {
      expect(packages).toContain(`packages/${name}/README.md`);
    }
  });

  it('check the exports of a module as plain values', () => {
    const { source } = snippetModule(
      { guide: 'x.md', line: 1, code: 'export const a = 1;\nexport default a;' },
      SNIPPET_PRELUDE,
    );
    expect(source).toContain('{\nconst a = 1;\nconst __default = a;\n}');
  });

  it('are cut from ts fences, except no-check ones', () => {
    const snippets = guideSnippets(
      fake(
        ['text', '```ts', 'const a = 1;', '```', '```ts no-check', 'nope', '```', '```sh', 'ls', '```'].join(
          '\n',
        ),
      ),
    );
    expect(snippets).toEqual([{ guide: 'fake.md', line: 3, code: 'const a = 1;' }]);
  });

  it('become modules with hoisted imports and the body in an async function', () => {
    const { source } = snippetModule(
      { guide: 'x.md', line: 1, code: "import { a } from 'a';\nawait a();" },
      SNIPPET_PRELUDE,
    );
    expect(source.startsWith("import { a } from 'a';")).toBe(true);
    expect(source).toContain('export async function snippet(): Promise<void> {\nawait a();\n}');
  });
});
