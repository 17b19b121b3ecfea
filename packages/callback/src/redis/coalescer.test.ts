import { AsyncLocalStorage } from 'node:async_hooks';
import { systemClock } from '@partner-print/openapi/wire';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drivenClock } from '../../../../test-utils/driven-clock.ts';
import { type RedisServer, startRedisServer } from '../../../../test-utils/redis-server.ts';
import { stallFreeStopwatch, stallFreeUntil, timeWithoutStalls } from '../../../../test-utils/stall.ts';
import { RedisCoalescer } from './coalescer.ts';
import { ARRIVE } from './scripts.ts';

// A real redis-server on 127.0.0.1; without it these tests fail, never skip.
let server: RedisServer;
const clients: ReturnType<typeof createClient>[] = [];
// Rounds that hang (a runner that never finishes) until the end of the file: their lead renews its lease
// until the round ends, so they are released before the clients close, or that loop would run on in the
// worker after this file.
const hanging: (() => void)[] = [];
const hang = () => new Promise<void>((resolve) => hanging.push(resolve));

async function client(url = server.url) {
  const c = createClient({ url, socket: { reconnectStrategy: 100 } });
  c.on('error', () => {});
  await c.connect();
  clients.push(c);
  return c;
}

beforeAll(async () => {
  server = await startRedisServer();
}, 20_000);
afterAll(async () => {
  for (const release of hanging) release();
  for (const c of clients) {
    try {
      await c.disconnect();
    } catch {
      // already gone (the test that kills its connection)
    }
  }
  await server?.stop();
});

