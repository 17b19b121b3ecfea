// What the transport sees of telemetry: no OpenTelemetry type, so the lite entry, which has none, shares
// the transport without importing the API.
import type { Fetch } from '../deadline.ts';
import type { CallContext } from '../response.ts';

/** One logical call (a `get`, a `POST`, a page of `paginate`…) and its attempts. */
export interface CallTelemetry {
  /** An attempt enters the rate-limit queue (or goes straight out): `req` is what the transport will get. */
  attempt(req: Request): void;
  /** The next attempt waits `delayMs` after `status` or `error`. */
  retry(delayMs: number, status: number | undefined, error: unknown): void;
  /**
   * Ends the call when `result` settles; returns `result`. `held`: a 2xx leaves it open until {@link read}
   * (the client reads its body; a failure to read it goes on with the same call).
   */
  end(result: Promise<Response>, held: boolean): Promise<Response>;
  /** The body of a held 2xx was read, or could not be (`error`): the call ends. */
  read(error?: unknown): void;
}

export interface StackTelemetry {
  /** The call starting with `request`, or undefined when nothing is recorded or propagated. */
  call(request: Request, context: (req: Request) => CallContext): CallTelemetry | undefined;
  /** `fetch` with a CLIENT span around each send of a registered attempt. */
  transport(fetch: Fetch): Fetch;
  /** `to` is sent in place of `from` (a `Scheduler` instance gets a copy of each attempt). */
  relay(from: Request, to: Request): Request;
}
