// Where `orders --submit` resumes: after the last line that is done (created, existing, or failed for a reason
// of its own), with the output and report cut back to what was written up to it. A line not done (interrupted,
// a network failure, an unknown outcome) stops the resume point: a rerun does it again, and createOrder finds
// what it may have created.
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { UsageError } from './files.ts';
import { fingerprint, rewindOutput } from './state.ts';

export interface OrdersState {
  version: 1;
  command: 'orders';
  input: string;
  inputSize: number;
  inputMtimeMs: number;
  /** Every line up to and including this one is done, and in the output and report. */
  line: number;
  outputBytes: number;
  reportBytes: number;
  counts: Record<string, number>;
  /** Identifiers whose POST was sent without a known outcome: a rerun settles them before posting. */
  unsettled: string[];
  done: boolean;
}

export const statePathOf = (reportPath: string) => `${reportPath}.state.json`;

async function readOrdersState(path: string): Promise<OrdersState | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const state: unknown = JSON.parse(text);
  const valid =
    typeof state === 'object' &&
    state !== null &&
    'command' in state &&
    state.command === 'orders' &&
    'line' in state;
  if (!valid) throw new UsageError(`The state file ${path} is not an orders state; delete it to start over`);
  const orders = state as OrdersState;
  orders.unsettled ??= [];
  return orders;
}

/** The state to resume from: that of an interrupted run of the same input, else none (start at line 1). */
export async function resumeState(
  input: string,
  reportPath: string,
  output: string,
): Promise<OrdersState | undefined> {
  const state = await readOrdersState(statePathOf(reportPath));
  if (!state || state.done) return undefined;
  const now = await fingerprint(input);
  if (
    now.input !== state.input ||
    now.inputSize !== state.inputSize ||
    now.inputMtimeMs !== state.inputMtimeMs
  )
    return undefined; // another file, or this one changed: every line is checked again (createOrder finds what exists)
  await rewindOutput(output, state.outputBytes);
  await rewindOutput(reportPath, state.reportBytes);
  return state;
}

export async function freshState(input: string): Promise<OrdersState> {
  return {
    version: 1,
    command: 'orders',
    ...(await fingerprint(input)),
    line: 0,
    outputBytes: 0,
    reportBytes: 0,
    counts: {},
    unsettled: [],
    done: false,
  };
}

export async function saveState(reportPath: string, state: OrdersState): Promise<void> {
  const path = statePathOf(reportPath);
  await writeFile(`${path}.tmp`, JSON.stringify(state));
  await rename(`${path}.tmp`, path);
}

export const removeOrdersState = (reportPath: string): Promise<void> =>
  rm(statePathOf(reportPath), { force: true });
