// The ordered pipeline of `orders`: lines converted (and submitted) concurrently, written in input order,
// with the resume point moved past each line that is done. Ctrl-C stops reading at once; lines in flight get
// a grace period, then are given up and recorded as not done, so the run ends within about 2 s. A line that
// failed for a reason of the whole run (the key, the base URL, the network) stops the run: neither it nor
// any later line is recorded, so the rerun continues there.

import { type JsonLine, readJsonLines, UsageError } from './files.ts';
import type { BufferedWriter, CliIO } from './io.ts';
import { createOrderedPipeline } from './ordered.ts';
import { createProgressGate, KEY_REFUSED } from './run-failure.ts';
import type { LineResult } from './submit-line.ts';
import { type OrdersState, saveState } from './submit-state.ts';
import { createWarningGroups } from './warnings.ts';

/** How long lines in flight may finish after Ctrl-C before they are given up. */
export const GRACE_MS = 1_500;
const SAVE_EVERY_MS = 500;
/** How long a line given up may take to record itself before it is recorded as not done from outside. */
const ANSWER_MS = 200;

export interface LineRun {
  file: string;
  io: CliIO;
  out: BufferedWriter;
  report: BufferedWriter;
  /** With --submit: the resume state, saved as lines are done. */
  state: OrdersState | undefined;
  reportPath: string;
  concurrency: number;
  /** `posting` is called with the line's custom identifier before its POST may be sent. */
  processLine: (l: JsonLine, posting?: (customIdentifier: string) => void) => Promise<LineResult>;
  /** Aborted GRACE_MS after Ctrl-C: the lines still in flight are given up. */
  stopLines: AbortController;
  keyRefused: () => boolean;
  onLine?: (line: number) => void;
}

export interface RunCounts {
  counts: Record<string, number>;
  /** Problems grouped by message, most frequent first, with line ranges (every one is in the report). */
  problems: string[];
  fatal: unknown;
  /** The line (and failure) that stopped the run for a reason of the whole run: nothing from it on was recorded. */
  stopped: { line: number; error: unknown } | undefined;
}

function notDoneLine(l: JsonLine, reason: unknown): LineResult {
  const message = reason instanceof Error ? reason.message : String(reason);
  return {
    line: l.line,
    status: 'not-done',
    done: false,
    errors: [{ path: '', code: 'interrupted', message }],
    report: [],
  };
}

/**
 * ANSWER_MS after `signal` aborts, every line still in flight is recorded as not done. The lines in flight
 * are a set a line leaves when it settles, with one abort listener for the run: nothing that lives as long
 * as the run holds a line once it is written (a reaction per line on a run-long promise would keep every
 * line of the file in memory until the end).
 */
