/** The clock shape shared by every package: milliseconds since the epoch. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface SandboxClock extends Clock {
  readonly kind: 'virtual' | 'real';
  /**
   * Moves virtual time forward, waking the sleeps due in the range in due order (a real clock cannot be
   * advanced and throws).
   */
  advance(ms: number): void;
  /** Called each time virtual time moves, before the sleepers due then wake, so due work (late commits,
   * callback retries) runs first. */
  onAdvance(listener: () => void): () => void;
}

export function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

export function createRealClock(): SandboxClock {
  return {
    kind: 'real',
    now: () => Date.now(),
    advance() {
      throw new Error('The sandbox runs on real time; start it with a virtual clock to advance time');
    },
    sleep(ms: number, signal?: AbortSignal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(abortError(signal));
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, ms);
        const onAbort = () => {
          clearTimeout(timer);
          reject(abortError(signal!));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    onAdvance() {
      return () => false;
    },
  };
}
