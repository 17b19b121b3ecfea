// One Clock shape and one real-time clock for the SDK: the client's.
export { type Clock, systemClock } from '@partner-print/client';

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}
