import { describe, expect, it } from 'vitest';
import { claimGap } from '../test/helpers.ts';
import { type BucketState, newBucket, observe, readyAt, refill, takeAll } from './bucket.ts';
import * as TUNING from './tuning.ts';

const T0 = 1_000_000;

function live(quota: number, windowSeconds: number, remaining: number, now = T0): BucketState {
  const b = newBucket(quota, windowSeconds, now);
  observe(b, undefined, { name: 'default', quota, windowSeconds, remaining, resetSeconds: 0 }, now);
  return b;
}

describe('bucket arithmetic (fake time)', () => {
  it('refills continuously at q/w and never beyond the quota', () => {
    const b = live(120, 6, 0);
    expect(b.tokens).toBe(0);
    refill(b, T0 + 500);
    expect(b.tokens).toBeCloseTo(10);
    refill(b, T0 + 60_000);
    expect(b.tokens).toBe(120);
  });

  it('takes from every bucket or from none, and says when to retry', () => {
    const a = live(10, 10, 3);
    const u = live(2, 60, 0);
    const result = takeAll([a, u], 1, T0);
    expect(result).toEqual({ ok: false, retryAt: T0 + 30_000, pausedUntil: 0 });
    expect(a.tokens).toBe(3);
    expect(takeAll([a, u], 1, T0 + 30_000)).toEqual({ ok: true });
    expect(a.tokens).toBeCloseTo(10 - 1);
    expect(u.tokens).toBeCloseTo(0);
    expect(u.inflight).toEqual([{ ticket: 1, seq: 1, owner: '', foreign: 0 }]);
  });

  it('waits for a pause (Retry-After) even with tokens left', () => {
    const b = live(10, 1, 5);
    observe(b, undefined, { name: 'default', pauseUntil: T0 + 4000 }, T0);
    refill(b, T0 + 1000);
    expect(readyAt(b, T0 + 1000)).toBe(T0 + 4000);
  });

  it('lowers the estimate to what the server reports, counting requests still on the way', () => {
    const b = live(100, 10, 50);
    for (let ticket = 1; ticket <= 3; ticket++) expect(takeAll([b], ticket, T0).ok).toBe(true);
    // Someone else spent 20: the answer to ticket 1 says 29 left (ticket 2 and 3 not in it yet).
    observe(b, 1, { name: 'default', remaining: 29, resetSeconds: 0 }, T0);
    expect(b.level).toBe(27);
    expect(b.tokens).toBeLessThanOrEqual(27);
    // Consistent answers change nothing.
    observe(b, 2, { name: 'default', remaining: 28, resetSeconds: 0 }, T0);
    expect(b.level).toBe(27);
  });

  it('ignores an answer older than one already applied', () => {
    const b = live(100, 10, 50);
    takeAll([b], 1, T0);
    takeAll([b], 2, T0);
    observe(b, 2, { name: 'default', remaining: 10, resetSeconds: 0 }, T0);
    observe(b, 1, { name: 'default', remaining: 48, resetSeconds: 0 }, T0);
    expect(b.level).toBe(10);
  });

  it("counts another client's open request as maybe not in an answer (two processes, one store)", () => {
    const b = live(10, 10, 4);
    takeAll([b], 7, T0, 'a');
    takeAll([b], 8, T0, 'b');
    // The server saw 8 before 7 (each process sends its request once its ticket is back): r=3 lacks 7.
    observe(b, 8, { name: 'default', remaining: 3, resetSeconds: 0 }, T0);
    expect(b.level).toBe(2);
    expect(b.tokens).toBe(2);
    // 7's answer is older by ticket and skipped; 7 was counted already.
    observe(b, 7, { name: 'default', remaining: 2, resetSeconds: 0 }, T0);
    expect(b.level).toBe(2);
  });

  it("does not raise the estimate from another client's answer the server may have seen first", () => {
    const b = live(10, 10, 4);
    takeAll([b], 7, T0, 'a');
    takeAll([b], 8, T0, 'b');
    takeAll([b], 9, T0, 'a');
    // The server saw 8, then 7; 7's answer is applied first (9 not seen yet), then 8's, staler.
    observe(b, 7, { name: 'default', remaining: 2, resetSeconds: 0 }, T0);
    expect(b.level).toBe(1);
    observe(b, 8, { name: 'default', remaining: 3, resetSeconds: 0 }, T0);
    expect(b.level).toBe(1);
    expect(b.tokens).toBeLessThanOrEqual(1);
  });

  it('reads t at r=0 as the time to the next token', () => {
    const b = live(5000, 86_400, 10);
    takeAll([b], 1, T0);
    b.level = 10;
    observe(b, 1, { name: 'default', remaining: 0, resetSeconds: 17 }, T0);
    const rate = 5000 / 86_400;
    expect(b.level).toBeCloseTo(1 - 17 * rate, 5);
    refill(b, T0);
    expect(readyAt(b, T0)).toBeGreaterThan(T0 + 16_000);
    expect(readyAt(b, T0)).toBeLessThanOrEqual(T0 + 17_000);
  });

  it('gives the token of a refused (429) request back', () => {
    const b = live(10, 10, 1);
    takeAll([b], 1, T0);
    observe(b, 1, { name: 'default', refund: true, remaining: 0, resetSeconds: 1 }, T0);
    expect(b.inflight).toEqual([]);
    expect(b.refunded).toBe(1);
  });

  it('applies a policy change (q and w) to the refill', () => {
    const b = live(120, 6, 0);
    observe(
      b,
      undefined,
      { name: 'default', quota: 60, windowSeconds: 60, remaining: 0, resetSeconds: 1 },
      T0,
    );
    refill(b, T0 + 1000);
    expect(b.tokens).toBeCloseTo(1, 5);
  });

  it('learns its share when others spend the same budget', () => {
    // q=120/6 s: 20 tokens/s. Others spend 10/s; we send 10/s, answered at once.
    const b = live(120, 6, 10);
    let server = 10;
    let now = T0;
    let ticket = 0;
    for (let step = 0; step < 600; step++) {
      now += 50;
      server = Math.min(120, server + 1 - 0.5); // refill 1 per 50 ms, others take 0.5
      refill(b, now);
      if (takeAll([b], ++ticket, now).ok) {
        server -= 1;
        observe(
          b,
          ticket,
          { name: 'default', remaining: Math.max(0, Math.floor(server)), resetSeconds: 0 },
          now,
        );
      }
    }
    expect(b.share).toBeGreaterThan(0.35);
    expect(b.share).toBeLessThan(0.65);
    expect(server).toBeGreaterThanOrEqual(0);
    // The reserve follows what others spend: with a token and a half left, we wait while others spend,
    // and would not if nobody else did.
    const low = { ...b, level: 1.5, tokens: 1.5, at: now, seenAt: now, inflight: [], unseenRate: 0 };
    expect(readyAt(low, now)).toBeGreaterThan(now);
    expect(readyAt({ ...low, others: 0 }, now)).toBe(now);
  });
});

