import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, extname, join, normalize, relative } from 'node:path';
import { headingRoute, operationRoute, slugify, tagRoute } from './slug.ts';

/** Reading order of the guides and the API tags each one explains (linked from those tags' descriptions). */
export const GUIDE_ORDER: { file: string; related: string[]; placeholder?: string }[] = [
  { file: 'getting-started.md', related: [] },
  { file: 'authentication-and-environments.md', related: [] },
  { file: 'pagination.md', related: ['Orders', 'Claims'] },
  { file: 'rate-limits.md', related: ['Rate limits', 'Images'] },
  { file: 'images-and-evidence.md', related: ['Images'] },
  { file: 'orders-and-shipments.md', related: ['Orders', 'Catalog'] },
  { file: 'claims.md', related: ['Claims'] },
  { file: 'rendering.md', related: ['Rendering'] },
  { file: 'legacy-callback.md', related: ['Callbacks'] },
  { file: 'running-a-fleet.md', related: [] },
  { file: 'observability.md', related: [] },
  { file: 'migrating-from-v1.md', related: ['Utilities', 'Catalog'] },
  { file: 'versioning-and-v3.md', related: ['Utilities'] },
  // Every error class's section: what `docUrl` links to (`#/guide-errors/<class name in lower case>`).
  { file: 'errors.md', related: [] },
  // Written with the sandbox package. Until it exists the site shows a placeholder, and the link check fails.
  {
    file: 'sandbox-assumptions.md',
    related: [],
    placeholder:
      '# Sandbox assumptions\n\nWhere the service reference says "not shown", the sandbox has to choose. ' +
      'This page, listing those choices, has not been written yet.\n',
  },
];

export interface Guide {
  file: string;
  path: string;
  /** The tag that carries the guide in the bundled spec copy. */
  tag: string;
  title: string;
  /** `##` headings, which Redoc turns into navigation entries. */
  headings: string[];
  markdown: string;
  related: string[];
  /** True when the file does not exist and a placeholder stands in for it. */
  missing: boolean;
}

export interface LinkContext {
  guides: Map<string, Guide>;
  /** operationId → first tag */
  operations: Map<string, string>;
  tags: Set<string>;
  imagesDir: string;
}

export interface LinkProblem {
  file: string;
  line: number;
  target: string;
  message: string;
}

export function guideTag(file: string): string {
  return `guide-${basename(file, '.md')}`;
}

export function loadGuides(dir: string): Guide[] {
  const present = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')) : [];
  const ordered = [
    ...GUIDE_ORDER.filter((g) => present.includes(g.file) || g.placeholder !== undefined),
    ...present
      .filter((f) => !GUIDE_ORDER.some((g) => g.file === f))
      .sort()
      .map((file) => ({ file, related: [], placeholder: undefined })),
  ];
  return ordered.map(({ file, related, placeholder }) => {
    const path = join(dir, file);
    const missing = !present.includes(file);
    const source = missing ? (placeholder ?? '') : readFileSync(path, 'utf8');
    const { title, body } = splitTitle(source, file);
    return {
      file,
      path,
      tag: guideTag(file),
      title,
      headings: headings(body),
      markdown: body,
      related,
      missing,
    };
  });
}

