import { createClient } from '@partner-print/client';
import type { RedisScriptClient } from '@partner-print/client/redis';
import { createSandbox } from '@partner-print/sandbox';
import fc from 'fast-check';
import { createClient as createRedisClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drivenClock } from '../../../../test-utils/driven-clock.ts';
import { type RedisServer, startRedisServer } from '../../../../test-utils/redis-server.ts';
import { pngBytes, withLease } from '../../test/helpers.ts';
import { MemoryRenderStore, type RenderLease, type RenderStore } from '../cache.ts';
import { renderMockup } from '../render.ts';
import { RedisRenderStore } from './store.ts';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// A fleet of RedisRenderStore instances (one per worker, each with its own connection) against the one
// MemoryRenderStore of a single process, with the same random sequences of look-ups, stores and deletes
// from random workers: every look-up answers the same. Leases against their model: one holder per key at
// a time, freed by its holder only. A real redis-server on 127.0.0.1; without it this test fails.
let server: RedisServer;
const connections: ReturnType<typeof createRedisClient>[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  for (let i = 0; i < 3; i++) {
    const c = createRedisClient({ url: server.url });
    c.on('error', () => {});
    await c.connect();
    connections.push(c);
  }
}, 20_000);
afterAll(async () => {
  for (const c of connections) await c.quit();
  await server?.stop();
});

type Op =
  | { kind: 'get' | 'delete'; worker: number; key: number }
  | { kind: 'set'; worker: number; key: number; value: number }
  | { kind: 'lease'; worker: number; key: number }
  | { kind: 'release'; pick: number };

const worker = fc.nat(2);
const key = fc.nat(2);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('get' as const, 'delete' as const), worker, key }),
  fc.record({ kind: fc.constant('set' as const), worker, key, value: fc.nat(3) }),
  fc.record({ kind: fc.constant('lease' as const), worker, key }),
  fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }),
);

describe('RedisRenderStore across a fleet and MemoryRenderStore in one process agree', {
  timeout: 300_000,
}, () => {
  it('every look-up answers the same; a lease has one holder at a time', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40, size: 'max' }), async (ops) => {
        run += 1;
        const memory = new MemoryRenderStore();
        const fleet = connections.map((client) => new RedisRenderStore({ client, prefix: `twins${run}` }));
        const held: { key: number; lease: RenderLease & { acquired: true } }[] = [];
        for (const [i, o] of ops.entries()) {
          if (o.kind === 'release') {
            const h = held.splice(o.pick % Math.max(1, held.length), 1)[0];
            await h?.lease.release();
            continue;
          }
          const store = fleet[o.worker] as RedisRenderStore;
          const name = `render:c${o.key}:i`;
          if (o.kind === 'get') {
            expect({ op: i, value: await store.get(name) }).toEqual({ op: i, value: memory.get(name) });
          } else if (o.kind === 'set') {
            await store.set(name, `Render_${o.value}`);
            memory.set(name, `Render_${o.value}`);
          } else if (o.kind === 'delete') {
            await store.delete(name);
            memory.delete(name);
          } else {
            const lease = await store.lease(name);
            const free = !held.some((h) => h.key === o.key);
            expect({ op: i, acquired: lease.acquired }).toEqual({ op: i, acquired: free });
            if (lease.acquired) held.push({ key: o.key, lease });
          }
        }
        for (const h of held) await h.lease.release();
      }),
      { numRuns: Number(process.env.TWINS_RUNS ?? 100) },
    );
  });
});

/** A connection that fails every command while `down` is set, as one cut for a moment would. */
function flaky(client: ReturnType<typeof createRedisClient>) {
  const state = { down: false };
  const cut = () => Promise.reject(new Error('connection lost'));
  const wrapped: RedisScriptClient = {
    evalSha: (sha, options) => (state.down ? cut() : client.evalSha(sha, options)),
    eval: (script, options) => (state.down ? cut() : client.eval(script, options)),
    scriptLoad: (script) => (state.down ? cut() : client.scriptLoad(script)),
  };
  return { state, client: wrapped };
}

