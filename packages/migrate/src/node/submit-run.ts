// The ordered pipeline of `orders`: lines converted (and submitted) concurrently, written in input order,
// with the resume point moved past each line that is done. Ctrl-C stops reading at once; lines in flight get
// a grace period, then are given up and recorded as not done, so the run ends within about 2 s.

import { type JsonLine, readJsonLines } from './files.ts';
import type { BufferedWriter, CliIO } from './io.ts';
import { createOrderedPipeline } from './ordered.ts';
import type { LineResult } from './submit-line.ts';
import { type OrdersState, saveState } from './submit-state.ts';

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
  processLine: (l: JsonLine) => Promise<LineResult>;
  /** Aborted GRACE_MS after Ctrl-C: the lines still in flight are given up. */
  stopLines: AbortController;
  keyRefused: () => boolean;
  onLine?: (line: number) => void;
}

export interface RunCounts {
  counts: Record<string, number>;
  problems: string[];
  fatal: unknown;
}

/** A promise settled when `signal` aborts (never rejected). */
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) =>
    signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
  );

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

/** Runs every line of the file (after the resume point) and returns the counts and problems. */
export async function runLines(r: LineRun): Promise<RunCounts> {
  const counts: Record<string, number> = { ...r.state?.counts };
  const problems: string[] = [];
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
    async emit({ output, done, unsettled, ...line }) {
      if (output) r.out.write(`${JSON.stringify(output)}\n`);
      r.report.write(`${JSON.stringify(line)}\n`);
      counts[line.status] = (counts[line.status] ?? 0) + 1;
      if (line.errors.length && problems.length < 1000)
        problems.push(
          `line ${line.line}: ${line.errors.map((e) => `${e.path ? `${e.path}: ` : ''}${e.message}`).join('; ')}`,
        );
      resumable &&= done;
      if (unsettled && line.customIdentifier && r.state && !r.state.unsettled.includes(line.customIdentifier))
        r.state.unsettled.push(line.customIdentifier);
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
  // A line given up tells itself what it had done (a POST in flight: unsettled) unless it cannot answer at once.
  const givenUp = aborted(r.stopLines.signal).then(
    () => new Promise((resolve) => setTimeout(resolve, ANSWER_MS)),
  );
  const graceTimer = () => setTimeout(() => r.stopLines.abort(new Error('interrupted (Ctrl-C)')), GRACE_MS);
  r.io.signal?.addEventListener('abort', graceTimer, { once: true });
  let fatal: unknown;
  try {
    const lines = readJsonLines(r.file, {
      ...(r.io.signal ? { signal: r.io.signal } : {}),
      skipUntilLine: r.state?.line ?? 0,
    });
    for await (const l of lines) {
      if (r.io.signal?.aborted || r.keyRefused()) break;
      await pipeline.push(() =>
        Promise.race([r.processLine(l), givenUp.then(() => notDoneLine(l, r.stopLines.signal.reason))]),
      );
    }
    await pipeline.drain();
  } catch (e) {
    fatal = e;
  }
  r.io.signal?.removeEventListener('abort', graceTimer);
  if (r.state) r.state.done = !fatal && !r.io.signal?.aborted && resumable;
  await save(true);
  return { counts, problems, fatal };
}
