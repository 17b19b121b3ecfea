import { describe, expect, it } from 'vitest';
import { createVirtualClock } from './virtual-clock.ts';

const START = 1_000_000;

/** Sleeps `ms` and records when (virtual, relative to START) it woke, under `name`. */
function sleeper(clock: ReturnType<typeof createVirtualClock>, woke: Array<[string, number]>) {
  return (name: string, ms: number, signal?: AbortSignal) =>
    clock.sleep(ms, signal).then(() => {
      woke.push([name, clock.now() - START]);
    });
}

/** A chain of `hops` promise reactions, the way work that awaits often (parsing a body) runs. */
async function hops(count: number, done: () => void) {
  for (let i = 0; i < count; i++) await Promise.resolve();
  done();
}

describe('the virtual clock: sleeps are timers', () => {
  // The clock this replaces moved the one shared time forward by ms on every sleep, so two sleeps of 1 s
  // begun together ended 1 s and 2 s later.
  it('concurrent sleeps overlap: two sleeps of 1 s begun together both end 1 s later', async () => {
    const clock = createVirtualClock(START);
    const woke: Array<[string, number]> = [];
    const sleep = sleeper(clock, woke);
    await Promise.all([sleep('a', 1000), sleep('b', 1000), sleep('c', 250)]);
    expect(woke).toEqual([
      ['c', 250],
      ['a', 1000],
      ['b', 1000],
    ]);
    expect(clock.now()).toBe(START + 1000);
  });

  it('wakes in due order, ties in the order the sleeps began, each at its own time', async () => {
    const clock = createVirtualClock(START);
    const woke: Array<[string, number]> = [];
    const sleep = sleeper(clock, woke);
    await Promise.all([
      sleep('300', 300),
      sleep('100 first', 100),
      sleep('200', 200),
      sleep('100 second', 100),
      sleep('0', 0),
    ]);
    expect(woke).toEqual([
      ['0', 0],
      ['100 first', 100],
      ['100 second', 100],
      ['200', 200],
      ['300', 300],
    ]);
  });

  it('a sleeper woken first may sleep again before a later timer fires', async () => {
    const clock = createVirtualClock(START);
    const woke: Array<[string, number]> = [];
    const sleep = sleeper(clock, woke);
    await Promise.all([sleep('100', 100).then(() => sleep('100+50', 50)), sleep('200', 200)]);
    expect(woke).toEqual([
      ['100', 100],
      ['100+50', 150],
      ['200', 200],
    ]);
  });

  // A settle window made of sleeps ended, on the old clock, before work already released (a POST that
  // takes many promise hops to commit) had its turn.
  it('time moves only when nothing else is runnable: work in flight finishes before the next timer', async () => {
    const clock = createVirtualClock(START);
    let committedAt: number | undefined;
    const work = hops(20_000, () => {
      committedAt = clock.now();
    });
    let windowEnded = false;
    const window = (async () => {
      for (const ms of [250, 500, 1000, 2000, 4000]) await clock.sleep(ms);
      windowEnded = true;
    })();
    await Promise.all([work, window]);
    expect(windowEnded).toBe(true);
    expect(committedAt).toBe(START);
  });

  it('real timers fire while virtual sleeps run (each wake waits for a macrotask, not a microtask loop)', async () => {
    const clock = createVirtualClock(START);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      for (let i = 0; i < 3000; i++) await clock.sleep(10);
    } finally {
      clearInterval(timer);
    }
    expect(clock.now()).toBe(START + 30_000);
    expect(ticks).toBeGreaterThan(0);
  });
});

describe('the virtual clock: aborts, advance, listeners, holds, set', () => {
  it('an abort removes the timer: time never reaches it; an aborted signal rejects at once', async () => {
    const clock = createVirtualClock(START);
    const controller = new AbortController();
    const long = clock.sleep(60_000, controller.signal);
    const reason = new Error('given up');
    await clock.sleep(1000);
    controller.abort(reason);
    await expect(long).rejects.toBe(reason);
    await clock.sleep(10);
    expect(clock.now()).toBe(START + 1010);
    await expect(clock.sleep(5, controller.signal)).rejects.toBe(reason);
    expect(clock.now()).toBe(START + 1010);
  });

  it('a NaN or negative sleep is no sleep; an infinite one is refused', async () => {
    const clock = createVirtualClock(START);
    await clock.sleep(Number.NaN);
    await clock.sleep(-5);
    expect(clock.now()).toBe(START);
    await expect(clock.sleep(Number.POSITIVE_INFINITY)).rejects.toBeInstanceOf(RangeError);
  });

  it('advance(ms) wakes the timers due in the range in due order and leaves later ones', async () => {
    const clock = createVirtualClock(START);
    const woke: string[] = [];
    const jumps: number[] = [];
    clock.onAdvance(() => jumps.push(clock.now() - START));
    const late = clock.sleep(5000).then(() => woke.push('5000'));
    void clock.sleep(2000).then(() => woke.push('2000'));
    void clock.sleep(1000).then(() => woke.push('1000'));
    clock.advance(3000);
    expect(jumps).toEqual([1000, 2000, 3000]);
    await Promise.resolve();
    expect(woke).toEqual(['1000', '2000']);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    await late;
    expect(woke).toEqual(['1000', '2000', '5000']);
    expect(clock.now()).toBe(START + 5000);
  });

  it('advanceInTurn(ms) lets each woken sleeper run at its own time, and sleep again within the range', async () => {
    const clock = createVirtualClock(START);
    const seen: number[] = [];
    const poller = (async () => {
      for (let i = 0; i < 4; i++) {
        await clock.sleep(1000);
        seen.push(clock.now() - START);
      }
    })();
    await clock.advanceInTurn(3500);
    expect(seen).toEqual([1000, 2000, 3000]);
    expect(clock.now()).toBe(START + 3500);
    await poller;
    expect(seen).toEqual([1000, 2000, 3000, 4000]);
  });

  it('listeners run at each jump before the sleepers due then wake', async () => {
    const clock = createVirtualClock(START);
    const events: string[] = [];
    clock.onAdvance(() => events.push(`advance ${clock.now() - START}`));
    await clock.sleep(100).then(() => events.push('woke'));
    await clock.sleep(0).then(() => events.push('woke again'));
    expect(events).toEqual(['advance 100', 'woke', 'woke again']);
  });

  it('a hold keeps time from moving by itself until released; advance still moves it', async () => {
    const clock = createVirtualClock(START);
    const release = clock.hold();
    let woke = false;
    const sleeping = clock.sleep(1000).then(() => {
      woke = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(woke).toBe(false);
    expect(clock.now()).toBe(START);
    release();
    release(); // a second release is a no-op: it must not undo another hold
    await sleeping;
    expect(clock.now()).toBe(START + 1000);
    const again = clock.hold();
    const next = clock.sleep(500);
    clock.advance(500);
    await next;
    again();
  });

  it('set(ms) moves the time (reset); a pending sleep keeps the time it had left', async () => {
    const clock = createVirtualClock(START);
    const sleeping = clock.sleep(1000);
    clock.advance(400);
    clock.set(START);
    await sleeping;
    expect(clock.now()).toBe(START + 600);
  });
});