// A write Redis missed (it failed for a moment, then answered again) must not make the worker that did it
// answer otherwise than one process would: the render it stored stays known (and is not paid again), the
// failed render it deleted stays forgotten (and is rendered again rather than failing at once).
describe('RedisRenderStore and MemoryRenderStore agree after a write Redis missed', () => {
  const ops = async (
    s: { get(k: string): unknown; set(k: string, v: string): unknown; delete(k: string): unknown },
    cut: (down: boolean) => void,
    other: { set(k: string, v: string): unknown },
  ) => {
    const seen: unknown[] = [];
    cut(true);
    await s.set('render:c0:i', 'Render_1');
    cut(false);
    seen.push(await s.get('render:c0:i'), await s.get('render:c0:i'));
    await s.set('render:c1:i', 'Render_2');
    seen.push(await s.get('render:c1:i'));
    cut(true);
    await s.delete('render:c1:i');
    cut(false);
    seen.push(await s.get('render:c1:i'), await s.get('render:c1:i'));
    // After a missed write, a newer one of another worker wins, as in one process the later write does.
    cut(true);
    await s.set('render:c2:i', 'Render_3');
    await s.delete('render:c0:i');
    cut(false);
    await other.set('render:c2:i', 'Render_4');
    await other.set('render:c0:i', 'Render_5');
    seen.push(await s.get('render:c2:i'), await s.get('render:c0:i'));
    return seen;
  };

  it('the render stored or deleted while Redis failed is answered as in one process', async () => {
    const memory = new MemoryRenderStore();
    const inProcess = await ops(memory, () => {}, memory);
    const link = flaky(connections[0] as ReturnType<typeof createRedisClient>);
    const events: string[] = [];
    const options = {
      prefix: 'twins-missed',
      retryMs: 0,
      onEvent: (e: { type: string }) => events.push(e.type),
    };
    const worker = new RedisRenderStore({ client: link.client, ...options });
    const other = new RedisRenderStore({
      client: connections[1] as ReturnType<typeof createRedisClient>,
      ...options,
    });
    const fleet = await ops(
      worker,
      (down) => {
        link.state.down = down;
      },
      other,
    );
    expect(events).toContain('redis-unavailable');
    expect(fleet).toEqual(inProcess);
    expect(inProcess).toEqual([
      'Render_1',
      'Render_1',
      'Render_2',
      undefined,
      undefined,
      'Render_4',
      'Render_5',
    ]);
  });
});

// Several writes Redis missed in a row: only the latest was kept and made up for against what Redis held, so a
// failed render stored before the outage, deleted and replaced by a new one while Redis failed, came back from
// Redis once it answered, and for ever (`get` answered the failed render, and the worker failed at once on it).
describe('RedisRenderStore and MemoryRenderStore agree after several writes Redis missed', () => {
  it('a render stored, then deleted and replaced while Redis failed, is answered as in one process', async () => {
    const link = flaky(connections[0] as ReturnType<typeof createRedisClient>);
    const worker = new RedisRenderStore({ client: link.client, prefix: 'twins-missed-twice', retryMs: 0 });
    const memory = new MemoryRenderStore();
    const seen: Record<string, unknown[]> = { fleet: [], inProcess: [] };
    for (const [name, s, cut] of [
      ['inProcess', memory, () => {}],
      [
        'fleet',
        worker,
        (down: boolean) => {
          link.state.down = down;
        },
      ],
    ] as const) {
      await s.set('render:c0:i', 'Render_1'); // paid and stored
      await s.set('render:c1:i', 'Render_1');
      cut(true);
      await s.delete('render:c0:i'); // it failed: forgotten; Redis misses the DEL
      await s.set('render:c0:i', 'Render_2'); // the next call pays again; Redis misses the SET
      await s.set('render:c1:i', 'Render_2'); // a stale one replaced (the service no longer knew it)
      cut(false);
      seen[name]?.push(await s.get('render:c0:i'), await s.get('render:c0:i'), await s.get('render:c1:i'));
    }
    expect(seen.fleet).toEqual(seen.inProcess);
    expect(seen.inProcess).toEqual(['Render_2', 'Render_2', 'Render_2']);
  });

  type Step =
    | { kind: 'get' | 'delete' | 'cut' | 'mend'; key: number }
    | { kind: 'set'; key: number; value: number };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({
      kind: fc.constantFrom('get' as const, 'delete' as const, 'cut' as const, 'mend' as const),
      key,
    }),
    fc.record({ kind: fc.constant('set' as const), key, value: fc.nat(3) }),
  );

  // One worker, Redis failing and answering again at random: whatever it missed, it answers as one process does.
  it('one worker through random outages answers every look-up as one process', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30, size: 'max' }), async (steps) => {
        run += 1;
        const link = flaky(connections[0] as ReturnType<typeof createRedisClient>);
        const worker = new RedisRenderStore({
          client: link.client,
          prefix: `twins-outages${run}`,
          retryMs: 0,
        });
        const memory = new MemoryRenderStore();
        for (const [i, s] of steps.entries()) {
          const name = `render:c${s.key}:i`;
          if (s.kind === 'cut' || s.kind === 'mend') link.state.down = s.kind === 'cut';
          else if (s.kind === 'set') {
            await worker.set(name, `Render_${s.value}`);
            memory.set(name, `Render_${s.value}`);
          } else if (s.kind === 'delete') {
            await worker.delete(name);
            memory.delete(name);
          } else
            expect({ step: i, value: await worker.get(name) }).toEqual({ step: i, value: memory.get(name) });
        }
        link.state.down = false;
        for (let k = 0; k < 3; k++)
          expect({ key: k, value: await worker.get(`render:c${k}:i`) }).toEqual({
            key: k,
            value: memory.get(`render:c${k}:i`),
          });
      }),
      { numRuns: Number(process.env.TWINS_RUNS ?? 100) },
    );
  });
});

