import { basename, dirname, extname, join } from 'node:path';
import { createSkuResolver, type SkuResolution } from '../resolver.ts';
import { type Connection, type ConnectionOptions, connect } from './connect.ts';
import { createFileSkuCache } from './file-cache.ts';
import {
  assertReadableFile,
  readSkuHeader,
  readSkuRecords,
  type SkuFileFormat,
  type SkuRecord,
  skuFileFormat,
  UsageError,
} from './files.ts';
import { type BufferedWriter, type CliIO, csvCell, openBufferedWriter } from './io.ts';
import { createOrderedPipeline } from './ordered.ts';
import { countLines, createProgress } from './progress.ts';
import { createProgressGate, describeRunFailure, KEY_REFUSED, type ProgressGate } from './run-failure.ts';
import { acquireLock, fingerprint, type RunState, readState, rewindOutput, writeState } from './state.ts';
import { createWarningGroups, type WarningGroups } from './warnings.ts';

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

/** What a run reads and writes, settled before anything is written. */
interface Plan {
  file: string;
  format: SkuFileFormat;
  outFormat: 'csv' | 'jsonl';
  output: string;
  statePath: string;
  fp: Awaited<ReturnType<typeof fingerprint>>;
  /** CSV input and output: the input's other columns, carried after ours (renamed `input_<name>` on a clash). */
  extraColumns: Array<{ from: string; name: string }>;
}

interface LineResult {
  rec: SkuRecord;
  result?: SkuResolution;
}

async function plan(file: string, opts: SkusOptions): Promise<Plan> {
  const format = skuFileFormat(file, opts.format);
  await assertReadableFile(file);
  const outFormat = opts.outputFormat ?? (opts.output && extname(opts.output) === '.csv' ? 'csv' : 'jsonl');
  if (outFormat !== 'csv' && outFormat !== 'jsonl') {
    throw new UsageError(`--output-format must be csv or jsonl, got ${opts.outputFormat}`);
  }
  const output = opts.output ?? join(dirname(file), `${basename(file, extname(file))}.products.${outFormat}`);
  const header = outFormat === 'csv' ? await readSkuHeader(file, format) : [];
  const extraColumns = header.map((from) => ({
    from,
    name: CSV_COLUMNS.includes(from) ? `input_${from}` : from,
  }));
  return {
    file,
    format,
    outFormat,
    output,
    statePath: opts.state ?? `${output}.state.json`,
    fp: await fingerprint(file),
    extraColumns,
  };
}

