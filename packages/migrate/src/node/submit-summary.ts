// What `orders` prints when it ends, and its exit code.
import { AuthenticationError } from '@partner-print/client';
import { describeError } from '../client.ts';
import type { CliIO } from './io.ts';
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

function summaryOf(s: SummaryInput) {
  const notDone = s.counts['not-done'] ?? 0;
  return {
    command: 'orders',
    mode: s.submit ? 'submit' : 'dry-run',
    input: s.file,
    output: s.output,
    report: s.reportPath,
    counts: s.counts,
    lookups: s.stats.lookups,
    uploads: s.stats.uploads,
    complete: !s.fatal && !s.interrupted && notDone === 0,
    interrupted: s.interrupted,
    ...(s.resumedAfter ? { resumedAfterLine: s.resumedAfter } : {}),
    ...(s.state && !s.state.done ? { resumeAfterLine: s.state.line } : {}),
    ...(s.fatal ? { error: describeError(s.fatal).message } : {}),
    /** The first problems, with line numbers (all of them are in the report file). */
    problems: s.problems.slice(0, 20),
  };
}

function printText(s: SummaryInput, io: CliIO) {
  for (const p of s.problems.slice(0, 20)) io.stderr.write(`${p}\n`);
  const failed = (s.counts.failed ?? 0) + (s.counts['not-done'] ?? 0);
  if (failed > 20) io.stderr.write(`… and ${failed - 20} more; see ${s.reportPath}\n`);
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
  if (s.fatal) io.stderr.write(`Stopped: ${describeError(s.fatal).message}\n`);
}

/** Prints the summary (text, or JSON with --json) and returns the exit code. */
export function summarise(s: SummaryInput, io: CliIO): number {
  if (s.json) io.stdout.write(`${JSON.stringify(summaryOf(s))}\n`);
  else printText(s, io);
  if (s.fatal) return s.keyRefused || s.fatal instanceof AuthenticationError ? EXIT.usage : EXIT.failures;
  if (s.interrupted) return EXIT.interrupted;
  return (s.counts.failed ?? 0) + (s.counts['not-done'] ?? 0) > 0 ? EXIT.failures : EXIT.ok;
}
