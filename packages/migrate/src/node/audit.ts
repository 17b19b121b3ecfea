import { createReadStream } from 'node:fs';
import { opendir, stat } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { type AuditCategory, type AuditFinding, auditLine } from '../audit.ts';
import { UsageError } from './files.ts';
import type { CliIO } from './io.ts';

const SKIP_DIRS = new Set([
  'node_modules',
  '.git',
  'dist',
  'build',
  'vendor',
  '.next',
  'coverage',
  '.venv',
  '__pycache__',
]);
const TEXT_EXT = new Set([
  '.js',
  '.mjs',
  '.cjs',
  '.jsx',
  '.ts',
  '.mts',
  '.cts',
  '.tsx',
  '.py',
  '.php',
  '.rb',
  '.java',
  '.kt',
  '.cs',
  '.go',
  '.rs',
  '.swift',
  '.sh',
  '.bash',
  '.ps1',
  '.json',
  '.yaml',
  '.yml',
  '.env',
  '.ini',
  '.toml',
  '.xml',
  '.http',
  '.md',
  '.txt',
  '.vue',
  '.svelte',
  '.pl',
  '.ex',
  '.exs',
  '.scala',
  '.groovy',
  '.dart',
  '.lua',
  '.sql',
]);
const MAX_FILE_BYTES = 5 * 1024 * 1024;

async function* walk(dir: string): AsyncGenerator<string> {
  const entries = [];
  for await (const e of await opendir(dir)) entries.push(e);
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) yield* walk(p);
    } else if (e.isFile() && (TEXT_EXT.has(extname(e.name).toLowerCase()) || e.name.startsWith('.env'))) {
      yield p;
    }
  }
}

/** Scans every source file under `dir`, line by line. Paths in findings are relative to `dir`. */
export async function auditDirectory(dir: string): Promise<{ files: number; findings: AuditFinding[] }> {
  let s: Awaited<ReturnType<typeof stat>>;
  try {
    s = await stat(dir);
  } catch {
    throw new UsageError(`Directory not found: ${dir}`);
  }
  if (!s.isDirectory()) throw new UsageError(`Not a directory: ${dir}`);
  const findings: AuditFinding[] = [];
  let files = 0;
  for await (const path of walk(dir)) {
    if ((await stat(path)).size > MAX_FILE_BYTES) continue;
    files++;
    const rel = relative(dir, path) || path;
    const rl = createInterface({
      input: createReadStream(path, 'utf8'),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    let n = 0;
    for await (const text of rl) {
      n++;
      if (text.length > 10_000) continue; // minified bundles
      findings.push(...auditLine(text, rel, n));
    }
  }
  return { files, findings };
}

const TITLES: Record<AuditCategory, string> = {
  'base-url': 'Base URL: /v1 → /v2',
  credentials: 'Credentials: V1 partner-code + API-key headers → one X-Service-Secret-Key',
  endpoint: 'Endpoints: V1 → V2',
  callback: 'Legacy callback: the query keeps its names; use order_reference_v2',
  field: 'Request fields: snake_case → lowerCamelCase (wrapped resources)',
  response: 'Response fields: where V1 data lives in V2',
  image: 'Images: base64 in JSON → raw bytes',
};

export async function runAudit(dir: string, opts: { json?: boolean }, io: CliIO): Promise<number> {
  const { files, findings } = await auditDirectory(dir);
  if (opts.json) {
    io.stdout.write(`${JSON.stringify({ command: 'audit', dir, files, findings })}\n`);
    return 0;
  }
  const lines: string[] = [
    `V1 → V2 migration checklist for ${dir} (${files} ${files === 1 ? 'file' : 'files'} scanned, ${findings.length} ${findings.length === 1 ? 'finding' : 'findings'})`,
  ];
  for (const category of Object.keys(TITLES) as AuditCategory[]) {
    const group = findings.filter((f) => f.category === category);
    if (!group.length) continue;
    lines.push('', `## ${TITLES[category]} (${group.length})`);
    // One checklist item per rule, listing every place it occurs.
    const byRule = new Map<string, AuditFinding[]>();
    for (const f of group) byRule.set(f.rule, [...(byRule.get(f.rule) ?? []), f]);
    for (const [, list] of byRule) {
      const f = list[0]!;
      lines.push(`- [ ] ${f.title} → ${f.v2}${f.note ? ` — ${f.note}` : ''}`);
      for (const g of list) lines.push(`      ${g.file}:${g.line}:${g.column}`);
    }
  }
  if (!findings.length) {
    lines.push('', 'No V1 endpoints, credential headers, callback parameters or snake_case fields found.');
  }
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
