/** The clock shape shared by every package: milliseconds since the epoch. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface SandboxClock extends Clock {
  readonly kind: 'virtual' | 'real';
  /** Moves virtual time forward (a real clock cannot be advanced and throws). */
  advance(ms: number): void;
  /** Called after every advance, so due work (callback retries) can run. */
  onAdvance(listener: () => void): () => void;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

export function createVirtualClock(start: number): SandboxClock & { set(ms: number): void } {
  let current = start;
  const listeners = new Set<() => void>();
  const clock: SandboxClock & { set(ms: number): void } = {
    kind: 'virtual',
    // Only reset() moves virtual time backwards.
    set(ms: number) {
      current = ms;
    },
    now: () => current,
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0)
        throw new RangeError('advance(ms) needs a finite, non-negative number');
      current += ms;
      for (const listener of listeners) listener();
    },
    // Virtual sleeps return at once: waiting in virtual time is moving it.
    async sleep(ms: number, signal?: AbortSignal) {
      if (signal?.aborted) throw abortError(signal);
      if (ms > 0) clock.advance(ms);
      await Promise.resolve();
      if (signal?.aborted) throw abortError(signal);
    },
    onAdvance(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return clock;
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