// One mockup is paid for once however long its POST /renders takes: in one process the second call joins the
// first; across a fleet the first worker's lease is renewed while its POST runs, so the second worker waits
// for its reference instead of taking the lease over (it used to after leaseMs, and paid again).
describe('RedisRenderStore and MemoryRenderStore agree on a POST /renders longer than the lease', {
  timeout: 60_000,
}, () => {
  /**
   * Worker A's POST is held until `hold()` resolves, then the sandbox answers it; B starts once A's POST is
   * out, with `watch` around its store.
   */
  const race = async (
    stores: () => [RenderStore, RenderStore],
    oneProcess: boolean,
    hold: () => Promise<void>,
  ) => {
    const sandbox = createSandbox({ rateLimits: false, jitter: 0, clock: 'real', renderProcessingMs: 20 });
    try {
      let posts = 0;
      let out = () => {};
      const sent = new Promise<void>((resolve) => {
        out = resolve;
      });
      const worker = () =>
        createClient({
          secretKey: sandbox.keys.primary,
          baseUrl: sandbox.baseUrl,
          rateLimit: false,
          fetch: async (request: Request) => {
            if (request.method !== 'POST' || !request.url.endsWith('/renders')) return sandbox.fetch(request);
            posts += 1;
            out();
            if (posts === 1) await hold();
            return sandbox.fetch(request);
          },
        });
      const a = worker();
      const b = oneProcess ? a : worker();
      const image = await a.uploadImage(pngBytes(3));
      const { seed } = sandbox;
      const job = {
        sceneReference: seed.scenes.studio,
        productReference: seed.products.print,
        perspectiveReference: seed.perspectives.studioFront,
        image,
        pollIntervalMs: 20,
        checkCompatibility: false,
      };
      const [storeA, storeB] = stores();
      const first = renderMockup(a, { ...job, cache: storeA });
      await sent;
      const second = renderMockup(b, { ...job, cache: storeB });
      const [ra, rb] = await Promise.all([first, second]);
      const used = (await a.get('/rendertokens')).rendertokens.used;
      return {
        posts,
        spent: (ra.tokensSpent + rb.tokensSpent) / ra.composition.tokenCost,
        used: used / ra.composition.tokenCost,
        same: ra.render.reference === rb.render.reference,
      };
    } finally {
      sandbox.close();
    }
  };

  it("one POST /renders when the holder's POST is held 3 × leaseMs", async () => {
    // The lease lasts the default 30 s, its heartbeat on a clock the test moves: a stall of the test's
    // process (both workers live in it) cannot lose it, where a real 1 s lease was lost over a stall of
    // ~670 ms and B paid again. The POST is held while 3 × leaseMs pass for the lease: before each heartbeat
    // the test cuts the key's TTL by the heartbeat's time, and deletes the key when nothing is left, as Redis
    // would; only renewals keep it. Then B, waiting, tries the lease once more before A's POST answers.
    const LEASE_MS = 30_000;
    const memory = new MemoryRenderStore();
    const inProcess = await race(
      () => [memory, memory],
      true,
      () => sleep(100),
    );
    const faults: string[] = [];
    const driven = drivenClock();
    const options = {
      prefix: 'twins-long',
      pollMs: 20,
      clock: driven.clock,
      onEvent: (e: { type: string }) => faults.push(e.type),
    };
    const redis = connections[2] as ReturnType<typeof createRedisClient>;
    let tried = () => {};
    const b = new RedisRenderStore({
      client: connections[1] as ReturnType<typeof createRedisClient>,
      ...options,
    });
    const watched = withLease(b, async (key) => {
      const lease = await b.lease(key);
      tried();
      return lease;
    });
    const hold = async () => {
      const [lease] = await redis.keys('twins-long:*:lease');
      for (let passed = 0; passed < 3 * LEASE_MS; passed += LEASE_MS / 3) {
        const left = (await redis.pTTL(lease as string)) - LEASE_MS / 3;
        if (left <= 0) {
          await redis.del(lease as string); // it ran out
          break;
        }
        await redis.pExpire(lease as string, left);
        const asleep = driven.nextSleep();
        driven.advance(LEASE_MS / 3);
        await asleep;
      }
      await new Promise<void>((resolve) => {
        tried = resolve;
      });
    };
    const fleet = await race(
      () => [
        new RedisRenderStore({ client: connections[0] as ReturnType<typeof createRedisClient>, ...options }),
        watched,
      ],
      false,
      hold,
    );
    expect(faults).toEqual([]);
    expect(fleet).toEqual(inProcess);
    expect(inProcess).toMatchObject({ posts: 1, spent: 1, used: 1, same: true });
  });
});
