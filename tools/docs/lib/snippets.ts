import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Guide, loadGuides } from './guides.ts';
import { PATHS } from './paths.ts';

/** Where the snippet modules are written; docs/tsconfig.json includes it, so `typecheck` checks them. */
export const SNIPPETS_DIR = join(PATHS.root, 'docs/.tmp/snippets');

/** Values a guide block takes from the steps before it. */
export const SNIPPET_PRELUDE = `
import type { PartnerPrintClient as __Client } from '@partner-print/client';
import type { Sandbox as __Sandbox } from '@partner-print/sandbox';
import type { components as __C } from '@partner-print/openapi';
import type { Reference as __Ref } from '@partner-print/openapi/wire';
type __OrderRequest = __C['schemas']['DropshipOrderRequest'];
declare const client: __Client;
declare const sandbox: __Sandbox;
declare const order: { reference: __Ref<'Order'> };
declare const request: Request;
declare const address: __OrderRequest['dropshipAddress'];
declare const orderlines: __OrderRequest['orderlines'];
declare const cart: { id: string };
declare const files: string[];
declare const v1Order: Record<string, unknown>;
declare const db: { orders: { upsert(reference: string, order: unknown): Promise<void> } };
declare function showToUser(message: string): void;
declare function handle(order: unknown): void;
declare const orderReference: __Ref<'Order'>, shipmentReference: __Ref<'Shipment'>, claimReference: __Ref<'Claim'>;
declare const storeReference: __Ref<'Store'>, imageReference: __Ref<'Image'>, renderReference: __Ref<'Render'>;
declare const sceneReference: __Ref<'Scene'>, productReference: __Ref<'Product'>;
declare const perspectiveReference: __Ref<'Perspective'>, phoneCase: __Ref<'Product'>;
declare const screenProtector: __Ref<'Product'>, damaged: __Ref<'Claimcategory'>;
`;

/**
 * What package README blocks take from the text around them, on top of the guides' prelude: the
 * reader's own logger, queue, metrics and data.
 */
export const README_PRELUDE = `${SNIPPET_PRELUDE}
declare const log: ((...args: unknown[]) => void) & Record<'debug' | 'info' | 'warn' | 'error', (...args: unknown[]) => void>;
declare const logger: { warn(...args: unknown[]): void; info(...args: unknown[]): void };
declare const metrics: { timing(name: string, ms: number, tags?: Record<string, unknown>): void };
declare const queue: { send(message: unknown): Promise<void>; consume(handler: (message: any) => unknown): void };
declare const bytes: Uint8Array, pngBytes: Uint8Array<ArrayBuffer>, myPng: Uint8Array, file: Blob;
declare const designs: Uint8Array[];
declare const img: { src: string };
declare const url: string, headers: Record<string, string>;
declare const newOrder: __OrderRequest;
declare const redis: { get(key: string): Promise<string | null>; set(key: string, value: string): Promise<unknown>; del(key: string): Promise<unknown> };
declare const job: Parameters<typeof import('@partner-print/render').renderMockup>[1];
declare const handler: import('@partner-print/callback').OrderUpdatedHandler;
declare const onOrderUpdated: import('@partner-print/callback').OnOrderUpdated<import('@partner-print/callback').Order>;
declare const closedAfter: string;
declare const scheduler: import('@partner-print/ratelimit').Scheduler;
`;

export interface Snippet {
  guide: string;
  /** 1-based line of the first code line in the guide's markdown body. */
  line: number;
  code: string;
}

/**
 * The TypeScript fences of a guide (```ts / ```typescript). A fence whose info string says `no-check`
 * (```ts no-check) is shown but not type-checked.
 */
export function guideSnippets(guide: Guide): Snippet[] {
  const out: Snippet[] = [];
  const lines = guide.markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(ts|typescript)(\s.*)?$/.exec(lines[i]!.trim());
    if (!open) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    if (!open[2]?.includes('no-check')) {
      out.push({ guide: guide.file, line: start + 1, code: lines.slice(start, end).join('\n') });
    }
    i = end;
  }
  return out;
}

/**
 * One module per snippet: its imports hoisted, the rest in an async function so top-level `await` and names
 * that other snippets also declare are fine. Names a snippet takes from earlier steps come from `prelude`.
 */
export function snippetModule(snippet: Snippet, prelude: string): { source: string; bodyOffset: number } {
  const lines = snippet.code.split('\n');
  const imports: string[] = [];
  const body: string[] = [];
  let inImport = false;
  for (const line of lines) {
    if (inImport || /^import\s/.test(line)) {
      imports.push(line);
      inImport = !/;\s*$/.test(line);
    } else {
      // A module's exports (`export const handler = …`, `export default …`) are checked as plain values.
      body.push(
        line
          .replace(/^export default /, 'const __default = ')
          .replace(/^export (const|function|async function) /, '$1 '),
      );
    }
  }
  const head = [...imports, prelude, 'export async function snippet(): Promise<void> {'];
  // Keep line numbers: the body starts right after the head, padded so errors map back to the guide.
  const source = `${head.join('\n')}\n${body.join('\n')}\n}\n`;
  return { source, bodyOffset: head.join('\n').split('\n').length };
}

/** Writes one module per TypeScript block of the guides into SNIPPETS_DIR; returns how many. */
export function writeSnippetModules(): number {
  rmSync(SNIPPETS_DIR, { recursive: true, force: true });
  mkdirSync(SNIPPETS_DIR, { recursive: true });
  const snippets = loadGuides(PATHS.guides)
    .filter((g) => !g.missing)
    .flatMap(guideSnippets);
  for (const s of snippets) {
    const name = `${s.guide.replace(/\.md$/, '')}-L${s.line}.ts`;
    const header = `// Generated from docs/guides/${s.guide} line ${s.line} by tools/docs/snippets.ts. Do not edit.\n`;
    writeFileSync(join(SNIPPETS_DIR, name), header + snippetModule(s, SNIPPET_PRELUDE).source);
  }
  const readmes = readmeSnippets();
  for (const s of readmes) {
    const name = `readme-${s.guide.split('/')[1]}-L${s.line}.ts`;
    const header = `// Generated from ${s.guide} line ${s.line} by tools/docs/snippets.ts. Do not edit.\n`;
    writeFileSync(join(SNIPPETS_DIR, name), header + snippetModule(s, README_PRELUDE).source);
  }
  return snippets.length + readmes.length;
}

/** The TypeScript blocks of every package's README (`guide` is the README's path from the root). */
export function readmeSnippets(): Snippet[] {
  const packages = join(PATHS.root, 'packages');
  return readdirSync(packages)
    .sort()
    .map((name) => `packages/${name}/README.md`)
    .filter((path) => existsSync(join(PATHS.root, path)))
    .flatMap((path) =>
      guideSnippets({ file: path, markdown: readFileSync(join(PATHS.root, path), 'utf8') } as Guide),
    );
}
