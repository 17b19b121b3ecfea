import { createSandbox } from '@partner-print/sandbox';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../../test-utils/redis-server.ts';
import { RedisCoalescer } from './coalescer.ts';

// A real redis-server on 127.0.0.1; without it these tests fail, never skip.
let server: RedisServer;
let redis: ReturnType<typeof createClient>;

beforeAll(async () => {
  server = await startRedisServer();
  redis = createClient({ url: server.url });
  redis.on('error', () => {});
  await redis.connect();
}, 20_000);
afterAll(async () => {
  await redis?.disconnect();
  await server?.stop();
});

describe('RedisCoalescer on the sandbox’s virtual clock (as the README tells partners to pass it)', () => {
  it('shares rounds: a command deadline is about Redis, on real time, not lost in virtual time while the reply is on its way', async () => {
    // Before: the 1 s command deadline ran on the virtual clock, which leaps ahead while the process waits for
    // Redis's real reply, so every command timed out: each run answered 'unavailable' and redis-unavailable
    // fired at the first command, though Redis was fine.
    const sandbox = createSandbox();
    const events: string[] = [];
    const coalescer = new RedisCoalescer({
      client: redis,
      prefix: 'virtual',
      clock: sandbox.clock,
      onEvent: (e) => events.push(e.type),
    });
    let rounds = 0;
    const round = async () => {
      rounds++;
    };
    const runs = Array.from({ length: 3 }, () =>
      coalescer.run('Order_00000000000000000000000001', round, { windowMs: 1000, clock: sandbox.clock }),
    );
    const outcomes = await Promise.all(runs);
    expect(events).toEqual([]);
    expect(outcomes).not.toContain('unavailable');
    expect(rounds).toBe(1);
    sandbox.close?.();
  });
});
