// What `orders` prints when it ends, and its exit code.
import { describeError } from '../client.ts';
import type { CliIO } from './io.ts';
import { describeRunFailure, KEY_REFUSED } from './run-failure.ts';
import { EXIT } from './skus.ts';
import type { RunCounts } from './submit-run.ts';
import type { OrdersState } from './submit-state.ts';

export interface SummaryInput extends RunCounts {
  file: string;
  output: string;
  reportPath: string;
  submit: boolean;
  json: boolean | undefined;
  stats: { lookups: number; uploads: number };
  /** The line the run resumed after (0: from the start). */
  resumedAfter: number;
  state: OrdersState | undefined;
  interrupted: boolean;
  keyRefused: boolean;
}

/** Why the run stopped early, if it did: a failure of the whole run, or one outside any line. */
function errorOf(s: SummaryInput): string | undefined {
  if (s.stopped) return describeRunFailure(s.stopped.error);
  return s.fatal ? describeError(s.fatal).message : undefined;
}

function summaryOf(s: SummaryInput) {
  const notDone = s.counts['not-done'] ?? 0;
  const error = errorOf(s);
  return {
    command: 'orders',
    mode: s.submit ? 'submit' : 'dry-run',
    input: s.file,
    output: s.output,
    report: s.reportPath,
    counts: s.counts,
    lookups: s.stats.lookups,
    uploads: s.stats.uploads,
    complete: !s.fatal && !s.stopped && !s.interrupted && notDone === 0,
    interrupted: s.interrupted,
    ...(s.resumedAfter ? { resumedAfterLine: s.resumedAfter } : {}),
    ...(s.state && !s.state.done ? { resumeAfterLine: s.state.line } : {}),
    ...(error ? { error } : {}),
    ...(s.stopped ? { stoppedAtLine: s.stopped.line } : {}),
    /** The most frequent problems, grouped, with line ranges (all of them are in the report file). */
    problems: s.problems,
  };
}

function printText(s: SummaryInput, io: CliIO) {
  for (const p of s.problems) io.stderr.write(`${p}\n`);
  const parts = Object.entries(s.counts).map(([k, v]) => `${v} ${k}`);
  const what = s.submit
    ? `${s.interrupted ? 'Interrupted' : 'Submitted'}${s.resumedAfter ? ` (resumed after line ${s.resumedAfter})` : ''}`
    : 'Dry run (nothing created; pass --submit to create the orders; images were checked, not uploaded)';
  io.stdout.write(
    `${what}: ${parts.join(', ') || 'no orders'}. V2 requests: ${s.output}. Report: ${s.reportPath}\n`,
  );
  if (s.state && !s.state.done)
    io.stdout.write(
      `Lines up to ${s.state.line} are done; rerun the same command to resume after line ${s.state.line}.\n`,
    );
  if (s.stopped)
    io.stderr.write(
      `Stopped at line ${s.stopped.line}: ${errorOf(s)}\nNothing from line ${s.stopped.line} on was recorded; rerun the same command to continue.\n`,
    );
  else if (s.fatal) io.stderr.write(`Stopped: ${errorOf(s)}\n`);
}

/** A refused key (or V1 credentials) is a usage error (2); any other failure of the run is 1. */
function failureCode(s: SummaryInput): number {
  const error = s.stopped?.error ?? s.fatal;
  // describeRunFailure says KEY_REFUSED for a 401, V1 credentials, and the UsageError the run stops with.
  return s.keyRefused || describeRunFailure(error) === KEY_REFUSED ? EXIT.usage : EXIT.failures;
}

/** Prints the summary (text, or JSON with --json) and returns the exit code. */
export function summarise(s: SummaryInput, io: CliIO): number {
  if (s.json) io.stdout.write(`${JSON.stringify(summaryOf(s))}\n`);
  else printText(s, io);
  if (s.fatal || s.stopped) return failureCode(s);
  if (s.interrupted) return EXIT.interrupted;
  return (s.counts.failed ?? 0) + (s.counts['not-done'] ?? 0) > 0 ? EXIT.failures : EXIT.ok;
}
