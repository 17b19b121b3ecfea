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
    loader: loaderScript(
      entries.map((e) => ({
        id: e.sample.id,
        text: e.shown,
        ...(e.sample.setup ? { setup: e.sample.setup } : {}),
      })),
      RUNNER_GLOBAL,
    ),
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

const TS_FENCE = /^(\s*)```(ts|typescript)(\s.*)?$/;

/**
 * Why a guide's TypeScript block has no Run button, by the key its fence names (```` ```ts not-runnable:server ````).
 * Every other TypeScript block of a guide is ```` ```ts runnable:<name> ````: a whole program the page runs.
 */
export const NOT_RUNNABLE = {
  sandbox:
    'drives the in-process sandbox (createSandbox, sandbox.control); in the page, the Run panel has these controls',
  step: 'a step of a walkthrough: it continues the block before it and takes its values from there',
  server: 'a request handler or server: it answers requests rather than making them',
  redis: 'needs a Redis server',
  'other-host': 'names a host of yours (test or production), not the sandbox',
  config: 'only configures a client: there is nothing to run',
  'telemetry-setup': 'registers an OpenTelemetry SDK for the whole application: it makes no call of its own',
  'before-after': 'V1 code and what the code rewriter makes of it: fragments of a program, not one',
} as const;
export type NotRunnableReason = keyof typeof NOT_RUNNABLE;

export interface FenceMarks {
  /** `runnable` or `runnable:<name>`: the name ('' when not given). */
  runnable?: string;
  notRunnable?: string;
}

/** The marks of a TypeScript fence's info string; undefined when the line opens no TypeScript fence. */
export function fenceMarks(line: string): FenceMarks | undefined {
  const open = TS_FENCE.exec(line);
  if (!open) return undefined;
  const marks: FenceMarks = {};
  for (const word of (open[3] ?? '').split(/\s+/)) {
    const runnable = /^runnable(?::(.+))?$/.exec(word);
    if (runnable) marks.runnable = runnable[1] ?? '';
    const not = /^not-runnable:(.+)$/.exec(word);
    if (not) marks.notRunnable = not[1]!;
  }
  return marks;
}

/** The guide's TypeScript fences: 1-based line of the fence, its marks, and its code. */
export function tsFences(markdown: string): { line: number; marks: FenceMarks; code: string }[] {
  const lines = markdown.split('\n');
  const out: { line: number; marks: FenceMarks; code: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marks = fenceMarks(lines[i]!);
    if (!marks) continue;
    let end = i + 1;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    out.push({ line: i + 1, marks, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return out;
}

/** Operations whose path the code names as a string literal (`client.post('/claim-item-issues', …)`). */
export function usedOperations(source: string, routes: readonly OperationRoute[]): string[] {
  const literals = new Set([...source.matchAll(/['"`](\/[A-Za-z0-9\-_/{}]+)['"`]/g)].map((m) => m[1]!));
  return routes.filter((r) => literals.has(r.path)).map((r) => r.operationId);
}

/**
 * The guide's fences marked ```` ```ts runnable:<name> ````: whole programs (imports, a client from environment
 * variables, a `// #region setup` part) that the page runs like the operation samples. The marks are build
 * instructions: the page shows the fence as a plain ```` ```ts ```` block without the region markers.
 */
export function guideRunnables(
  file: string,
  title: string,
  markdown: string,
  routes: readonly OperationRoute[] = [],
): RunnableEntry[] {
  const lines = markdown.split('\n');
  const sectionAt = (line: number) => {
    let section = title;
    for (let i = 0; i < line - 1; i++) {
      const heading = /^##\s+(.+)$/.exec(lines[i]!);
      if (heading) section = `${title}: ${heading[1]!.trim()}`;
    }
    return section;
  };
  return tsFences(markdown)
    .filter((f) => f.marks.runnable !== undefined)
    .map((f) => {
      const { source, setup } = wholeSample(f.code);
      const id = `guide:${file}:${f.marks.runnable || f.line}`;
      const uses = usedOperations(source, routes);
      const fields = {
        id,
        title: sectionAt(f.line),
        ...(uses.length ? { uses } : {}),
        ...(setup ? { setup } : {}),
      };
      return { sample: compileSample(source, fields, `${file}:${f.line + 1}`), shown: source };
    });
}

/** The markdown Redoc gets: fence marks taken out, runnable blocks without their region markers. */
export function withoutRunnableMarks(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marks = fenceMarks(line);
    if (!marks) {
      out.push(line);
      continue;
    }
    const open = TS_FENCE.exec(line)!;
    const rest = (open[3] ?? '')
      .split(/\s+/)
      .filter((w) => w && !/^(runnable(:.+)?|not-runnable:.+)$/.test(w));
    out.push(`${open[1]}\`\`\`${open[2]}${rest.length ? ` ${rest.join(' ')}` : ''}`);
    let end = i + 1;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    const code = lines.slice(i + 1, end);
    out.push(
      ...(marks.runnable === undefined
        ? code
        : wholeSample(code.join('\n')).source.replace(/\n$/, '').split('\n')),
    );
    if (end < lines.length) out.push(lines[end]!);
    i = end;
  }
  return out.join('\n');
}