function splitTitle(source: string, file: string): { title: string; body: string } {
  const match = /^\s*#\s+(.+?)\s*\n/.exec(source);
  if (!match) return { title: basename(file, '.md'), body: source };
  return { title: match[1]!, body: source.slice(match[0].length).trimStart() };
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
export function proseLines(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  for (const [i, text] of markdown.split('\n').entries()) {
    const m = /^\s*(```+|~~~+)/.exec(text);
    if (m) {
      if (!fence) fence = m[1]!.slice(0, 3);
      else if (m[1]!.startsWith(fence)) fence = undefined;
      continue;
    }
    if (!fence) out.push({ line: i + 1, text });
  }
  return out;
}

export function headings(markdown: string): string[] {
  return proseLines(markdown)
    .map(({ text }) => /^##\s+(.+?)\s*#*\s*$/.exec(text)?.[1])
    .filter((h): h is string => h !== undefined);
}

const LINK = /(!?)\[((?:[^\]\\]|\\.)*)\]\(\s*([^)\s]+)(?:\s+"[^"]*")?\s*\)/g;

/**
 * Rewrites a guide's links for the single-page site and reports the ones that cannot work:
 * - `other-guide.md` and `other-guide.md#some-heading` → the guide's route (and its `##` heading);
 * - `#some-heading` → a heading of the same guide;
 * - `#operation/<operationId>` and `#tag/<Tag name>` → the API reference;
 * - `images/<file>` → the image inlined as a data URL (the page stays one offline file);
 * - `http(s):` and `mailto:` links stay as they are.
 */
export function rewriteGuide(guide: Guide, ctx: LinkContext, problems: LinkProblem[] = []): string {
  const lines = guide.markdown.split('\n');
  const prose = new Set(proseLines(guide.markdown).map((l) => l.line));
  const out = lines.map((text, index) => {
    const line = index + 1;
    if (!prose.has(line)) return text;
    return text.replace(LINK, (whole, bang: string, label: string, target: string) => {
      const report = (message: string) => {
        problems.push({ file: guide.file, line, target, message });
        return whole;
      };
      if (bang) return imageTag(guide, ctx, label, target, report);
      const route = resolveLink(guide, ctx, target, report);
      return route === undefined ? whole : `[${label}](${route})`;
    });
  });
  return out.join('\n');
}

export function checkGuide(guide: Guide, ctx: LinkContext): LinkProblem[] {
  const problems: LinkProblem[] = [];
  rewriteGuide(guide, ctx, problems);
  return problems;
}

function resolveLink(
  guide: Guide,
  ctx: LinkContext,
  target: string,
  report: (message: string) => string,
): string | undefined {
  if (/^(https?:|mailto:)/.test(target)) return target;
  if (target.startsWith('#operation/')) {
    const id = decodeURIComponent(target.slice('#operation/'.length));
    const tag = ctx.operations.get(id);
    if (!tag) return void report(`unknown operationId "${id}"`);
    return operationRoute(tag, id);
  }
  if (target.startsWith('#tag/')) {
    const tag = decodeURIComponent(target.slice('#tag/'.length));
    if (!ctx.tags.has(tag)) return void report(`unknown tag "${tag}"`);
    return tagRoute(tag);
  }
  if (target.startsWith('#')) return headingLink(guide, target.slice(1), report);
  const [file = '', anchor] = target.split('#');
  if (extname(file) !== '.md')
    return void report('links may point to guides (*.md), #operation/…, #tag/… or http(s)');
  const name = normalize(file).replace(/^\.\//, '');
  if (name.includes('/')) return void report('only guides in docs/guides can be linked');
  const other = ctx.guides.get(name);
  if (!other) return void report(`no guide ${name} in docs/guides`);
  return anchor ? headingLink(other, anchor, report) : tagRoute(other.tag);
}

function headingLink(guide: Guide, anchor: string, report: (message: string) => string): string | undefined {
  const match = guide.headings.find((h) => slugify(h) === anchor);
  if (!match) return void report(`no "## …" heading with anchor #${anchor} in ${guide.file}`);
  return headingRoute(guide.tag, match);
}

const MIME: Record<string, string> = { '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg' };

function imageTag(
  guide: Guide,
  ctx: LinkContext,
  alt: string,
  target: string,
  report: (message: string) => string,
): string {
  if (/^[a-z]+:/i.test(target)) return report('images must be local files under docs/guides/images');
  const path = normalize(join(ctx.imagesDir, '..', target));
  if (relative(ctx.imagesDir, path).startsWith('..')) return report('images must live in docs/guides/images');
  if (!existsSync(path)) return report(`image ${target} does not exist`);
  const mime = MIME[extname(path)];
  if (!mime) return report(`unsupported image type ${extname(path)}`);
  const data = readFileSync(path).toString('base64');
  const safeAlt = alt.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  void guide;
  return `<img src="data:${mime};base64,${data}" alt="${safeAlt}" style="max-width:100%">`;
}
