import { basename, dirname, extname, join } from 'node:path';
import { createSkuResolver, type SkuResolution } from '../resolver.ts';
import { type ConnectionOptions, connect, KEY_REFUSED } from './connect.ts';
import { createFileSkuCache } from './file-cache.ts';
import { assertReadableFile, readSkuRecords, type SkuRecord, skuFileFormat, UsageError } from './files.ts';
import { type CliIO, csvCell, openBufferedWriter } from './io.ts';
import { createOrderedPipeline } from './ordered.ts';
import { countLines, createProgress } from './progress.ts';
import { acquireLock, fingerprint, type RunState, readState, rewindOutput, writeState } from './state.ts';

export interface SkusOptions extends ConnectionOptions {
  output?: string;
  format?: string;
  outputFormat?: string;
  state?: string;
  restart?: boolean;
  cache?: string;
  sharing?: boolean;
  progress?: boolean;
  json?: boolean;
}

export const EXIT = { ok: 0, failures: 1, usage: 2, interrupted: 130 } as const;

const CSV_COLUMNS = ['line', 'sku', 'status', 'product_reference', 'shared_item', 'note'];

function defaultOutput(input: string, format: 'csv' | 'jsonl') {
  const name = basename(input, extname(input));
  return join(dirname(input), `${name}.products.${format}`);
}

interface LineResult {
  rec: SkuRecord;
  result?: SkuResolution;
}

function toRecord({ rec, result }: LineResult) {
  if (rec.error || !result) {
    return {
      line: rec.line,
      sku: rec.sku ?? null,
      status: 'malformed',
      note: rec.error ?? 'Unreadable line',
    };
  }
  return {
    line: rec.line,
    sku: result.sku,
    status: result.status,
    ...(result.productReference ? { productReference: result.productReference } : {}),
    kind: result.parsed.kind,
    ...(result.status === 'resolved' && result.shared ? { shared: result.shared } : {}),
    note: result.note,
    ...(rec.extra ? { input: rec.extra } : {}),
  };
}

export async function runSkus(file: string, opts: SkusOptions, io: CliIO): Promise<number> {
  const format = skuFileFormat(file, opts.format);
  await assertReadableFile(file);
  const outFormat = (opts.outputFormat ??
    (opts.output && extname(opts.output) === '.csv' ? 'csv' : 'jsonl')) as 'csv' | 'jsonl';
  if (outFormat !== 'csv' && outFormat !== 'jsonl') {
    throw new UsageError(`--output-format must be csv or jsonl, got ${opts.outputFormat}`);
  }
  const output = opts.output ?? defaultOutput(file, outFormat);
  const statePath = opts.state ?? `${output}.state.json`;
  const fp = await fingerprint(file);
  const release = await acquireLock(statePath);
  try {
    return await resolveFile(file, format, outFormat, output, statePath, fp, opts, io);
  } finally {
    await release();
  }
}

