import type { Clock } from '@partner-print/openapi/wire';

/**
 * How a shared round ended for one call:
 * - `done`: a round that started after this call arrived succeeded (here or in another process);
 * - `unavailable`: the shared store could not be reached: run the round in this process instead.
 */
export type SharedOutcome =
  /** A round that started after this call arrived succeeded (here or in another process). */
  | 'done'
  /** The shared store could not be reached: run the round in this process instead. */
  | 'unavailable';

/**
 * Coalesces rounds of one key across processes. `run` resolves once a round that started after this
 * call succeeded anywhere in the fleet (running `round` here when this process is the one to run it),
 * and rejects when that round failed. It never loses a call: when it cannot coordinate it resolves
 * `'unavailable'`, and the handler runs the round in process.
 */
export interface SharedCoalescer {
  run(
    key: string,
    round: () => Promise<void>,
    timing: { windowMs: number; clock: Clock },
  ): Promise<SharedOutcome>;
}
