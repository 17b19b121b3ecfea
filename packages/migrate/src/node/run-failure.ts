import {
  AuthenticationError,
  ConfigurationError,
  NetworkError,
  TimeoutError,
  V1CredentialsError,
} from '@partner-print/client/errors';

/**
 * Whether a failure applies to every line, not to the line it happened on: a refused key, a V1 key or
 * base URL, a bad configuration, the network down or the API not answering. Such a line is not written,
 * the run stops, and its progress is never saved past the line before it, so a rerun (with the cause
 * fixed) continues there instead of keeping a row of errors.
 */
export function isRunWideFailure(e: unknown): boolean {
  return (
    e instanceof AuthenticationError ||
    e instanceof V1CredentialsError ||
    e instanceof ConfigurationError ||
    e instanceof NetworkError ||
    e instanceof TimeoutError
  );
}

export const KEY_REFUSED =
  'The API refused the secret key (401). Check PARTNER_PRINT_SECRET_KEY / --secret-key and --base-url (test and production keys differ); V1 credentials do not work against V2.';

/** What to tell the user about a run-wide failure (never the key: messages come from redacted errors). */
export function describeRunFailure(e: unknown): string {
  if (e instanceof AuthenticationError || e instanceof V1CredentialsError) return KEY_REFUSED;
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof TimeoutError)
    return `The API did not answer in time (${message}); check the network, --base-url, or raise --timeout.`;
  if (e instanceof NetworkError)
    return `The API cannot be reached (${message}); check the network and --base-url.`;
  return message;
}

/**
 * The progress rule both commands follow. Results arrive in file order; `accept` says whether a line's
 * result may be written and counted as done. From the first run-wide failure on, nothing is: that line
 * and every later one are left for the rerun.
 */
export function createProgressGate() {
  let stopped: { line: number; error: unknown } | undefined;
  return {
    accept(line: number, error?: unknown): boolean {
      if (stopped) return false;
      if (error !== undefined && isRunWideFailure(error)) {
        stopped = { line, error };
        return false;
      }
      return true;
    },
    /** Stops the run for a failure outside any line (e.g. a refused key seen by the transport). */
    stop(line: number, error: unknown): void {
      stopped ??= { line, error };
    },
    /** The line and failure that stopped the run, if one did. */
    get stopped():
      | {
          line: number;
          error: unknown;
        }
      | undefined {
      return stopped;
    },
  };
}

export type ProgressGate = ReturnType<typeof createProgressGate>;
