// `code` on a generated tree of 1,000 files: files per second and memory, against an anchor in the same
// run — Babel parsing the same files and nothing else (the floor of any rewrite that parses).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from '@babel/parser';
import { migrateCode } from '../src/code/index.ts';

const CORPUS = new URL('../test/code-corpus/', import.meta.url).pathname;

/** Ordinary application code (no V1 usage), about 10 KB: most files of a real tree are like this. */
function ordinary(i: number): string {
  const fns = Array.from(
    { length: 40 },
    (_, k) => `export function handler${i}_${k}(input: { id: string; items: number[] }) {
  // sums the items of one cart
  const total = input.items.reduce((a, b) => a + b, 0);
  return { id: input.id, total, label: \`cart \${input.id}: \${total}\` };
}
`,
  );
  return fns.join('\n');
}

/** 1,000 files: 700 copies of the corpus's V1 integrations, 300 ordinary modules, in 10 directories. */
export function generateTree(root: string, count = 1000): string[] {
  const templates: Array<{ name: string; text: string }> = [];
  for (const c of readdirSync(CORPUS, { withFileTypes: true })) {
    if (!c.isDirectory()) continue;
    for (const f of readdirSync(join(CORPUS, c.name, 'input')))
      templates.push({ name: f, text: readFileSync(join(CORPUS, c.name, 'input', f), 'utf8') });
  }
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const dir = join(root, `module-${i % 10}`);
    mkdirSync(dir, { recursive: true });
    const t = templates[i % templates.length]!;
    const v1 = i % 10 < 7;
    const name = v1 ? `${i}-${t.name}` : `${i}-util.ts`;
    writeFileSync(join(dir, name), v1 ? `// generated copy ${i}\n${t.text}` : ordinary(i));
    files.push(join(dir, name));
  }
  return files;
}

/** Seconds Babel takes to parse the files (read included), and nothing else. */
function parseOnly(files: string[]): number {
  const t = performance.now();
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    parse(text, {
      sourceType: 'unambiguous',
      plugins: f.endsWith('.ts') ? ['typescript'] : ['jsx', 'typescript'],
    });
  }
  return (performance.now() - t) / 1000;
}

export interface CodeBench {
  files: number;
  filesPerSecond: number;
  anchorFilesPerSecond: number;
  peakRssMb: number;
  heapGrowthMb: number;
  rewritten: number;
  todo: number;
}

/**
 * Runs `code` (dry run, diffs computed) over the tree, one directory of 100 files at a time, each directory's
 * parse-only anchor right before it: on a loaded machine both see the same load. `gc` is a forced collection
 * for the heap samples.
 */
export async function benchCode(root: string, gc: () => void): Promise<CodeBench> {
  const files = generateTree(root);
  const dirs = [...new Set(files.map((f) => dirname(f)))];
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  let anchorSecs = 0;
  let secs = 0;
  const totals = { files: 0, rewritten: 0, todo: 0 };
  const kept: unknown[] = [];
  for (const dir of dirs) {
    anchorSecs += parseOnly(files.filter((f) => dirname(f) === dir));
    const t = performance.now();
    const result = await migrateCode([dir], { mode: 'dry', cwd: root });
    secs += (performance.now() - t) / 1000;
    kept.push(result);
    totals.files += result.totals.files;
    totals.rewritten += result.totals.rewritten;
    totals.todo += result.totals.todo;
  }
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  gc();
  const heapGrowthMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
  // Read after the sample, so the results are alive when it is taken.
  if (kept.length !== dirs.length) throw new Error('a directory was not processed');
  return {
    filesPerSecond: totals.files / secs,
    anchorFilesPerSecond: files.length / anchorSecs,
    peakRssMb: peak / 1024 / 1024,
    // What the run keeps: its results (findings and diffs of 700 files), not the ASTs.
    heapGrowthMb,
    ...totals,
  };
}
