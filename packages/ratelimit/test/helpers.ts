import type { Clock } from '@partner-print/openapi/wire';

/**
 * Virtual time at its harshest: `sleep` moves the clock forward at once, without waiting for anything else to
 * run (the sandbox's virtual clock is gentler: it wakes sleepers in due order once nothing else can run).
 */
export function virtualClock(
  start = Date.parse('2026-11-16T09:00:00Z'),
): Clock & { advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    advance(ms) {
      now += ms;
    },
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      if (ms > 0) now += ms;
      await Promise.resolve();
      if (signal?.aborted) throw signal.reason;
    },
  };
}

/** Manual time: sleeps wait until the test advances the clock past them. */
export function manualClock(
  start = 1_000_000,
): Clock & { advance(ms: number): Promise<void>; pending(): number } {
  let now = start;
  const sleepers = new Set<{ at: number; resolve: () => void }>();
  return {
    now: () => now,
    pending: () => sleepers.size,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const sleeper = { at: now + ms, resolve };
        sleepers.add(sleeper);
        signal?.addEventListener(
          'abort',
          () => {
            sleepers.delete(sleeper);
            reject(signal.reason);
          },
          { once: true },
        );
      });
    },
    async advance(ms) {
      const target = now + ms;
      for (;;) {
        const due = [...sleepers].filter((s) => s.at <= target).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        now = Math.max(now, due.at);
        sleepers.delete(due);
        due.resolve();
        for (let i = 0; i < 20; i++) await Promise.resolve();
        await new Promise((r) => setImmediate(r));
      }
      now = target;
      for (let i = 0; i < 20; i++) await Promise.resolve();
      await new Promise((r) => setImmediate(r));
    },
  };
}

export const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

/** Waits (real time, up to 5 s) until `condition` holds: the key hash runs on a thread pool. */
export async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** Two clients, `a` and `b`, of one shared bucket state (two processes on one Redis store). */
export interface SharedBucket {
  /** A ticket, or when to try again. */
  take(owner: 'a' | 'b', now: number): Promise<{ ticket: number } | { retryAt: number }>;
  observe(
    ticket: number,
    o: { remaining: number; resetSeconds: number; refund?: boolean },
    now: number,
  ): Promise<void>;
}

/**
 * Issue 21, 6 processes on one Redis store: 13 tokens of the server's balance stayed unspent to the end.
 * Client b has 30 requests open when client a takes one; the server counts all 31 and a's answer comes
 * first. Its balance may lack b's 30 (they may have reached the server after it), so a's claim is kept 30
 * below the level; b's answers are older by ticket and skipped. Then a alone spends what it can for 3 s,
 * each request answered at once, on a server of q=120, w=6 s. Returns the server's balance at the end.
 */
export async function claimGap(shared: SharedBucket, start: number): Promise<number> {
  let server = { tokens: 120, at: start };
  const refillTo = (at: number): number => {
    server = { tokens: Math.min(120, server.tokens + ((at - server.at) / 1000) * 20), at };
    return server.tokens;
  };
  const count = (at: number): { remaining: number; resetSeconds: number; refund?: boolean } => {
    refillTo(at);
    const ok = server.tokens >= 1;
    if (ok) server.tokens -= 1;
    return {
      remaining: Math.floor(server.tokens),
      resetSeconds: ok ? 0 : 1,
      ...(ok ? {} : { refund: true }),
    };
  };
  const ticketOf = async (owner: 'a' | 'b', now: number): Promise<number> => {
    const taken = await shared.take(owner, now);
    if (!('ticket' in taken)) throw new Error(`${owner} could not take at ${now - start} ms`);
    return taken.ticket;
  };
  const first = await ticketOf('a', start);
  await shared.observe(first, count(start), start);
  const b: { ticket: number; answer: ReturnType<typeof count> }[] = [];
  for (let i = 0; i < 30; i++)
    b.push({ ticket: await ticketOf('b', start), answer: { remaining: 0, resetSeconds: 0 } });
  const a = await ticketOf('a', start);
  for (const request of b) request.answer = count(start);
  await shared.observe(a, count(start), start);
  for (const request of b) await shared.observe(request.ticket, request.answer, start);
  let retryAt = start;
  for (let now = start; now < start + 3000; now++) {
    while (retryAt <= now) {
      const taken = await shared.take('a', now);
      if (!('ticket' in taken)) {
        retryAt = taken.retryAt;
        break;
      }
      await shared.observe(taken.ticket, count(now), now);
    }
  }
  return refillTo(start + 3000);
}