async function resolveFile(
  file: string,
  format: ReturnType<typeof skuFileFormat>,
  outFormat: 'csv' | 'jsonl',
  output: string,
  statePath: string,
  fp: Awaited<ReturnType<typeof fingerprint>>,
  opts: SkusOptions,
  io: CliIO,
): Promise<number> {
  let state: RunState | undefined = opts.restart ? undefined : await readState(statePath);
  if (state && (state.done || state.input !== fp.input)) state = undefined;
  if (state && (state.inputSize !== fp.inputSize || state.inputMtimeMs !== fp.inputMtimeMs)) {
    throw new UsageError(
      `${file} changed since the interrupted run recorded in ${statePath}; pass --restart to start over`,
    );
  }
  const resumed = state !== undefined;
  const counts: Record<string, number> = state?.counts ?? {};
  if (state) await rewindOutput(output, state.outputBytes);
  const out = await openBufferedWriter(output, resumed ? 'a' : 'w');
  if (!resumed && outFormat === 'csv') out.write(`${CSV_COLUMNS.join(',')}\n`);
  const current: RunState = state ?? {
    version: 1,
    command: 'skus',
    ...fp,
    output,
    line: 0,
    outputBytes: out.bytes,
    counts,
    done: false,
  };
  const startLine = current.line;

  const conn = await connect(opts, io);
  const cache = opts.cache ? await createFileSkuCache(opts.cache) : undefined;
  const resolver = createSkuResolver(conn.client, {
    concurrency: opts.concurrency,
    ...(cache ? { cache } : {}),
    detectSharing: opts.sharing !== false,
  });

  const showProgress = opts.progress !== false && !opts.json && io.stderr.isTTY === true;
  const bar = showProgress ? createProgress(io.stderr, await countLines(file), startLine) : undefined;

  const problems: string[] = [];
  let lastSave = Date.now();
  const save = async () => {
    await out.flush();
    current.outputBytes = out.bytes;
    await writeState(statePath, current);
    lastSave = Date.now();
  };

  const pipeline = createOrderedPipeline<LineResult>({
    concurrency: opts.concurrency,
    async emit(r) {
      const rec = toRecord(r);
      counts[rec.status] = (counts[rec.status] ?? 0) + 1;
      if (rec.status !== 'resolved' && problems.length < 1000) {
        problems.push(`line ${rec.line}: ${rec.sku ? `${rec.sku}: ` : ''}${rec.status} — ${rec.note}`);
      }
      if (outFormat === 'jsonl') out.write(`${JSON.stringify(rec)}\n`);
      else {
        const shared = 'shared' in rec && rec.shared ? rec.shared.itemReference : '';
        out.write(
          `${[rec.line, rec.sku, rec.status, 'productReference' in rec ? rec.productReference : '', shared, rec.note].map(csvCell).join(',')}\n`,
        );
      }
      current.line = rec.line;
      bar?.update(rec.line);
      if (Date.now() - lastSave > 250) await save();
      else await out.backpressure();
    },
  });

  let fatal: unknown;
  try {
    for await (const rec of readSkuRecords(file, format, {
      skipUntilLine: startLine,
      ...(io.signal ? { signal: io.signal } : {}),
    })) {
      if (io.signal?.aborted || conn.keyRefused()) break;
      await pipeline.push(async () => ({
        rec,
        ...(rec.sku ? { result: await resolver.resolve(rec.sku) } : {}),
      }));
    }
    await pipeline.drain();
  } catch (e) {
    fatal = e;
  }
  if (conn.keyRefused()) fatal ??= new Error(KEY_REFUSED);
  const interrupted = io.signal?.aborted === true || fatal !== undefined;
  current.done = !interrupted;
  await save();
  await out.close();
  bar?.stop();
  conn.close();

  const stats = resolver.stats();
  const failed =
    (counts.unknown ?? 0) + (counts.invalid ?? 0) + (counts.error ?? 0) + (counts.malformed ?? 0);
  const summary = {
    command: 'skus',
    input: file,
    output,
    state: statePath,
    resumedFromLine: resumed ? startLine : null,
    lastLine: current.line,
    complete: !interrupted,
    counts,
    lookups: stats.lookups,
    cacheHits: stats.cacheHits,
    ...(fatal ? { error: (fatal as Error).message } : {}),
    /** The first problems, with line numbers (all of them are in the output/report file). */
    problems: problems.slice(0, 20),
  };
  if (opts.json) io.stdout.write(`${JSON.stringify(summary)}\n`);
  else {
    for (const p of problems.slice(0, 20)) io.stderr.write(`${p}\n`);
    if (problems.length > 20) io.stderr.write(`… and ${failed - 20} more; see ${output}\n`);
    const parts = Object.entries(counts).map(([k, v]) => `${v} ${k}`);
    io.stdout.write(
      `${resumed ? `Resumed after line ${startLine}. ` : ''}${parts.join(', ') || 'No SKUs'}; ${stats.lookups} lookups. Output: ${output}\n`,
    );
    if (fatal) io.stderr.write(`Stopped: ${(fatal as Error).message}\n`);
    if (interrupted)
      io.stderr.write(`Interrupted after line ${current.line}; rerun the same command to continue.\n`);
  }
  if (conn.keyRefused()) return EXIT.usage;
  if (interrupted) return fatal ? EXIT.failures : EXIT.interrupted;
  return failed > 0 ? EXIT.failures : EXIT.ok;
}