export async function runSkus(file: string, opts: SkusOptions, io: CliIO): Promise<number> {
  const p = await plan(file, opts);
  // The key and base URL are checked (one request) before anything is written.
  const conn = await connect(opts, io);
  try {
    const release = await acquireLock(p.statePath);
    try {
      return await resolveFile(p, conn, opts, io);
    } finally {
      await release();
    }
  } finally {
    conn.close();
  }
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

type OutputRecord = ReturnType<typeof toRecord>;

function csvRow(rec: OutputRecord, extra: Record<string, unknown> | undefined, p: Plan): string {
  const shared = 'shared' in rec && rec.shared ? rec.shared.itemReference : '';
  const product = 'productReference' in rec ? rec.productReference : '';
  const carried = p.extraColumns.map((c) => extra?.[c.from]);
  return `${[rec.line, rec.sku, rec.status, product, shared, rec.note, ...carried].map(csvCell).join(',')}\n`;
}

/** The state to resume from, when an interrupted run of the same input left one. */
async function resumeState(p: Plan, opts: SkusOptions): Promise<RunState | undefined> {
  let state = opts.restart ? undefined : await readState(p.statePath);
  if (state && (state.done || state.input !== p.fp.input)) state = undefined;
  if (state && (state.inputSize !== p.fp.inputSize || state.inputMtimeMs !== p.fp.inputMtimeMs)) {
    throw new UsageError(
      `${p.file} changed since the interrupted run recorded in ${p.statePath}; pass --restart to start over`,
    );
  }
  return state;
}

interface Run {
  plan: Plan;
  state: RunState;
  out: BufferedWriter;
  gate: ProgressGate;
  warnings: WarningGroups;
  resumedFrom: number | undefined;
}

async function openRun(p: Plan, opts: SkusOptions): Promise<Run> {
  const resumed = await resumeState(p, opts);
  if (resumed) await rewindOutput(p.output, resumed.outputBytes);
  const out = await openBufferedWriter(p.output, resumed ? 'a' : 'w');
  if (!resumed && p.outFormat === 'csv') {
    out.write(`${[...CSV_COLUMNS, ...p.extraColumns.map((c) => c.name)].map(csvCell).join(',')}\n`);
  }
  const state: RunState = resumed ?? {
    version: 1,
    command: 'skus',
    ...p.fp,
    output: p.output,
    line: 0,
    outputBytes: out.bytes,
    counts: {},
    done: false,
  };
  return {
    plan: p,
    state,
    out,
    gate: createProgressGate(),
    warnings: createWarningGroups(),
    resumedFrom: resumed ? resumed.line : undefined,
  };
}

/** Writes one line's result, unless a run-wide failure has stopped the run (then nothing is recorded). */
function emitter(run: Run, save: () => Promise<void>, bar: ReturnType<typeof createProgress> | undefined) {
  let lastSave = Date.now();
  return async (r: LineResult) => {
    const cause = r.result?.status === 'error' ? r.result.cause : undefined;
    if (!run.gate.accept(r.rec.line, cause)) return;
    const rec = toRecord(r);
    run.state.counts[rec.status] = (run.state.counts[rec.status] ?? 0) + 1;
    if (rec.status !== 'resolved')
      run.warnings.add(rec.line, `${rec.sku ? `${rec.sku}: ` : ''}${rec.status} — ${rec.note}`);
    if (run.plan.outFormat === 'jsonl') run.out.write(`${JSON.stringify(rec)}\n`);
    else run.out.write(csvRow(rec, r.rec.extra, run.plan));
    run.state.line = rec.line;
    bar?.update(rec.line);
    if (Date.now() - lastSave > 250) {
      await save();
      lastSave = Date.now();
    } else await run.out.backpressure();
  };
}

async function resolveFile(p: Plan, conn: Connection, opts: SkusOptions, io: CliIO): Promise<number> {
  const run = await openRun(p, opts);
  const startLine = run.state.line;
  const cache = opts.cache ? await createFileSkuCache(opts.cache) : undefined;
  const resolver = createSkuResolver(conn.client, {
    concurrency: opts.concurrency,
    ...(cache ? { cache } : {}),
    detectSharing: opts.sharing !== false,
    printProducts: false,
  });
  const showProgress = opts.progress !== false && !opts.json && io.stderr.isTTY === true;
  const bar = showProgress ? createProgress(io.stderr, await countLines(p.file), startLine) : undefined;
  const save = async () => {
    await run.out.flush();
    run.state.outputBytes = run.out.bytes;
    await writeState(p.statePath, run.state);
  };
  const pipeline = createOrderedPipeline<LineResult>({
    concurrency: opts.concurrency,
    emit: emitter(run, save, bar),
  });
  let fatal: unknown;
  try {
    const reading = { skipUntilLine: startLine, ...(io.signal ? { signal: io.signal } : {}) };
    for await (const rec of readSkuRecords(p.file, p.format, reading)) {
      if (conn.keyRefused()) run.gate.stop(rec.line, new UsageError(KEY_REFUSED));
      if (io.signal?.aborted || run.gate.stopped) break;
      const task = async () => ({ rec, ...(rec.sku ? { result: await resolver.resolve(rec.sku) } : {}) });
      await pipeline.push(task);
    }
    await pipeline.drain();
  } catch (e) {
    fatal = e;
  }
  const interrupted = io.signal?.aborted === true || fatal !== undefined || run.gate.stopped !== undefined;
  run.state.done = !interrupted;
  await save();
  await run.out.close();
  bar?.stop();
  return summarise(run, { resolver, fatal, interrupted, startLine }, opts, io);
}

function summarise(
  run: Run,
  r: {
    resolver: ReturnType<typeof createSkuResolver>;
    fatal: unknown;
    interrupted: boolean;
    startLine: number;
  },
  opts: SkusOptions,
  io: CliIO,
): number {
  const { counts } = run.state;
  const stopped = run.gate.stopped;
  const failed =
    (counts.unknown ?? 0) + (counts.invalid ?? 0) + (counts.error ?? 0) + (counts.malformed ?? 0);
  const stats = r.resolver.stats();
  const problems = run.warnings.format(20, run.plan.output);
  const error = stopped
    ? describeRunFailure(stopped.error)
    : r.fatal
      ? describeRunFailure(r.fatal)
      : undefined;
  if (opts.json) {
    const summary = {
      command: 'skus',
      input: run.plan.file,
      output: run.plan.output,
      state: run.plan.statePath,
      resumedFromLine: run.resumedFrom ?? null,
      lastLine: run.state.line,
      complete: !r.interrupted,
      counts,
      lookups: stats.lookups,
      cacheHits: stats.cacheHits,
      ...(error ? { error } : {}),
      ...(stopped ? { stoppedAtLine: stopped.line } : {}),
      /** The most frequent problems, grouped, with line ranges (all of them are in the output). */
      problems,
    };
    io.stdout.write(`${JSON.stringify(summary)}\n`);
  } else {
    for (const line of problems) io.stderr.write(`${line}\n`);
    const parts = Object.entries(counts).map(([k, v]) => `${v} ${k}`);
    const resumed = run.resumedFrom !== undefined ? `Resumed after line ${r.startLine}. ` : '';
    io.stdout.write(
      `${resumed}${parts.join(', ') || 'No SKUs'}; ${stats.lookups} lookups. Output: ${run.plan.output}\n`,
    );
    if (stopped) {
      io.stderr.write(
        `Stopped at line ${stopped.line}: ${error}\nNothing from line ${stopped.line} on was recorded; rerun the same command to continue.\n`,
      );
    } else if (error) io.stderr.write(`Stopped: ${error}\n`);
    if (r.interrupted && !stopped)
      io.stderr.write(`Interrupted after line ${run.state.line}; rerun the same command to continue.\n`);
  }
  return exitCode(run, r, failed);
}

function exitCode(run: Run, r: { fatal: unknown; interrupted: boolean }, failed: number): number {
  const stopped = run.gate.stopped;
  if (stopped)
    return stopped.error instanceof UsageError || describeRunFailure(stopped.error) === KEY_REFUSED
      ? EXIT.usage
      : EXIT.failures;
  if (r.interrupted) return r.fatal ? EXIT.failures : EXIT.interrupted;
  return failed > 0 ? EXIT.failures : EXIT.ok;
}