describe('a process alone, answers reordered and late: it keeps its whole share', () => {
  /**
   * One process, 8 requests on the way at once; the server (a continuous token bucket, q=120, w=6 s)
   * counts each request at a random moment between its sending and its answer `rttMs` later, so it sees
   * them in another order than they were sent, and answers carry balances of moments the process does not
   * know. Before the fix, this noise read as another process spending, and the process cut its own share.
   */
  function alone(rttMs: number, seed: number) {
    let state = seed;
    const random = () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31;
    };
    const b = newBucket(120, 6, T0);
    let server = { tokens: 120, at: T0 };
    const serverTake = (at: number): number => {
      server = { tokens: Math.min(120, server.tokens + ((at - server.at) / 1000) * 20), at };
      if (server.tokens >= 1) server.tokens -= 1;
      return Math.floor(server.tokens);
    };
    type Flight = { ticket: number; sentAt: number; countedAt: number; answerAt: number; r?: number };
    const flights: Flight[] = [];
    let ticket = 0;
    for (let now = T0; now < T0 + 12_000; now += 1) {
      // The server counts requests at their moment, in that order.
      for (const f of flights
        .filter((f) => f.r === undefined && f.countedAt <= now)
        .sort((x, y) => x.countedAt - y.countedAt))
        f.r = serverTake(f.countedAt);
      for (const f of flights.filter((f) => f.answerAt <= now)) {
        observe(
          b,
          f.ticket,
          { name: 'default', remaining: f.r ?? 0, resetSeconds: 0, sentAt: f.sentAt, answeredAt: now },
          now,
        );
        flights.splice(flights.indexOf(f), 1);
      }
      while (flights.length < 8 && takeAll([b], ++ticket, now).ok) {
        flights.push({
          ticket,
          sentAt: now,
          countedAt: now + Math.floor(random() * rttMs),
          answerAt: now + rttMs,
        });
      }
    }
    return b;
  }

  for (const rttMs of [5, 40, 160]) {
    it(`keeps its whole share with a ${rttMs} ms round trip`, () => {
      for (const seed of [1, 2, 3]) {
        const b = alone(rttMs, seed);
        expect(b.others).toBeLessThanOrEqual(TUNING.sharedAbove);
        expect(b.share).toBe(1);
      }
    });
  }
});

describe('clients of one shared store', () => {
  it('lets its claim catch up with the level once the doubt is gone: no token stays unspent', async () => {
    const b = newBucket(120, 6, T0);
    let ticket = 0;
    const balance = await claimGap(
      {
        take: async (owner, now) => {
          const result = takeAll([b], ++ticket, now, owner);
          return result.ok ? { ticket } : { retryAt: result.retryAt };
        },
        observe: async (t, o, now) => observe(b, t, { name: 'default', ...o }, now),
      },
      T0,
    );
    // Within the precision of `r` (a whole token) and the one token the claim keeps back for it.
    expect(balance).toBeLessThanOrEqual(2);
  });
});
