import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Guide, type LinkContext, type LinkProblem, loadGuides, rewriteGuide } from './guides.ts';
import { type CodeSample, isObject, type Json, type JsonObject, listOperations } from './openapi.ts';
import { PAGE_CSS, pageFixes } from './page-fixes.ts';
import { PATHS } from './paths.ts';
import { makeOffline, remoteAssetUrls } from './postprocess.ts';
import { redocly } from './redocly.ts';
import {
  guideRunnables,
  operationRoutes,
  operationSample,
  type RunnableEntry,
  runnerParts,
  withoutRunnableMarks,
  withRunner,
} from './runnable.ts';
import { curlSample, sdkSample } from './samples.ts';
import { typeComposedObjects } from './schema-display.ts';
import { searchFriendlyDescriptions } from './search-text.ts';
import { operationRoute, tagRoute } from './slug.ts';

export const SITE_TITLE = 'Partner Print SDK — API V2 reference and guides';

export interface BuildOptions {
  /** Fail when an operation has no SDK sample file. */
  strictSamples?: boolean;
  log?: (line: string) => void;
}

export interface Manifest {
  builtAt: string;
  title: string;
  guides: { file: string; tag: string; title: string; route: string; headings: string[]; missing: boolean }[];
  operations: {
    operationId: string;
    method: string;
    path: string;
    tag: string;
    summary: string;
    route: string;
    sdkSample: boolean;
    /** The SDK sample has a Run button. */
    runnable: boolean;
    /** Documented 2xx statuses. */
    statuses: number[];
  }[];
  /** Routes of the spec's tags (API sections). */
  tags: { name: string; route: string }[];
  tagGroups: { name: string; tags: string[] }[];
  missingSamples: string[];
  /** Runnable blocks of the guides (```ts runnable), by sample id. */
  guideRunnables: { id: string; title: string }[];
}

export interface BuildResult {
  html: string;
  manifest: Manifest;
}