const timing = { windowMs: 200, clock: systemClock };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// On a starved machine a test here (some start their own redis-server) took over the default 5 s: the
// timeout only bounds a hang.
describe('RedisCoalescer', { timeout: 30_000 }, () => {
  it('lets two processes share one round for calls within the window', async () => {
    // The window on a clock the test moves: it ends once every call is counted and the lead sleeps in it (a
    // stall of the test within a real 200 ms one split the calls into two rounds). Commands get 30 s, as
    // the processes must see Redis answer.
    const events: string[] = [];
    const [ca, cb] = [counting(await client()), counting(await client())];
    const options = {
      prefix: 't1',
      commandTimeoutMs: 30_000,
      onEvent: (e: { type: string }) => events.push(e.type),
    };
    const a = new RedisCoalescer({ client: ca.client, ...options });
    const b = new RedisCoalescer({ client: cb.client, ...options });
    const driven = drivenClock();
    const window = { windowMs: 200, clock: driven.clock };
    const windowed = driven.nextSleep();
    const ran: string[] = [];
    const round = (who: string) => async () => {
      ran.push(who);
      await sleep(30);
    };
    const calls = [];
    for (let i = 0; i < 100; i++) {
      calls.push(a.run('Order_1', round('a'), window), b.run('Order_1', round('b'), window));
      if (i % 20 === 0) await sleep(10);
    }
    await windowed; // a lead sleeps in the window
    await stallFreeUntil(() => ca.arriving() + cb.arriving() === 0, 10_000);
    await sleep(10);
    expect(ca.arriving() + cb.arriving()).toBe(0); // every call has its number
    driven.advance(200);
    expect(await Promise.all(calls)).toEqual(calls.map(() => 'done'));
    expect(ran).toHaveLength(1);
    expect(events).toEqual([]);
  });

  it("runs a round in the async context of the call it came with, not the leading call's", async () => {
    const als = new AsyncLocalStorage<string>();
    const a = new RedisCoalescer({ client: await client(), prefix: 't-ctx' });
    const seen: Array<string | undefined> = [];
    const round = async () => {
      await sleep(5);
      seen.push(als.getStore());
    };
    // The first call's loop leads; the round it runs is the last arrival's, and runs in that call's context.
    const first = als.run('first', () => a.run('Order_ctx', round, timing));
    await sleep(20);
    const last = als.run('last', () => a.run('Order_ctx', round, timing));
    expect(await Promise.all([first, last])).toEqual(['done', 'done']);
    expect(seen).toEqual(['last']);
  });

  it('runs a second round for calls that came while the first ran, and fails the calls of a failed round', async () => {
    const a = new RedisCoalescer({ client: await client(), prefix: 't2' });
    const b = new RedisCoalescer({ client: await client(), prefix: 't2' });
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const first = a.run(
      'Order_2',
      async () => {
        runs++;
        await gate;
      },
      timing,
    );
    await sleep(300); // the first round is running
    const failing = async () => {
      runs++;
      throw new Error('upstream down');
    };
    const during = [b.run('Order_2', failing, timing), b.run('Order_2', failing, timing)];
    release();
    expect(await first).toBe('done');
    await expect(Promise.all(during)).rejects.toThrow('upstream down');
    expect(runs).toBe(2);
  });

  it("takes over a dead runner's order once its lease expires", async () => {
    // The lease lasts the default 30 s and runs out when the test deletes it, once b has found it held: a
    // 300 ms lease could run out in a stall of the test before b first looked (b then led at once), or a
    // stall before a led let b lead first. b polls on a clock the test moves: a poll it sleeps after is one
    // that found the lease held.
    const redis = await client();
    const dying = await client();
    const a = new RedisCoalescer({ client: dying, prefix: 't3' });
    const driven = drivenClock();
    const b = new RedisCoalescer({ client: await client(), prefix: 't3', pollMs: 20, clock: driven.clock });
    let leading = () => {};
    const led = new Promise<void>((resolve) => {
      leading = resolve;
    });
    const round = () => {
      leading();
      return hang();
    };
    void a.run('Order_3', round, { ...timing, windowMs: 0 });
    await led; // a holds the lease and runs the round
    expect(await redis.pTTL('t3:{Order_3}:lock')).toBeGreaterThan(0); // it runs out unless renewed
    await dying.disconnect(); // the runner's process is gone: its lease is no longer renewed
    let expired = false;
    const ran: boolean[] = [];
    let polled = driven.nextSleep();
    const taking = b.run('Order_3', async () => void ran.push(expired), { ...timing, windowMs: 0 });
    await Promise.race([polled, taking]); // b found the lease held (or, wrongly, led)
    for (let poll = 0; poll < 2; poll++) {
      polled = driven.nextSleep();
      driven.advance(20);
      await Promise.race([polled, taking]); // and again
    }
    expect(ran).toEqual([]);
    expired = true;
    expect(await redis.del('t3:{Order_3}:lock')).toBe(1);
    driven.advance(20);
    expect(await taking).toBe('done');
    expect(ran).toEqual([true]);
  });

  it("answers 'unavailable' with one event when Redis does not answer, and tries again after retryMs", async () => {
    const own = await startRedisServer();
    const events: string[] = [];
    const c = await client(own.url);
    const coalescer = new RedisCoalescer({
      client: c,
      prefix: 't4',
      commandTimeoutMs: 200,
      retryMs: 300,
      onEvent: (e) => events.push(e.type),
    });
    expect(await coalescer.run('Order_4', async () => {}, { ...timing, windowMs: 0 })).toBe('done');
    await own.stop();
    const outcomes = await Promise.all([1, 2, 3].map(() => coalescer.run('Order_4', async () => {}, timing)));
    expect(outcomes).toEqual(['unavailable', 'unavailable', 'unavailable']);
    expect(await coalescer.run('Order_4', async () => {}, timing)).toBe('unavailable'); // no Redis call
    expect(events).toEqual(['redis-unavailable']);
  });

  it('hands every waiting call back at once when Redis fails, not at the end of its window', async () => {
    const own = await startRedisServer();
    const events: string[] = [];
    const a = new RedisCoalescer({
      client: await client(own.url),
      prefix: 't5',
      pollMs: 20,
      commandTimeoutMs: 500,
      onEvent: (e) => events.push(e.type),
    });
    const b = new RedisCoalescer({ client: await client(own.url), prefix: 't5' });
    // b runs Order_6's round (it hangs): a's call for it polls. a leads Order_5, asleep in a long window.
    void b.run('Order_6', hang, { ...timing, windowMs: 0 });
    await sleep(100);
    let ran = 0;
    const polling = a.run('Order_6', async () => void ran++, timing);
    const leading = a.run('Order_5', async () => void ran++, { ...timing, windowMs: 10_000 });
    await sleep(200);
    // Timed without the process's stalls (test-utils/stall.ts), here and below.
    const killed = stallFreeStopwatch();
    try {
      await own.stop();
      expect(await polling).toBe('unavailable');
      expect(await leading).toBe('unavailable');
    } finally {
      killed.stop();
    }
    // The poller's next command fails (at once, or at its 500 ms deadline) and hands the lead's call back
    // with it, long before the lead's window ends.
    expect(killed.elapsed()).toBeLessThan(5_000);
    expect(ran).toBe(0);
    expect(events).toEqual(['redis-unavailable']);
  });

  it('keeps the calls a running round covers with it when Redis fails, and hands back the later ones', async () => {
    const own = await startRedisServer();
    const a = new RedisCoalescer({ client: await client(own.url), prefix: 't6', pollMs: 20 });
    const b = new RedisCoalescer({ client: await client(own.url), prefix: 't6' });
    void b.run('Order_8', hang, { ...timing, windowMs: 0 });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let ran = 0;
    const round = async () => {
      ran++;
      await gate;
    };
    const covered = a.run('Order_7', round, { ...timing, windowMs: 0 });
    await sleep(200); // a's round for Order_7 runs
    const later = a.run('Order_7', round, { ...timing, windowMs: 0 });
    const polling = a.run('Order_8', round, timing);
    await sleep(100);
    await own.stop();
    expect(await polling).toBe('unavailable');
    expect(await later).toBe('unavailable');
    release();
    expect(await covered).toBe('done');
    expect(ran).toBe(1);
  });

  /**
   * A client counting its ARRIVE commands (and script loads) in flight: none once every call made so far has
   * its number (a process sends its next ARRIVE on the reply to the last, within microtasks).
   */
  function counting(inner: Awaited<ReturnType<typeof client>>) {
    let arriving = 0;
    let arrive: string | undefined;
    const counted = async <T>(counts: boolean, command: () => Promise<T>): Promise<T> => {
      if (counts) arriving++;
      try {
        return await command();
      } finally {
        if (counts) arriving--;
      }
    };
    const wrapped = {
      scriptLoad: (script: string) =>
        counted(true, async () => {
          const sha = await inner.scriptLoad(script);
          if (script === ARRIVE) arrive = sha;
          return sha;
        }),
      eval: (script: string, options: { keys: string[]; arguments: string[] }) =>
        counted(script === ARRIVE, () => inner.eval(script, options)),
      evalSha: (sha: string, options: { keys: string[]; arguments: string[] }) =>
        counted(sha === arrive, () => inner.evalSha(sha, options)),
    };
    return { client: wrapped, arriving: () => arriving };
  }

  /**
   * A client whose next script call is sent only when the test lets it go (a stalled connection): `holdNext()`
   * returns the function that does. Held rather than delayed by a timer of this process, which a stall of the
   * process fires as late as the command's deadline: the deadline then starts again and the reply came in time.
   */
  function stallable(inner: Awaited<ReturnType<typeof client>>) {
    let held: Promise<void> | undefined;
    const wrapped = {
      scriptLoad: (script: string) => inner.scriptLoad(script),
      eval: (script: string, options: { keys: string[]; arguments: string[] }) => inner.eval(script, options),
      evalSha: async (sha: string, options: { keys: string[]; arguments: string[] }) => {
        const gate = held;
        held = undefined;
        await gate;
        return inner.evalSha(sha, options);
      },
    };
    const holdNext = (): (() => void) => {
      let go = () => {};
      held = new Promise<void>((resolve) => {
        go = resolve;
      });
      return go;
    };
    return { client: wrapped, holdNext };
  }

  it("records a round and frees its lease though another of the runner's commands timed out meanwhile", async () => {
    // The lease and the fault deadline at their defaults: a waiter must not wait out the lease. The waiter's
    // commands get 30 s, as it must see Redis answer: two stalls of the process within one wait failed a 1 s one.
    const a = stallable(await client());
    const lead = new RedisCoalescer({ client: a.client, prefix: 't7' });
    const waiter = new RedisCoalescer({
      client: await client(),
      prefix: 't7',
      pollMs: 20,
      commandTimeoutMs: 30_000,
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let ran = 0;
    // The window on a clock the test moves, which ends it once the waiter's call is counted (a stall of the
    // test before that call left it out of the round), and the round tells when it runs.
    const driven = drivenClock();
    const window = { windowMs: 300, clock: driven.clock };
    const windowed = driven.nextSleep();
    let running = () => {};
    const runs = new Promise<void>((resolve) => {
      running = resolve;
    });
    const first = lead.run(
      'Order_9',
      async () => {
        ran++;
        running();
        await gate;
      },
      window,
    );
    await windowed; // the lead holds the lease and sleeps in its window
    const covered = waiter.run('Order_9', async () => void ran++, window);
    const redis = await client();
    // Both calls arrived: the key's sequence counts them.
    expect(await stallFreeUntil(async () => (await redis.hGet('t7:{Order_9}', 'seq')) === '2', 10_000)).toBe(
      true,
    );
    driven.advance(300);
    await runs; // the lead sealed both calls into its round, which runs
    const go = a.holdNext();
    expect(await lead.run('Order_10', async () => {}, window)).toBe('unavailable'); // a timeout: Redis counts as down here
    go();
    release();
    const { result: outcomes, ms } = await timeWithoutStalls(() => Promise.all([first, covered]));
    expect(outcomes).toEqual(['done', 'done']);
    expect(ms).toBeLessThan(2_000);
    expect(ran).toBe(1);
  });

  it('frees the lease of a lead that gives up in its window, so another process leads at once', async () => {
    // The other process's commands get 30 s, as it must see Redis answer (see above).
    const a = stallable(await client());
    const lead = new RedisCoalescer({ client: a.client, prefix: 't8', commandTimeoutMs: 200 });
    const other = new RedisCoalescer({
      client: await client(),
      prefix: 't8',
      pollMs: 20,
      commandTimeoutMs: 30_000,
    });
    const window = { ...timing, windowMs: 1_000 };
    // The lead's window on a clock the test moves: it ends only when the lead gives up (a stall of the test
    // could end a real one first), and the test knows when the lead sleeps in it (a 100 ms sleep did not).
    const driven = drivenClock();
    const windowed = driven.nextSleep();
    let ran = 0;
    const given = lead.run('Order_11', async () => void ran++, { ...window, clock: driven.clock });
    await windowed; // the lead holds the lease and sleeps in its window
    const started = stallFreeStopwatch();
    try {
      const waiting = other.run('Order_11', async () => void ran++, window);
      const go = a.holdNext();
      expect(await lead.run('Order_12', async () => {}, window)).toBe('unavailable');
      go();
      expect(await given).toBe('unavailable'); // handed back to run in its own process
      expect(await waiting).toBe('done');
    } finally {
      started.stop();
    }
    // The other process led after the window, not after the lease (30 s).
    expect(started.elapsed()).toBeLessThan(3_000);
    expect(ran).toBe(1);
  });
});
