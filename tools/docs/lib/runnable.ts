/**
 * Build time: the runnable samples of the page — every operation's whole SDK sample — compiled for the in-page
 * runner, and the routes it names exchanges by.
 */
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { bundleRunner, RUNNER_GLOBAL } from '../runner/bundle.ts';
import { compileSample } from '../runner/compile.ts';
import { BUNDLE_ELEMENT_ID, loaderScript, runnerPayload } from '../runner/loader.ts';
import type { OperationRoute } from '../runner/record.ts';
import type { RunnableSample } from '../runner/types.ts';
import { isObject, type JsonObject, listOperations, type Operation } from './openapi.ts';
import { exampleFile, wholeSample } from './samples.ts';

/** The documented success statuses: the operation's 2xx responses. */
export function documentedStatuses(op: Operation): number[] {
  const responses = isObject(op.node.responses) ? Object.keys(op.node.responses) : [];
  return responses.filter((s) => /^2\d\d$/.test(s)).map(Number);
}

export function operationRoutes(doc: JsonObject): OperationRoute[] {
  return listOperations(doc)
    .filter((op) => op.section === 'paths')
    .map((op) => ({ operationId: op.operationId, method: op.method.toUpperCase(), path: op.path }));
}

export interface RunnableEntry {
  sample: RunnableSample;
  /** The code as the page shows it (the loader recognises the block by it). */
  shown: string;
}

export function operationSample(examplesDir: string, op: Operation): RunnableEntry | undefined {
  const file = exampleFile(examplesDir, op.operationId);
  if (!existsSync(file)) return undefined;
  const { source, setup } = wholeSample(readFileSync(file, 'utf8'));
  const statuses = op.section === 'paths' ? documentedStatuses(op) : [];
  const sample = compileSample(
    source,
    {
      id: `op:${op.operationId}`,
      title: typeof op.node.summary === 'string' ? op.node.summary : op.operationId,
      ...(op.section === 'paths' ? { operationId: op.operationId } : {}),
      ...(statuses.length ? { statuses } : {}),
      ...(setup ? { setup } : {}),
    },
    file,
  );
  return { sample, shown: source };
}

export function operationSamples(doc: JsonObject, examplesDir: string): RunnableSample[] {
  return listOperations(doc).flatMap((op) => operationSample(examplesDir, op)?.sample ?? []);
}

/** Everything the page needs to run its samples: the lazily loaded payload and the loader. */
export async function runnerParts(
  doc: JsonObject,
  entries: readonly RunnableEntry[],
): Promise<{ payload: string; loader: string }> {
  const bundle = await bundleRunner();
  const data = { samples: entries.map((e) => e.sample), routes: operationRoutes(doc) };
  return {
    payload: runnerPayload(bundle, RUNNER_GLOBAL, data),
    loader: loaderScript(new Map(entries.map((e) => [e.sample.id, e.shown])), RUNNER_GLOBAL),
  };
}

/** The page additions: styles, the inert gzip+base64 runner payload and the loader, before `</body>`. */
export function withRunner(html: string, parts: { css: string; payload: string; loader: string }): string {
  const gz = gzipSync(Buffer.from(parts.payload, 'utf8'), { level: 9 }).toString('base64');
  const tail = [
    `<style id="pp-page-style">${parts.css}</style>`,
    `<script type="application/octet-stream" id="${BUNDLE_ELEMENT_ID}">${gz}</script>`,
    `<script>${parts.loader}</script>`,
  ].join('\n');
  const at = html.lastIndexOf('</body>');
  if (at === -1) throw new Error('the page has no </body>');
  return `${html.slice(0, at)}${tail}\n${html.slice(at)}`;
}

const RUNNABLE_FENCE = /^(\s*)```(ts|typescript)(\s.*)?$/;

/**
 * The guide's fences marked ```` ```ts runnable ````: whole programs (imports, a client from environment
 * variables) that the page runs like the operation samples. The mark is a build instruction: the page shows
 * the fence as a plain ```` ```ts ```` block.
 */
export function guideRunnables(file: string, title: string, markdown: string): RunnableEntry[] {
  const lines = markdown.split('\n');
  const entries: RunnableEntry[] = [];
  let section = title;
  for (let i = 0; i < lines.length; i++) {
    const heading = /^##\s+(.+)$/.exec(lines[i]!);
    if (heading) section = `${title}: ${heading[1]!.trim()}`;
    const open = RUNNABLE_FENCE.exec(lines[i]!);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    if (open[3]?.split(/\s+/).includes('runnable')) {
      const { source, setup } = wholeSample(lines.slice(i + 1, end).join('\n'));
      const id = `guide:${file}:${i + 1}`;
      const sample = compileSample(
        source,
        { id, title: section, ...(setup ? { setup } : {}) },
        `${file}:${i + 2}`,
      );
      entries.push({ sample, shown: source });
    }
    i = end;
  }
  return entries;
}

/** The markdown Redoc gets: `runnable` taken out of fence info strings. */
export function withoutRunnableMarks(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) => {
      const open = RUNNABLE_FENCE.exec(line);
      if (!open?.[3]?.split(/\s+/).includes('runnable')) return line;
      const rest = open[3].split(/\s+/).filter((w) => w && w !== 'runnable');
      return `${open[1]}\`\`\`${open[2]}${rest.length ? ` ${rest.join(' ')}` : ''}`;
    })
    .join('\n');
}