export async function buildDocs(options: BuildOptions = {}): Promise<BuildResult> {
  const log = options.log ?? (() => {});
  if (!existsSync(PATHS.spec)) throw new Error(`no spec at ${PATHS.spec}`);
  // Build in a private directory and move the result into docs/dist at the end, so a concurrent build or a
  // server reading docs/dist never sees a half-written site.
  const stage = join(PATHS.root, 'docs/.tmp', `build-${process.pid}-${Date.now()}`);
  const work = join(stage, '.build');
  const htmlOut = join(stage, 'index.html');
  mkdirSync(work, { recursive: true });
  try {
    return await buildInto(work, htmlOut, options, log);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

async function buildInto(
  work: string,
  htmlOut: string,
  options: BuildOptions,
  log: (line: string) => void,
): Promise<BuildResult> {
  // 1. A bundled copy of the spec; spec/ itself is never modified.
  const bundled = `${work}/openapi.bundled.json`;
  redocly(['bundle', PATHS.spec, '--output', bundled, '--lint-config', 'off']);
  const doc = JSON.parse(readFileSync(bundled, 'utf8')) as JsonObject;
  log(`bundled ${PATHS.spec}`);
  const typed = typeComposedObjects(doc);
  if (typed.length) log(`shown as objects (oneOf of objects without a type): ${typed.join(', ')}`);

  // 2. Guides as trait tags, linked from the API tags they explain.
  const guides = loadGuides(PATHS.guides);
  for (const g of guides.filter((g) => g.missing))
    log(`warning: docs/guides/${g.file} is missing; showing a placeholder`);
  const operations = listOperations(doc);
  const ctx = linkContext(doc, guides);
  const problems: LinkProblem[] = [];
  const guideTags = guides.map((g) => ({
    name: g.tag,
    'x-displayName': g.title,
    'x-traitTag': true,
    description: withoutRunnableMarks(rewriteGuide(g, ctx, problems)),
  }));
  if (problems.length) {
    throw new Error(
      `guide links:\n${problems.map((p) => `  ${p.file}:${p.line} ${p.target}: ${p.message}`).join('\n')}`,
    );
  }
  const specTags = (Array.isArray(doc.tags) ? doc.tags : []).filter(isObject);
  for (const tag of specTags) {
    const related = guides.filter((g) => typeof tag.name === 'string' && g.related.includes(tag.name));
    if (related.length === 0) continue;
    const links = related.map((g) => `[${g.title}](${tagRoute(g.tag)})`).join(' · ');
    tag.description = `${typeof tag.description === 'string' ? tag.description.trimEnd() : ''}\n\n**Guides:** ${links}\n`;
  }
  doc.tags = [...specTags, ...guideTags] as Json;
  doc['x-tagGroups'] = tagGroups(doc, guides) as unknown as Json;
  if (isObject(doc.info) && guides.length) {
    const list = guides.map((g) => `- [${g.title}](${tagRoute(g.tag)})`).join('\n');
    const intro = typeof doc.info.description === 'string' ? doc.info.description.trimEnd() : '';
    doc.info.description = `${intro}\n\n## Guides\n\nNew here? Start with the guides, then use the reference.\n\n${list}\n`;
  }

  // 3. Code samples: the SDK region of docs/examples/operations/<operationId>.ts, and curl.
  const missingSamples: string[] = [];
  const routes = operationRoutes(doc);
  const runnable: RunnableEntry[] = guides.flatMap((g) =>
    guideRunnables(g.file, g.title, g.markdown, routes),
  );
  for (const op of operations) {
    const existing = Array.isArray(op.node['x-codeSamples'])
      ? (op.node['x-codeSamples'] as unknown as CodeSample[])
      : [];
    const sdk = sdkSample(PATHS.operationExamples, op.operationId);
    if (!sdk) missingSamples.push(op.operationId);
    const entry = sdk ? operationSample(PATHS.operationExamples, op) : undefined;
    if (entry) runnable.push(entry);
    const samples = [...(sdk ? [sdk] : []), curlSample(doc, op)];
    const labels = new Set(existing.map((s) => s.label ?? s.lang));
    const all = [...existing, ...samples.filter((s) => !labels.has(s.label ?? s.lang))];
    op.node['x-codeSamples'] = all as unknown as Json;
    // Redoc shows no code samples for webhooks, so they go into the description there.
    if (op.section === 'webhooks') op.node.description = withSamples(op.node.description, all);
  }
  if (missingSamples.length) {
    const message = `operations without docs/examples/operations/<operationId>.ts: ${missingSamples.join(', ')}`;
    if (options.strictSamples) throw new Error(message);
    log(`warning: ${message}`);
  }

  // Search snippets keep the spaces between table cells and wrapped lines (see search-text.ts).
  searchFriendlyDescriptions(doc);
  const input = `${work}/openapi.json`;
  writeFileSync(input, `${JSON.stringify(doc, null, 2)}\n`);

  // 4. One offline HTML file.
  redocly([
    'build-docs',
    input,
    '--output',
    htmlOut,
    '--inlineBundle',
    '--title',
    SITE_TITLE,
    '--lint-config',
    'off',
    '--config',
    PATHS.redoclyConfig,
  ]);
  // 5. The runnable samples: a Run button under each, the runner loaded on the first click.
  const parts = await runnerParts(doc, runnable);
  const html = withRunner(pageFixes(makeOffline(readFileSync(htmlOut, 'utf8'))), { css: PAGE_CSS, ...parts });
  log(`runnable samples: ${runnable.length}, runner payload ${Math.round(parts.payload.length / 1024)} KiB`);
  const remote = remoteAssetUrls(html);
  if (remote.length) throw new Error(`the page would load remote assets: ${remote.join(', ')}`);
  writeFileSync(htmlOut, html);

  const manifest: Manifest = {
    builtAt: new Date().toISOString(),
    title: SITE_TITLE,
    guides: guides.map((g) => ({
      file: g.file,
      tag: g.tag,
      title: g.title,
      route: tagRoute(g.tag),
      headings: g.headings,
      missing: g.missing,
    })),
    operations: operations.map((op) => ({
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      tag: op.tag,
      summary: typeof op.node.summary === 'string' ? op.node.summary : op.operationId,
      route: operationRoute(op.tag, op.operationId),
      sdkSample: !missingSamples.includes(op.operationId),
      runnable: runnable.some((r) => r.sample.id === `op:${op.operationId}`),
      statuses: runnable.find((r) => r.sample.id === `op:${op.operationId}`)?.sample.statuses ?? [],
    })),
    tags: specTags
      .map((t) => t.name)
      .filter((n): n is string => typeof n === 'string')
      .map((name) => ({ name, route: tagRoute(name) })),
    tagGroups: doc['x-tagGroups'] as unknown as Manifest['tagGroups'],
    missingSamples,
    guideRunnables: runnable
      .filter((r) => r.sample.id.startsWith('guide:'))
      .map((r) => ({ id: r.sample.id, title: r.sample.title })),
  };
  writeFileSync(join(work, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(PATHS.dist, { recursive: true });
  rmSync(PATHS.work, { recursive: true, force: true });
  renameSync(work, PATHS.work);
  renameSync(htmlOut, PATHS.html);
  log(
    `wrote ${PATHS.html} (${Math.round(html.length / 1024)} KiB, ${guides.length} guides, ${operations.length} operations)`,
  );
  return { html: PATHS.html, manifest };
}

function withSamples(description: Json | undefined, samples: CodeSample[]): string {
  const intro = typeof description === 'string' ? description.trimEnd() : '';
  const blocks = samples.map((s) => {
    const fence = s.lang === 'curl' ? 'sh' : 'ts';
    return `**${s.label ?? s.lang}**\n\n\`\`\`${fence}\n${s.source.trimEnd()}\n\`\`\``;
  });
  return `${intro}\n\n${blocks.join('\n\n')}\n`;
}

export function linkContext(doc: JsonObject, guides: Guide[]): LinkContext {
  const operations = new Map(listOperations(doc).map((op) => [op.operationId, op.tag]));
  const tags = new Set<string>();
  for (const t of Array.isArray(doc.tags) ? doc.tags : [])
    if (isObject(t) && typeof t.name === 'string') tags.add(t.name);
  for (const tag of operations.values()) tags.add(tag);
  return { guides: new Map(guides.map((g) => [g.file, g])), operations, tags, imagesDir: PATHS.images };
}

/** Guides first, then the spec's own groups; a tag in no group would be hidden by Redoc, so it gets one. */
function tagGroups(doc: JsonObject, guides: Guide[]): { name: string; tags: string[] }[] {
  const groups: { name: string; tags: string[] }[] = [];
  if (guides.length) groups.push({ name: 'Guides', tags: guides.map((g) => g.tag) });
  const specGroups = Array.isArray(doc['x-tagGroups']) ? doc['x-tagGroups'] : [];
  for (const g of specGroups) {
    if (isObject(g) && typeof g.name === 'string' && Array.isArray(g.tags)) {
      groups.push({ name: g.name, tags: g.tags.filter((t): t is string => typeof t === 'string') });
    }
  }
  const grouped = new Set(groups.flatMap((g) => g.tags));
  const used = new Set<string>(listOperations(doc).map((op) => op.tag));
  for (const t of Array.isArray(doc.tags) ? doc.tags : []) {
    if (isObject(t) && typeof t.name === 'string' && t['x-traitTag'] !== true) used.add(t.name);
  }
  const orphans = [...used].filter((t) => !grouped.has(t));
  if (orphans.length) groups.push({ name: specGroups.length ? 'More' : 'API reference', tags: orphans });
  return groups;
}