function createGiveUp(signal: AbortSignal) {
  const inFlight = new Set<() => void>();
  let over = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const giveUpAll = () => {
    over = true;
    for (const giveUp of inFlight) giveUp();
    inFlight.clear();
  };
  const onAbort = () => {
    timer = setTimeout(giveUpAll, ANSWER_MS);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return {
    /**
     * The line's result, or "not done" once the line is given up: then, if its POST may have been sent (its
     * answer may still be on its way, or the service may still commit it), unsettled, so that a rerun waits out
     * the settle window before posting it again instead of creating the order twice.
     */
    race(l: JsonLine, start: (posting: (customIdentifier: string) => void) => Promise<LineResult>) {
      let posted: string | undefined;
      const work = start((customIdentifier) => {
        posted = customIdentifier;
      });
      let giveUp = () => {};
      const givenUp = new Promise<LineResult>((resolve) => {
        giveUp = () => {
          const line = notDoneLine(l, signal.reason);
          resolve(posted === undefined ? line : { ...line, customIdentifier: posted, unsettled: true });
        };
      });
      if (over) giveUp();
      else inFlight.add(giveUp);
      const settled = () => inFlight.delete(giveUp);
      work.then(settled, settled);
      return Promise.race([work, givenUp]);
    },
    dispose() {
      signal.removeEventListener('abort', onAbort);
      clearTimeout(timer);
    },
  };
}

/**
 * What a line's problems are grouped by. A SKU problem names its SKU, and the SKU sits at another orderline
 * index from order to order: its message alone is the group ("Unknown SKU ABC123P001 …", once for every line
 * with it). Other messages keep the field path they are about. Each problem is counted once per line.
 */
function problemsOf(line: Pick<LineResult, 'errors'>): Set<string> {
  const text = (e: LineResult['errors'][number]) =>
    e.path && !SKU_CODES.has(e.code) ? `${e.path}: ${e.message}` : e.message;
  return new Set(line.errors.map(text));
}
const SKU_CODES = new Set(['unknown_sku', 'lookup_failed']);

/** Runs every line of the file (after the resume point) and returns the counts and problems. */
export async function runLines(r: LineRun): Promise<RunCounts> {
  const counts: Record<string, number> = { ...r.state?.counts };
  const warnings = createWarningGroups();
  const gate = createProgressGate();
  let resumable = true; // false after the first line that is not done: the resume point stays before it
  let savedAt = 0;
  const save = async (force: boolean) => {
    if (!r.state || (!force && Date.now() - savedAt < SAVE_EVERY_MS)) return;
    await Promise.all([r.out.flush(), r.report.flush()]);
    await saveState(r.reportPath, r.state);
    savedAt = Date.now();
  };
  const pipeline = createOrderedPipeline<LineResult>({
    concurrency: r.concurrency,
    async emit({ output, done, unsettled, runWide, ...line }) {
      // Whether or not the line is recorded, an identifier posted without a known outcome is settled first.
      if (unsettled && line.customIdentifier && r.state && !r.state.unsettled.includes(line.customIdentifier))
        r.state.unsettled.push(line.customIdentifier);
      // From the first line that failed for a reason of the whole run on, nothing is written or counted.
      if (!gate.accept(line.line, runWide)) return;
      if (output) r.out.write(`${JSON.stringify(output)}\n`);
      r.report.write(`${JSON.stringify(line)}\n`);
      counts[line.status] = (counts[line.status] ?? 0) + 1;
      for (const problem of problemsOf(line)) warnings.add(line.line, problem);
      resumable &&= done;
      if (resumable && r.state)
        Object.assign(r.state, {
          line: line.line,
          outputBytes: r.out.bytes,
          reportBytes: r.report.bytes,
          counts: { ...counts },
        });
      r.onLine?.(line.line);
      await save(false);
      await r.out.backpressure();
      await r.report.backpressure();
    },
  });
  const giveUp = createGiveUp(r.stopLines.signal);
  const graceTimer = () => setTimeout(() => r.stopLines.abort(new Error('interrupted (Ctrl-C)')), GRACE_MS);
  r.io.signal?.addEventListener('abort', graceTimer, { once: true });
  let fatal: unknown;
  let refusedAt: number | undefined;
  try {
    const lines = readJsonLines(r.file, {
      ...(r.io.signal ? { signal: r.io.signal } : {}),
      skipUntilLine: r.state?.line ?? 0,
    });
    for await (const l of lines) {
      if (r.io.signal?.aborted || gate.stopped) break;
      if (r.keyRefused()) {
        refusedAt = l.line;
        break;
      }
      await pipeline.push(() => giveUp.race(l, (posting) => r.processLine(l, posting)));
    }
    await pipeline.drain();
  } catch (e) {
    fatal = e;
  }
  giveUp.dispose();
  r.io.signal?.removeEventListener('abort', graceTimer);
  // The key was refused on a request outside the lines (and no line in flight said so): stop before this line.
  if (refusedAt !== undefined) gate.stop(refusedAt, new UsageError(KEY_REFUSED));
  if (r.state) r.state.done = !fatal && !r.io.signal?.aborted && resumable && !gate.stopped;
  await save(true);
  return { counts, problems: warnings.format(20, r.reportPath), fatal, stopped: gate.stopped };
}
