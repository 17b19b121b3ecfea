import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Attempt, Deadlines } from './deadline.ts';

const timeout = (req: Request, ms: number) => new Error(`${req.url}: ${ms} ms`);
const never = () => new Promise<Response>(() => {});

describe('Deadlines', () => {
  it('times out the attempts past their deadline and leaves none in flight', async () => {
    const d = new Deadlines();
    const slow = d.run(never, new Request('http://127.0.0.1/a'), 40, timeout);
    const quick = d.run(async () => new Response('ok'), new Request('http://127.0.0.1/b'), 40, timeout);
    const late = d.run(never, new Request('http://127.0.0.1/c'), 80, timeout);
    const outcomes = await Promise.allSettled([slow, quick, late]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value.status : String(o.reason)))).toEqual([
      'Error: http://127.0.0.1/a: 40 ms',
      200,
      'Error: http://127.0.0.1/c: 80 ms',
    ]);
    expect(d.head).toBeUndefined();
    expect(d.tail).toBeUndefined();
  });

  it('goes on through the attempts a sweep settles when one of them settles another meanwhile', async () => {
    const d = new Deadlines();
    const attempts: Attempt[] = [];
    const sends = [0, 1, 2].map((i) =>
      d.run(
        (_req, a) => {
          attempts.push(a);
          // The first attempt's transport answers the second when its own signal aborts (its timeout).
          if (i === 0) a.signal.addEventListener('abort', () => attempts[1]?.settle(new Response('late')));
          return never();
        },
        new Request(`http://127.0.0.1/${i}`),
        30,
        timeout,
      ),
    );
    const outcomes = await Promise.allSettled(sends);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? 'answered' : String(o.reason)))).toEqual([
      'Error: http://127.0.0.1/0: 30 ms',
      'answered',
      'Error: http://127.0.0.1/2: 30 ms',
    ]);
    expect(d.head).toBeUndefined();
    // Settled once each: a second settle is ignored.
    expect(d.remove(attempts[2] as Attempt)).toBe(false);
  });

  it("does not time out, after it, an attempt a listener answered during the sweep (its body's reading goes on)", async () => {
    const d = new Deadlines();
    const attempts: Attempt[] = [];
    const sends = [0, 1].map((i) =>
      d.run(
        (_req, a) => {
          attempts.push(a);
          // Both transports take their attempt's signal (fetch does, and aborts the body's reading with it).
          const { signal } = a;
          if (i === 0) signal.addEventListener('abort', () => attempts[1]?.settle(new Response('late')));
          return never();
        },
        new Request(`http://127.0.0.1/${i}`),
        30,
        timeout,
      ),
    );
    const outcomes = await Promise.allSettled(sends);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled']);
    expect(attempts[0]?.signal.aborted).toBe(true);
    expect(attempts[1]?.signal.aborted).toBe(false);
  });

  it('keeps no later attempt alive from a settled one (a dead attempt in the old generation kept every later one)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const d = new Deadlines();
    let first: Attempt | undefined;
    let answerFirst!: (response: Response) => void;
    const one = d.run(
      (_req, a) => {
        first = a;
        return new Promise<Response>((resolve) => (answerFirst = resolve));
      },
      new Request('http://127.0.0.1/1'),
      60_000,
      timeout,
    );
    let second!: WeakRef<Request>;
    await (async () => {
      const req = new Request('http://127.0.0.1/2');
      second = new WeakRef(req);
      let answerSecond!: (response: Response) => void;
      const two = d.run(
        () => new Promise<Response>((resolve) => (answerSecond = resolve)),
        req,
        60_000,
        timeout,
      );
      // The first, started before the second, settles while the second is still in flight.
      answerFirst(new Response('1'));
      await one;
      answerSecond(new Response('2'));
      await two;
    })();
    expect(d.head).toBeUndefined();
    // `first` held, as the old generation holds a promoted attempt until a full collection.
    expect(first?.next).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 0)); // a WeakRef's target is kept until the job ends
    gc();
    expect(second.deref()).toBeUndefined();
  });

  describe('a sweep that runs late (the process stalled)', () => {
    // The sweeps' own timers are real; the time they read is the test's.
    let now = 0;
    afterEach(() => {
      vi.restoreAllMocks();
    });
    const start = (ms = 50) => {
      now = 0;
      vi.spyOn(performance, 'now').mockImplementation(() => now);
      const d = new Deadlines();
      let outcome: string | undefined;
      d.run(never, new Request('http://127.0.0.1/a'), ms, timeout).catch((e: unknown) => {
        outcome = String(e);
      });
      return { d, outcome: () => outcome };
    };
    const sweeps = (n: number) => new Promise((resolve) => setTimeout(resolve, 50 * n + 30));

    it('a sweep on time times out an attempt at its deadline', async () => {
      const { d, outcome } = start();
      now = 50;
      await sweeps(1);
      expect(outcome()).toBe('Error: http://127.0.0.1/a: 50 ms');
      expect(d.head).toBeUndefined();
    });

    it('gives an attempt it finds past its deadline a fresh window, once', async () => {
      const { d, outcome } = start();
      now = 600; // the sweep due at 50 runs at 600
      await sweeps(1);
      expect(outcome()).toBeUndefined();
      expect(d.head?.end).toBe(650);
      now = 649;
      await sweeps(1);
      expect(outcome()).toBeUndefined();
      now = 5_000; // late again: the window was given once
      await sweeps(1);
      expect(outcome()).toBe('Error: http://127.0.0.1/a: 50 ms');
      expect(d.head).toBeUndefined();
    });

    it('a lag small beside a long timeout changes nothing (sweeps every second, late by less than a tenth of it)', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const { outcome } = start(2_000);
        now = 1_000;
        vi.advanceTimersByTime(1_000); // the sweep due at 1 000, on time
        now = 2_150; // the sweep due at 2 000 runs 150 ms late: more than a tenth of its period, not of 2 s
        vi.advanceTimersByTime(1_000);
        await Promise.resolve();
        expect(outcome()).toBe('Error: http://127.0.0.1/a: 2000 ms');
      } finally {
        vi.useRealTimers();
      }
    });

    it("counts as late only a delay past a tenth of the attempt's timeout (at least 10 ms)", async () => {
      const { outcome } = start();
      now = 60; // 10 ms late: on time
      await sweeps(1);
      expect(outcome()).toBe('Error: http://127.0.0.1/a: 50 ms');
    });
  });
});
