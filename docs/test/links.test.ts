import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkContext } from '../../tools/docs/lib/build.ts';
import {
  checkGuide,
  GUIDE_ORDER,
  type Guide,
  loadGuides,
  rewriteGuide,
} from '../../tools/docs/lib/guides.ts';
import { PATHS } from '../../tools/docs/lib/paths.ts';
import { readBundledSpec } from './site-files.ts';

const guides = loadGuides(PATHS.guides);
const ctx = linkContext(readBundledSpec(), guides);

describe('guides', () => {
  it.each(GUIDE_ORDER.map((g) => g.file))('%s exists', (file) => {
    const guide = guides.find((g) => g.file === file);
    expect(guide?.missing, `docs/guides/${file} is missing`).toBe(false);
  });

  it.each(guides.filter((g) => !g.missing).map((g) => [g.file, g] as const))(
    '%s has a title, sections and no dead links',
    (_file, guide) => {
      expect(guide.title.length).toBeGreaterThan(3);
      expect(guide.headings.length).toBeGreaterThan(0);
      expect(checkGuide(guide, ctx)).toEqual([]);
    },
  );

  it('uses every picture in docs/guides/images, and every picture exists', () => {
    const used = new Set<string>();
    for (const g of guides)
      for (const m of g.markdown.matchAll(/!\[[^\]]*\]\(images\/([^)]+)\)/g)) used.add(m[1]!);
    const present = readdirSync(PATHS.images);
    expect([...used].filter((f) => !present.includes(f))).toEqual([]);
    expect(present.filter((f) => !used.has(f))).toEqual([]);
  });

  it('ships well-formed SVG pictures with a title', () => {
    for (const file of readdirSync(PATHS.images).filter((f) => f.endsWith('.svg'))) {
      const svg = readFileSync(join(PATHS.images, file), 'utf8');
      expect(svg, file).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(svg, file).toMatch(/<title>[^<]+<\/title>/);
      expect(svg.trim(), file).toMatch(/<\/svg>$/);
      expect(svg, file).not.toMatch(/(?:href|src)="https?:/);
    }
  });
});

describe('the link checker', () => {
  const fake = (markdown: string): Guide => ({
    file: 'fake.md',
    path: 'fake.md',
    tag: 'guide-fake',
    title: 'Fake',
    headings: ['Real heading'],
    markdown,
    related: [],
    missing: false,
  });
  const op = [...ctx.operations.keys()][0]!;

  it('reports dead guide links, anchors, operations, tags and images', () => {
    const problems = checkGuide(
      fake(
        [
          '[a](nope.md)',
          '[b](#no-such-heading)',
          '[c](#operation/noSuchOperation)',
          '[d](#tag/NoSuchTag)',
          '![e](images/missing.svg)',
          '[f](../../packages/client/README.md)',
          '```md',
          '[ignored inside a code block](nope.md)',
          '```',
        ].join('\n'),
      ),
      ctx,
    );
    expect(problems.map((p) => [p.line, p.target])).toEqual([
      [1, 'nope.md'],
      [2, '#no-such-heading'],
      [3, '#operation/noSuchOperation'],
      [4, '#tag/NoSuchTag'],
      [5, 'images/missing.svg'],
      [6, '../../packages/client/README.md'],
    ]);
  });

  it('rewrites links to the routes of the single-page site', () => {
    const out = rewriteGuide(
      fake(
        `[x](#real-heading) [y](getting-started.md#install) [z](#operation/${op}) [w](https://example.com)`,
      ),
      ctx,
    );
    expect(out).toContain('[x](#/guide-fake/real-heading)');
    expect(out).toContain('[y](#/guide-getting-started/install)');
    expect(out).toContain(`[z](#/`);
    expect(out).toContain(`/${op.toLowerCase()})`);
    expect(out).toContain('[w](https://example.com)');
  });

  it('inlines pictures as data URLs so the page stays one offline file', () => {
    const out = rewriteGuide(fake('![Claim states](images/claim-states.svg)'), ctx);
    expect(out).toMatch(/^<img src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+" alt="Claim states"/);
  });
});
