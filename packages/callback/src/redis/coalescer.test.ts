import { AsyncLocalStorage } from 'node:async_hooks';
import { systemClock } from '@partner-print/openapi/wire';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../../test-utils/redis-server.ts';
import { stallFreeStopwatch, timeWithoutStalls } from '../../../../test-utils/stall.ts';
import { RedisCoalescer } from './coalescer.ts';

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

describe('RedisCoalescer', () => {
  it('lets two processes share one round for calls within the window', async () => {
    const events: string[] = [];
    const a = new RedisCoalescer({
      client: await client(),
      prefix: 't1',
      onEvent: (e) => events.push(e.type),
    });
    const b = new RedisCoalescer({
      client: await client(),
      prefix: 't1',
      onEvent: (e) => events.push(e.type),
    });
    const ran: string[] = [];
    const round = (who: string) => async () => {
      ran.push(who);
      await sleep(30);
    };
    const calls = [];
    for (let i = 0; i < 100; i++) {
      calls.push(a.run('Order_1', round('a'), timing), b.run('Order_1', round('b'), timing));
      if (i % 20 === 0) await sleep(10);
    }
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
    const dying = await client();
    const a = new RedisCoalescer({ client: dying, prefix: 't3', leaseMs: 300, commandTimeoutMs: 200 });
    const b = new RedisCoalescer({ client: await client(), prefix: 't3', leaseMs: 300, pollMs: 20 });
    const hung = a.run('Order_3', hang, { ...timing, windowMs: 0 });
    await sleep(100);
    await dying.disconnect(); // the runner's process is gone: its lease is no longer renewed
    let ran = 0;
    const started = Date.now();
    expect(await b.run('Order_3', async () => void ran++, { ...timing, windowMs: 0 })).toBe('done');
    expect(ran).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    void hung;
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

  /** A client whose next script call answers only after `ms` (a stalled connection, a loaded process). */
  function stallable(inner: Awaited<ReturnType<typeof client>>) {
    let stallMs = 0;
    const wrapped = {
      scriptLoad: (script: string) => inner.scriptLoad(script),
      eval: (script: string, options: { keys: string[]; arguments: string[] }) => inner.eval(script, options),
      evalSha: async (sha: string, options: { keys: string[]; arguments: string[] }) => {
        const ms = stallMs;
        stallMs = 0;
        if (ms > 0) await sleep(ms);
        return inner.evalSha(sha, options);
      },
    };
    const stallNext = (ms: number): void => {
      stallMs = ms;
    };
    return { client: wrapped, stallNext };
  }

  it("records a round and frees its lease though another of the runner's commands timed out meanwhile", async () => {
    // The lease and the fault deadline at their defaults' scale: a waiter must not wait out the lease.
    const a = stallable(await client());
    const lead = new RedisCoalescer({ client: a.client, prefix: 't7', commandTimeoutMs: 200 });
    const waiter = new RedisCoalescer({ client: await client(), prefix: 't7', pollMs: 20 });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let ran = 0;
    const window = { ...timing, windowMs: 300 };
    const first = lead.run(
      'Order_9',
      async () => {
        ran++;
        await gate;
      },
      window,
    );
    await sleep(50);
    const covered = waiter.run('Order_9', async () => void ran++, window);
    await sleep(400); // the lead sealed both calls into its round, which runs
    a.stallNext(1_000);
    expect(await lead.run('Order_10', async () => {}, window)).toBe('unavailable'); // a timeout: Redis counts as down here
    release();
    const { result: outcomes, ms } = await timeWithoutStalls(() => Promise.all([first, covered]));
    expect(outcomes).toEqual(['done', 'done']);
    expect(ms).toBeLessThan(2_000);
    expect(ran).toBe(1);
  });

  it('frees the lease of a lead that gives up in its window, so another process leads at once', async () => {
    const a = stallable(await client());
    const lead = new RedisCoalescer({ client: a.client, prefix: 't8', commandTimeoutMs: 200 });
    const other = new RedisCoalescer({ client: await client(), prefix: 't8', pollMs: 20 });
    const window = { ...timing, windowMs: 1_000 };
    let ran = 0;
    const given = lead.run('Order_11', async () => void ran++, window);
    await sleep(100); // the lead holds the lease and sleeps in its window
    const started = stallFreeStopwatch();
    try {
      const waiting = other.run('Order_11', async () => void ran++, window);
      a.stallNext(1_000);
      expect(await lead.run('Order_12', async () => {}, window)).toBe('unavailable');
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
