import cliProgress from 'cli-progress';
import { indexTree, type N } from '../code/ast.ts';
import { PathError } from '../code/files.ts';
import { parseExpressionCode } from '../code/parse.ts';
import { type CodeMode, type FileOutcome, type MigrateCodeResult, migrateCode } from '../code/run.ts';
import { UsageError } from './files.ts';
import type { CliIO } from './io.ts';
import { readSkuMapping } from './sku-mapping.ts';
import { EXIT } from './skus.ts';

export interface CodeCliOptions {
  dry?: boolean;
  write?: boolean;
  check?: boolean;
  keyExpression?: string;
  store?: string[];
  skus?: string;
  json?: boolean;
  progress?: boolean;
}

function modeOf(opts: CodeCliOptions): CodeMode {
  const set = (['dry', 'write', 'check'] as const).filter((m) => opts[m]);
  if (set.length > 1)
    throw new UsageError(
      `Choose one of --dry, --write and --check (got ${set.map((m) => `--${m}`).join(' and ')})`,
    );
  return set[0] ?? 'dry';
}

function storesOf(entries: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of entries ?? []) {
    for (const pair of e.split(',')) {
      const [code, ref] = pair.split('=').map((s) => s.trim());
      if (!code || !ref) throw new UsageError(`--store expects <store_code>=<Store_reference>, got ${pair}`);
      if (!/^Store_[A-Za-z0-9._~-]+$/.test(ref))
        throw new UsageError(`--store ${code}=…: the value must be a Store_ reference`);
      out[code] = ref;
    }
  }
  return out;
}

function keyExpressionOf(expr: string | undefined): string | undefined {
  if (expr === undefined) return undefined;
  let parsed: N;
  try {
    parsed = parseExpressionCode(expr);
  } catch {
    throw new UsageError(
      '--key-expression must be one JavaScript expression (e.g. env.PARTNER_PRINT_SECRET_KEY)',
    );
  }
  // A pasted key instead of an expression would land in the source: refuse a literal, alone or in the expression
  // (a fallback, a concatenation), that could be one.
  if (/^\s*(['"`]).*\1\s*$/.test(expr) || holdsKeyLiteral(parsed))
    throw new UsageError('--key-expression is the expression the key is read from, not the key');
  return expr;
}

/** Shorter literals are not keys (the default's `?? ''`). */
const MIN_KEY = 8;

/**
 * Whether the expression writes out a string that may be a key: a literal of 8 characters or more that is a value
 * (not a property name, `process.env['X']`, nor a call's argument, `config.get('pp.key')`).
 */
function holdsKeyLiteral(expr: N): boolean {
  const { nodes, links } = indexTree(expr);
  return nodes.some((n) => {
    const text =
      n.type === 'StringLiteral'
        ? n.value
        : n.type === 'TemplateLiteral'
          ? n.quasis.map((q: N) => q.value.cooked ?? '').join('')
          : undefined;
    if (text === undefined || text.trim().length < MIN_KEY) return false;
    const l = links.get(n);
    if (l?.parent.type === 'MemberExpression' && l.key === 'property') return false;
    return !(l?.parent.type === 'CallExpression' && l.key === 'arguments');
  });
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

/** One line per finding (`file:line:col  kind  what — detail`), errors and skips, then the totals. */
export function formatCodeReport(r: MigrateCodeResult, mode: CodeMode): string {
  const lines: string[] = [];
  for (const f of r.files) {
    for (const x of f.findings)
      lines.push(
        `${pad(`${x.file}:${x.line}:${x.column}`, 28)} ${pad(x.kind, 9)} ${x.what} ${x.kind === 'rewritten' ? x.detail : `— ${x.detail}`}`,
      );
    if (f.error) lines.push(`${pad(f.path, 28)} ${pad('error', 9)} ${f.error} (left as it is)`);
    if (f.warning) lines.push(`${pad(f.path, 28)} ${pad('warning', 9)} ${f.warning}`);
  }
  for (const s of r.skipped) lines.push(`${pad(s.path, 28)} ${pad('skipped', 9)} ${s.reason}`);
  for (const c of r.configs) lines.push(`${pad(c.path, 28)} ${pad('warning', 9)} ${c.warning}`);
  const t = r.totals;
  const verb = mode === 'write' ? 'rewritten' : mode === 'check' ? 'to rewrite' : 'would change';
  lines.push(
    `${t.files} ${t.files === 1 ? 'file' : 'files'} scanned: ${t.changed} ${verb}, ${t.rewritten} V1 ${t.rewritten === 1 ? 'use' : 'uses'} rewritable, ${t.todo} marked TODO, ${t.errors} not parsed or not written, ${t.skipped} skipped.`,
  );
  if (mode === 'check') lines.push(t.rewritten + t.todo > 0 ? 'V1 usage remains.' : 'No V1 usage found.');
  return `${lines.join('\n')}\n`;
}

function progressBar(io: CliIO, opts: CodeCliOptions) {
  if (opts.progress === false || opts.json || !io.stderr.isTTY) return undefined;
  const bar = new cliProgress.SingleBar(
    {
      stream: io.stderr as NodeJS.WritableStream,
      format: ' {bar} {value}/{total} files',
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    tick(done: number, total: number) {
      if (!started && total >= 50) {
        bar.start(total, 0);
        started = true;
      }
      if (started) bar.update(done);
    },
    stop: () => started && bar.stop(),
  };
}

/**
 * `partner-print-migrate code <paths…>`: exit 0 when done (and, with --check, when no V1 usage remains),
 * 1 with --check while V1 usage remains or when a file did not parse or could not be written, 2 on a usage error.
 */
export async function runCode(paths: string[], opts: CodeCliOptions, io: CliIO): Promise<number> {
  const mode = modeOf(opts);
  const stores = storesOf(opts.store);
  const keyExpression = keyExpressionOf(opts.keyExpression);
  const productReferences = opts.skus ? await readSkuMapping(opts.skus) : {};
  const bar = progressBar(io, opts);
  let result: MigrateCodeResult;
  try {
    result = await migrateCode(paths, {
      mode,
      stores,
      productReferences,
      ...(keyExpression ? { keyExpression } : {}),
      onFile(f: FileOutcome, done, total) {
        bar?.tick(done, total);
        if (f.diff && mode === 'dry' && !opts.json) io.stdout.write(f.diff);
      },
    });
  } catch (e) {
    if (e instanceof PathError) throw new UsageError(e.message);
    throw e;
  } finally {
    bar?.stop();
  }
  if (opts.json) io.stdout.write(`${JSON.stringify({ command: 'code', mode, ...result })}\n`);
  else io.stdout.write(formatCodeReport(result, mode));
  const t = result.totals;
  if (t.errors > 0) return EXIT.failures;
  if (mode === 'check' && t.rewritten + t.todo > 0) return EXIT.failures;
  return EXIT.ok;
}
