// `partner-print-migrate orders`: convert V1 orders (dry run) or create them (--submit) through the client's
// createOrder, resumable after the last completed line, with claims shared through Redis (--redis).
import { basename, dirname, extname, join } from 'node:path';
import { type ConnectionOptions, connect } from './connect.ts';
import { assertReadableFile, UsageError } from './files.ts';
import { type CliIO, openBufferedWriter } from './io.ts';
import { countLines, createProgress } from './progress.ts';
import { acquireLock } from './state.ts';
import { openRedisClaims } from './submit.ts';
import { createLineProcessor } from './submit-line.ts';
import { runLines } from './submit-run.ts';
import { freshState, type OrdersState, resumeState } from './submit-state.ts';
import { summarise } from './submit-summary.ts';

export { deriveCustomIdentifier, type OrderLineReport, type OrderLineStatus } from './submit-line.ts';

export interface OrdersOptions extends ConnectionOptions {
  submit?: boolean;
  output?: string;
  report?: string;
  storeReference?: string;
  store?: string[];
  cache?: string;
  progress?: boolean;
  json?: boolean;
  /** Redis URL: order claims shared with other processes submitting the same orders. */
  redis?: string;
}

interface Paths {
  file: string;
  output: string;
  reportPath: string;
}

function parseStoreMap(entries: string[] | undefined): Map<string, string> {
  const m = new Map<string, string>();
  for (const e of entries ?? []) {
    for (const pair of e.split(',')) {
      const [code, ref] = pair.split('=');
      if (!code || !ref) throw new UsageError(`--store expects <store_code>=<Store_reference>, got ${pair}`);
      m.set(code.trim(), ref.trim());
    }
  }
  return m;
}

export async function runOrders(file: string, opts: OrdersOptions, io: CliIO): Promise<number> {
  await assertReadableFile(file);
  const stem = join(dirname(file), basename(file, extname(file)));
  const paths = {
    file,
    output: opts.output ?? `${stem}.v2.jsonl`,
    reportPath: opts.report ?? `${stem}.report.jsonl`,
  };
  if (opts.redis && !opts.submit) throw new UsageError('--redis is for --submit (a dry run creates nothing)');
  // Two runs of one file at once would write one report; other files (other processes) share claims via --redis.
  const release = opts.submit ? await acquireLock(paths.reportPath) : undefined;
  try {
    return await submitFile(paths, parseStoreMap(opts.store), opts, io);
  } finally {
    await release?.();
  }
}

async function submitFile(paths: Paths, storeMap: Map<string, string>, opts: OrdersOptions, io: CliIO) {
  const conn = await connect(opts, io);
  const redis = opts.redis ? await openRedisClaims(opts.redis, io) : undefined;
  try {
    if (conn.sandbox) {
      // The embedded sandbox's store codes, so V1 files with store_code work out of the box.
      const { storeCodes, stores } = conn.sandbox.seed;
      for (const [role, code] of Object.entries(storeCodes))
        if (stores[role] && !storeMap.has(code)) storeMap.set(code, stores[role]);
    }
    const resumed = opts.submit ? await resumeState(paths.file, paths.reportPath, paths.output) : undefined;
    const state: OrdersState | undefined =
      resumed ?? (opts.submit ? await freshState(paths.file) : undefined);
    const resumedAfter = resumed?.line ?? 0; // the state moves on as lines are done
    const stopLines = new AbortController();
    const lines = await createLineProcessor({
      client: conn.client,
      submit: opts.submit === true,
      storeReference: (code) => storeMap.get(code) ?? opts.storeReference,
      ...(opts.storeReference ? { defaultStoreReference: opts.storeReference } : {}),
      concurrency: opts.concurrency,
      ...(opts.cache ? { cache: opts.cache } : {}),
      ...(redis ? { claims: redis.claims } : {}),
      unsettled: new Set(state?.unsettled),
      stop: stopLines.signal,
    });
    const mode = resumed ? 'a' : 'w';
    const [out, report] = await Promise.all([
      openBufferedWriter(paths.output, mode),
      openBufferedWriter(paths.reportPath, mode),
    ]);
    const showProgress = opts.progress !== false && !opts.json && io.stderr.isTTY === true;
    const bar = showProgress
      ? createProgress(io.stderr, await countLines(paths.file), resumedAfter)
      : undefined;
    const run = await runLines({
      file: paths.file,
      io,
      out,
      report,
      state,
      reportPath: paths.reportPath,
      concurrency: opts.concurrency,
      processLine: lines.processLine,
      stopLines,
      keyRefused: conn.keyRefused,
      ...(bar ? { onLine: (line: number) => bar.update(line) } : {}),
    });
    await Promise.all([out.close(), report.close()]);
    bar?.stop();
    return summarise(
      {
        ...run,
        ...paths,
        submit: opts.submit === true,
        json: opts.json,
        stats: lines.stats(),
        resumedAfter,
        state,
        interrupted: io.signal?.aborted === true,
        keyRefused: conn.keyRefused(),
      },
      io,
    );
  } finally {
    conn.close();
    await redis?.close();
  }
}
